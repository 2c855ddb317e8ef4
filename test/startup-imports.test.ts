/**
 * What a fresh process loads on its way to the first request (issue 41): an agent
 * built from `@episodic/core` and `@episodic/providers/openai` with a JSON Schema
 * tool and an in-memory store uses no zod, so it must not load any (zod alone was
 * two thirds of core's import time). The program runs in a child Node process on
 * the packages' bundles, as an application does; an ES module loader hook records
 * every module it loads, and the CommonJS cache shows what was `require`d.
 */
import { execFileSync, spawn } from 'node:child_process';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { build } from 'esbuild';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type OpenAIScriptedServer, startOpenAIResponsesServer } from './servers/openai-responses-server.js';

const repoRoot = fileURLToPath(new URL('..', import.meta.url));

// Runs in the loader thread: one line per ES module loaded.
const hooks = `import { appendFileSync } from 'node:fs';
export async function load(url, context, next) {
  appendFileSync(process.env.LOADED_MODULES, url + '\\n');
  return next(url, context);
}
`;

/** The first-request bench's agent (bench/agent-programs.js), then what CommonJS loaded. */
const agentProgram = (extra: string, input = `'Why did the build fail?'`) => `import { createRequire } from 'node:module';
import { Agent } from '@episodic/core';
import { createOpenAIResponsesAdapter } from '@episodic/providers/openai';
${extra}
const model = createOpenAIResponsesAdapter({ model: 'gpt-5', apiKey: 'sk-test', baseURL: process.env.BASE_URL });
const readLog = {
  spec: { name: 'read_log', description: 'Reads a CI log', inputSchema: { type: 'object', properties: { run: { type: 'number' } }, required: ['run'] } },
  execute: async () => ({ content: 'ok' }),
};
const session = await new Agent({ model, system: 'You debug CI failures.', tools: [readLog] }).session();
const { text } = await session.send(${input});
console.log(JSON.stringify({ text, required: Object.keys(createRequire(import.meta.url).cache) }));
`;

/** A transcript line checked by the synchronous `parseTranscriptLine`: core has to load zod there and then. */
const transcriptProgram = `import { createRequire } from 'node:module';
import { parseTranscriptLine } from '@episodic/core/transcript';
let text = 'accepted';
try {
  parseTranscriptLine('{"role":"user","content":7}', 3, 'x.jsonl');
} catch (error) {
  text = error.name + ': ' + error.message;
}
console.log(JSON.stringify({ text, required: Object.keys(createRequire(import.meta.url).cache) }));
`;
const badLineError = 'TranscriptError: x.jsonl, line 3: user content must be string (got number)';

interface Loaded {
  text: string;
  /** Every module file loaded, ES modules and CommonJS, as paths. */
  files: string[];
}

describe('the first request of a fresh process', () => {
  let server: OpenAIScriptedServer;
  let folder: string;

  beforeAll(async () => {
    server = await startOpenAIResponsesServer();
    folder = await mkdtemp(join(tmpdir(), 'episodic-startup-'));
    await writeFile(join(folder, 'hooks.mjs'), hooks);
    await writeFile(join(folder, 'register.mjs'), `import { register } from 'node:module';\nregister(${JSON.stringify(pathToFileURL(join(folder, 'hooks.mjs')).href)});\n`);
  });

  afterAll(async () => {
    await server?.close();
    if (folder) await rm(folder, { recursive: true, force: true });
  });

  /** Runs `program` in a fresh Node process (from the repository root, so the workspace packages resolve to their bundles). */
  async function run(program: string, name: string): Promise<Loaded> {
    const log = join(folder, `${name}.log`);
    await writeFile(log, '');
    const env = { ...process.env, BASE_URL: `${server.url}/v1`, LOADED_MODULES: log };
    const stdout = await new Promise<string>((resolve, reject) => {
      const child = spawn(process.execPath, ['--import', join(folder, 'register.mjs'), '--input-type=module', '-e', program], { cwd: repoRoot, env });
      let out = '';
      let err = '';
      child.stdout.setEncoding('utf8').on('data', (chunk: string) => (out += chunk));
      child.stderr.setEncoding('utf8').on('data', (chunk: string) => (err += chunk));
      child.on('error', reject);
      child.on('close', (code) => (code === 0 ? resolve(out) : reject(new Error(`exit ${code}: ${err}`))));
    });
    const { text, required } = JSON.parse(stdout) as { text: string; required: string[] };
    const modules = (await readFile(log, 'utf8')).split('\n').filter((url) => url.startsWith('file:'));
    return { text, files: [...modules.map((url) => fileURLToPath(url)), ...required] };
  }

  const zodFiles = (files: readonly string[]) => files.filter((file) => /[\\/]node_modules[\\/](zod|zod3|zod-to-json-schema)[\\/]/.test(file));

  it('loads no zod on the way to an agent with a JSON Schema tool answering', { timeout: 60_000 }, async () => {
    server.enqueue({ type: 'reply', text: 'The tests timed out.' });
    const loaded = await run(agentProgram(''), 'agent');
    expect(loaded.text).toBe('The tests timed out.');
    expect(loaded.files.some((file) => file.includes(join('packages', 'core', 'bundle')))).toBe(true);
    expect(loaded.files.some((file) => file.includes(join('packages', 'providers', 'bundle')))).toBe(true);
    expect(zodFiles(loaded.files).slice(0, 3)).toEqual([]);
  });

  it('loads no zod when the message is given as text parts', { timeout: 60_000 }, async () => {
    server.enqueue({ type: 'reply', text: 'ok' });
    const loaded = await run(agentProgram('', `[{ type: 'text', text: 'Why did the build fail?' }]`), 'parts');
    expect(loaded.text).toBe('ok');
    expect(zodFiles(loaded.files).slice(0, 3)).toEqual([]);
  });

  it('loads zod for a synchronous check when one runs, with the same error as before', { timeout: 60_000 }, async () => {
    const loaded = await run(transcriptProgram, 'transcript');
    expect(loaded.text).toBe(badLineError);
    expect(zodFiles(loaded.files).length).toBeGreaterThan(0);
  });

  it('bundles zod into a Node bundle, whose synchronous checks then need no node_modules', { timeout: 60_000 }, async () => {
    const stdin = { contents: transcriptProgram, resolveDir: repoRoot, sourcefile: 'check.js', loader: 'js' as const };
    const result = await build({ stdin, bundle: true, format: 'esm', platform: 'node', write: false, logLevel: 'silent' });
    const file = join(folder, 'check.mjs');
    await writeFile(file, result.outputFiles[0]!.text);
    const output = JSON.parse(execFileSync(process.execPath, [file], { cwd: folder, encoding: 'utf8' })) as { text: string };
    expect(output.text).toBe(badLineError);
  });

  it('sees zod when the program loads it, as an ES module or through require', { timeout: 60_000 }, async () => {
    server.enqueue({ type: 'reply', text: 'ok' }, { type: 'reply', text: 'ok' });
    const imported = await run(agentProgram(`await import('zod/v4');`), 'imported');
    expect(zodFiles(imported.files).length).toBeGreaterThan(0);
    const required = await run(agentProgram(`createRequire(import.meta.url)('zod/v4');`), 'required');
    expect(zodFiles(required.files).length).toBeGreaterThan(0);
  });
});
