/**
 * The README's durable-run snippets ("### DBOS", "### Restate" under "## Durable runs")
 * run as written, against a real PostgreSQL server and a real Restate server, with
 * the environment they name (DATABASE_URL, RESTATE_ADMIN_URL, RESTATE_INGRESS_URL).
 */
import { randomBytes } from 'node:crypto';
import { mkdir, readFile, rm, writeFile } from 'node:fs/promises';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { serverPerFile } from '@episodic/postgres/testing';
import { RestateServer } from '@episodic/restate/testing';
import { afterAll, beforeAll, expect, it, vi } from 'vitest';

const root = new URL('../', import.meta.url);
const postgres = serverPerFile();
let restate: RestateServer;
beforeAll(async () => {
  restate = await RestateServer.start();
}, 90_000);
afterAll(async () => {
  await restate?.stop();
  await postgres.stop();
});

/** The ts block of a `### name` subsection of the README. */
async function subsection(name: string): Promise<string> {
  const readme = await readFile(new URL('README.md', root), 'utf8');
  const start = readme.indexOf(`\n### ${name}\n`);
  expect(start, `README has a "### ${name}" section`).toBeGreaterThan(-1);
  const body = readme.slice(start + 1).split(/\n##+ /)[0] ?? '';
  const block = /```ts\n([\s\S]*?)```/.exec(body)?.[1];
  expect(block, `"### ${name}" has a ts block`).toBeDefined();
  return block!;
}

/** Runs the block as written (from a git-ignored folder in the repo) and returns what it logged. */
async function run(name: string, env: Record<string, string>): Promise<unknown[][]> {
  const folder = new URL('test-output/', root);
  await mkdir(folder, { recursive: true });
  const file = fileURLToPath(new URL(`readme-durable-${randomBytes(4).toString('hex')}.ts`, folder));
  await writeFile(file, await subsection(name));
  for (const [key, value] of Object.entries(env)) vi.stubEnv(key, value);
  const log = vi.spyOn(console, 'log').mockImplementation(() => {});
  try {
    await import(pathToFileURL(file).href);
    return log.mock.calls;
  } finally {
    log.mockRestore();
    vi.unstubAllEnvs();
    await rm(file, { force: true });
  }
}

it('"### DBOS" starts an episode, approves the listed call and logs the summary', async () => {
  expect(await run('DBOS', { DATABASE_URL: await postgres.url() })).toEqual([[{ status: 'finished', reason: 'done', text: 'Paid.' }]]);
}, 120_000);

it('"### Restate" sends an episode, approves the listed call and logs the summary', async () => {
  const env = { DATABASE_URL: await postgres.url(), RESTATE_ADMIN_URL: restate.adminUrl, RESTATE_INGRESS_URL: restate.ingressUrl };
  expect(await run('Restate', env)).toEqual([[{ status: 'finished', reason: 'done', text: 'Paid.' }]]);
}, 120_000);
