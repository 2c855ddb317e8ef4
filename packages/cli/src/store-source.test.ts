/**
 * `--store SPEC --session ID` on episodes and budget, and `episodic migrate`: a
 * file store directory, a PGlite directory, and a PostgreSQL server (EPISODIC_PG_URL
 * or a throwaway one; the tests fail without either).
 */
import { existsSync } from 'node:fs';
import { type Message } from '@episodic/core';
import { FileSessionStore } from '@episodic/core/node';
import { openPGlite, PostgresSessionStore } from '@episodic/postgres';
import { serverPerFile } from '@episodic/postgres/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fixtureDir, runCli, twoEpisodes } from './testing/cli-harness.js';

const session = twoEpisodes.slice(1) as Message[];
let dir: Awaited<ReturnType<typeof fixtureDir>>;
beforeAll(async () => {
  dir = await fixtureDir();
});
afterAll(() => dir.cleanup());

async function episodeCount(argv: readonly string[]): Promise<{ source: string; episodes: number }> {
  const result = await runCli(['episodes', ...argv, '--json']);
  expect(result.stderr).toBe('');
  expect(result.code).toBe(0);
  const parsed = JSON.parse(result.stdout) as { source: string; episodes: unknown[] };
  return { source: parsed.source, episodes: parsed.episodes.length };
}

describe('--store with a file store directory', () => {
  it('reads a stored session, and says what is wrong with the options or the id', async () => {
    const directory = dir.path('sessions');
    await new FileSessionStore({ directory }).append('chat-1', session);
    expect(await episodeCount(['--store', directory, '--session', 'chat-1'])).toEqual({
      source: `${directory} session chat-1`,
      episodes: 2,
    });
    const missing = await runCli(['episodes', '--store', directory, '--session', 'nope']);
    expect(missing).toMatchObject({ code: 1, stderr: expect.stringMatching(/no session "nope" in .*sessions: check the id/) });
    expect(await runCli(['episodes', '--session', 'chat-1'])).toMatchObject({ code: 2, stderr: expect.stringMatching(/--session needs --store/) });
    expect(await runCli(['episodes', 'x.jsonl', '--store', directory, '--session', 'chat-1'])).toMatchObject({ code: 2 });
    expect(await runCli(['episodes', '--store', directory])).toMatchObject({ code: 2, stderr: expect.stringMatching(/--store needs --session/) });
    const migrate = await runCli(['migrate', '--store', directory]);
    expect(migrate).toMatchObject({ code: 2, stderr: expect.stringMatching(/file store directory/) });
  });
});

describe('--store with a PGlite directory', () => {
  it('migrates once, then reads sessions for episodes and budget', async () => {
    const directory = dir.path('pglite');
    // Reading a store that is not there creates nothing (it silently created a database).
    for (const argv of [['episodes', '--store', `pglite:${directory}`, '--session', 'a'], ['replay-cache', 'list', '--cache', `pglite:${directory}`]]) {
      const refused = await runCli(argv);
      expect(refused).toMatchObject({ code: 1, stderr: expect.stringContaining(`${directory} does not exist; nothing was created`) });
      expect(existsSync(directory)).toBe(false);
    }
    // A database without the session tables gets none from a read either.
    await (await openPGlite(directory)).close();
    const empty = await runCli(['episodes', '--store', `pglite:${directory}`, '--session', 'a']);
    expect(empty).toMatchObject({ code: 1, stderr: expect.stringContaining('no session tables in schema public; nothing was created') });
    const migrated = await runCli(['migrate', '--store', `pglite:${directory}`]);
    expect(migrated).toMatchObject({ code: 0, stdout: expect.stringMatching(/^Applied migrations 1, 2, 3, 4 to pglite:.* \(schema public\) in \d+\.\d s\.\n$/) });
    // Progress on stderr while PGlite starts and the migrations run.
    expect(migrated.stderr).toBe(`Opening pglite:${directory}...\nApplying the migrations pglite:${directory} (schema public) lacks...\n`);
    expect((await runCli(['migrate', '--store', `pglite:${directory}`])).stdout).toMatch(/is up to date/);
    const pglite = await openPGlite(directory);
    await new PostgresSessionStore({ pglite }).append('chat-1', session);
    await pglite.close();
    // A directory holding PG_VERSION is taken for PGlite without the prefix.
    expect((await episodeCount(['--store', directory, '--session', 'chat-1'])).episodes).toBe(2);
    const budget = await runCli(['budget', '--store', `pglite:${directory}`, '--session', 'chat-1', '--budgets', '16k', '--json']);
    expect(budget.code).toBe(0);
    expect(JSON.parse(budget.stdout)).toMatchObject({ source: `pglite:${directory} session chat-1` });
  }, 180_000);
});

describe('--store with a PostgreSQL server', () => {
  const server = serverPerFile();
  // Starts the server before the test's clock runs; a failure is the test's to report.
  beforeAll(() => server.url().then(() => {}, () => {}), 120_000);
  afterAll(() => server.stop());

  it('a read of a schema without the session tables creates nothing and names the migrate command', async () => {
    const spec = await server.url();
    const schema = `cli_empty_${Date.now()}`;
    const result = await runCli(['episodes', '--store', spec, '--schema', schema, '--session', 'chat-1']);
    expect(result.code).toBe(1);
    expect(result.stderr).toMatch(new RegExp(`no session tables in schema ${schema}; nothing was created \\(episodic migrate --store URL creates them\\)`));
    const probe = new PostgresSessionStore({ connectionString: spec, schema });
    try {
      expect(await probe.hasTables()).toBe(false);
    } finally {
      await probe.close();
    }
  });

  it('reads a session from the server and never prints the password', async () => {
    const url = new URL(await server.url());
    url.password = 'secret-password'; // the test server trusts local connections, whatever the password
    const spec = url.toString();
    const schema = `cli_${Date.now()}`;
    expect((await runCli(['migrate', '--store', spec, '--schema', schema])).stdout).toMatch(/^Applied migrations 1, 2, 3, 4 to .*\*\*\*/);
    const store = new PostgresSessionStore({ connectionString: spec, schema });
    await store.append('chat-1', session);
    await store.close();
    const read = await episodeCount(['--store', spec, '--schema', schema, '--session', 'chat-1']);
    expect(read.episodes).toBe(2);
    expect(read.source).not.toContain('secret-password');
  });
});
