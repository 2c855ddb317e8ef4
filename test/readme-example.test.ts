import { randomBytes } from 'node:crypto';
import { mkdir, mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import ts from 'typescript';
import { afterEach, describe, expect, it, vi } from 'vitest';

const root = new URL('../', import.meta.url);

/** The first ```ts block of a README section. */
async function exampleOf(section: string): Promise<string> {
  const readme = await readFile(new URL('README.md', root), 'utf8');
  const start = readme.indexOf(`\n## ${section}\n`);
  expect(start, `README has a "## ${section}" section`).toBeGreaterThan(-1);
  const body = readme.slice(start + 1).split(/\n## /)[0] ?? '';
  const block = /```ts\n([\s\S]*?)```/.exec(body)?.[1];
  expect(block, `"## ${section}" has a ts code block`).toBeDefined();
  return block as string;
}

describe('README examples', () => {
  const written: string[] = [];
  afterEach(async () => {
    vi.restoreAllMocks();
    for (const file of written.splice(0)) await rm(file, { force: true });
  });

  /** Runs a section's block as written and returns what it logged, one array per console.log call. */
  async function run(section: string, edit: (code: string) => string = (code) => code): Promise<unknown[][]> {
    const code = edit(await exampleOf(section));
    // Run the block itself (through vitest, so @episodic/* resolve to the sources), from a
    // git-ignored folder inside the repo so its bare imports resolve like the README's reader's.
    const folder = new URL('test-output/', root);
    await mkdir(folder, { recursive: true });
    const file = fileURLToPath(new URL(`readme-example-${randomBytes(4).toString('hex')}.ts`, folder));
    written.push(file);
    await writeFile(file, code);
    const log = vi.spyOn(console, 'log').mockImplementation(() => {});
    await import(pathToFileURL(file).href);
    return log.mock.calls;
  }

  it('"A first agent" streams the tool result and the answer', async () => {
    expect((await exampleOf('A first agent')).trimEnd().split('\n').length).toBeLessThan(25);
    expect(await run('A first agent')).toEqual([['tool:', 'Lisbon: 14°C, light rain'], ['answer:', 'Yes: light rain in Lisbon.']]);
  });

  it('"Quick start" keeps a session in embedded PGlite, in the directory it names', async () => {
    const directory = await mkdtemp(join(tmpdir(), 'episodic-readme-pglite-'));
    try {
      const code = await exampleOf('Quick start');
      expect(code).toContain("openPGlite('./data')");
      expect(await run('Quick start', (text) => text.replace("'./data'", JSON.stringify(directory)))).toEqual([[2]]);
      expect((await readdir(directory)).length).toBeGreaterThan(0);
    } finally {
      await rm(directory, { recursive: true, force: true });
    }
  }, 60_000);

  it('"One answer, no session" answers with agent.run', async () => {
    expect(await run('One answer, no session')).toEqual([['Paris.', 1]]);
  });

  it('"Already on the AI SDK?" packs a generateText call through the middleware', async () => {
    const logged = await run('Already on the AI SDK?');
    expect(logged).toHaveLength(1);
    const [text, tokens] = logged[0] as [string, number];
    expect(text).toBe('A flaky test.');
    expect(tokens).toBeGreaterThan(0);
  });

  it('is under 20 lines and runs as written', async () => {
    expect((await exampleOf('Build an agent')).trimEnd().split('\n').length).toBeLessThan(20);
    const logged = await run('Build an agent');
    expect(logged).toHaveLength(1);
    const [text, inputTokens] = logged[0] ?? [];
    expect(text).toBe('2 + 3 = 5');
    expect(inputTokens).toBeGreaterThan(50);
  });

  it('"Tool approvals" pauses, and a reopened session approves and resumes', async () => {
    expect(await run('Tool approvals')).toEqual([['paused', ['deploy']], ['Deployed to production.']]);
  });

  it('"Structured answers" recovers from a failed check and logs the typed answer', async () => {
    expect(await run('Structured answers')).toEqual([['a.test.ts', 3]]);
  });

  it('"Agents as tools" answers with the sub-agent`s text and counts its calls', async () => {
    expect(await run('Agents as tools')).toEqual([['a.test.ts is flaky: its retry races onIdle().', 1, 3]]);
  });

  it('"Hooks" logs every step and stops the episode once its cost passes the limit', async () => {
    const logged = await run('Hooks');
    expect(logged.at(-1)).toEqual(['stop-condition', 2]);
    expect(logged.slice(0, -1)).toEqual([1, 2].map((step) => [`step ${step}:`, 'tool-call']));
  });

  it('"A chat handler you mount" serves a streamed answer on Node\'s http server and refuses a body that is not JSON', async () => {
    const calls = await run('A chat handler you mount', (code) => {
      expect(code).toContain(".listen(3000, '127.0.0.1');");
      return `${code.replace(".listen(3000, '127.0.0.1');", ".listen(0, '127.0.0.1');")}
await new Promise((resolve) => server.once('listening', resolve));
const api = \`http://127.0.0.1:\${(server.address() as import('node:net').AddressInfo).port}/api/chat\`;
const message = { id: 'readme', message: { role: 'user', parts: [{ type: 'text', text: 'Hi' }] } };
const answer = await fetch(api, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(message) });
console.log(answer.status, (await answer.text()).includes('"delta":"Hello!"'));
const plain = await fetch(api, { method: 'POST', headers: { 'content-type': 'text/plain' }, body: '{}' });
console.log(plain.status);
server.close();
`;
    });
    expect(calls).toEqual([[200, true], [415]]);
  });

  it('"A stream for web chat UIs" type-checks under strict (given the agent and store of the sections before)', async () => {
    const readme = await readFile(new URL('README.md', root), 'utf8');
    const body = readme.slice(readme.indexOf('\n### A stream for web chat UIs\n')).split(/\n##+ /)[1] ?? '';
    const block = /```ts\n([\s\S]*?)```/.exec(body)?.[1];
    expect(block, 'the section has a ts block').toBeDefined();
    // The snippet uses the `agent` and `store` built earlier in the README, as a reader's route file would import them.
    const given = [
      "import type { Agent, SessionStore } from '@episodic/core';",
      'declare const agent: Agent;',
      'declare const store: SessionStore;',
    ].join('\n');
    const folder = new URL('test-output/', root);
    await mkdir(folder, { recursive: true });
    const file = fileURLToPath(new URL(`readme-ui-stream-${randomBytes(4).toString('hex')}.ts`, folder));
    written.push(file);
    await writeFile(file, `${given}\n${block ?? ''}`);
    const program = ts.createProgram([file], {
      target: ts.ScriptTarget.ES2022,
      module: ts.ModuleKind.NodeNext,
      moduleResolution: ts.ModuleResolutionKind.NodeNext,
      strict: true,
      skipLibCheck: true,
      types: ['node'],
      noEmit: true,
    });
    const errors = ts
      .getPreEmitDiagnostics(program)
      .map((d) => `${d.file ? `line ${d.file.getLineAndCharacterOfPosition(d.start ?? 0).line - 2}: ` : ''}${ts.flattenDiagnosticMessageText(d.messageText, '\n')}`);
    expect(errors).toEqual([]);
  }, 60_000);
});
