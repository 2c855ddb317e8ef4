/**
 * `episodic replay-cache` over a real file cache log and a real PGlite database: the
 * entries an agent's cache wrote are listed, deleted, swept and reported, as text
 * and as JSON, and what the command deleted is gone when the cache is reopened.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type ReplayEntry } from '@episodic/core/reasoning';
import { FileReplayCache } from '@episodic/core/node';
import { openPGlite, PostgresReplayCache } from '@episodic/postgres';
import { afterEach, describe, expect, it } from 'vitest';
import { toolCallKey } from '../../../core/src/reasoning/replay-cache/replay-cache.js';
import { runCli } from '../testing/cli-harness.js';

const directories: string[] = [];
afterEach(async () => {
  for (const directory of directories.splice(0)) await rm(directory, { recursive: true, force: true });
});
async function freshDirectory(): Promise<string> {
  const directory = await mkdtemp(join(tmpdir(), 'episodic-replay-cli-'));
  directories.push(directory);
  return directory;
}

const now = Date.now();
const entry = (provider: string, model: string, id: string, ageMs: number): ReplayEntry => ({
  key: toolCallKey({ provider, id: model }, id),
  provider,
  model,
  parts: [{ type: 'reasoning', text: `why ${id}` }],
  tokens: 3,
  storedAt: now - ageMs,
});
const entries = [
  entry('deepseek', 'deepseek-v4', 'call_1', 1_000),
  entry('deepseek', 'deepseek-v4', 'call_2', 2_000),
  entry('moonshot', 'kimi-k2.6', 'call_3', 3_000),
  entry('moonshot', 'kimi-k2.6', 'call_old', 3 * 60 * 60 * 1000),
];

describe('episodic replay-cache', () => {
  it('operates a file cache: list, stats, delete, sweep, clear, in text and JSON', async () => {
    const path = join(await freshDirectory(), 'replay.jsonl');
    const writer = await FileReplayCache.open({ path, ttlMs: 24 * 60 * 60 * 1000 });
    await writer.set(entries);
    await writer.close();

    const list = await runCli(['replay-cache', 'list', '--cache', path]);
    expect(list.code).toBe(0);
    expect(list.stdout).toMatch(/^stored at\s+provider\s+model\s+tool call\s+tokens$/m);
    expect(list.stdout).toContain('3 entries');
    expect(list.stdout).not.toContain('call_old');
    const json = JSON.parse((await runCli(['replay-cache', 'list', '--cache', path, '--provider', 'moonshot', '--json'])).stdout);
    expect(json.map((found: ReplayEntry) => found.key.split('\u0000').at(-1))).toEqual(['call_3']);

    const stats = JSON.parse((await runCli(['replay-cache', 'stats', '--cache', path, '--json', '--ttl-ms', String(24 * 3600_000)])).stdout);
    expect(stats).toMatchObject({ entries: 4, persistentEntries: 4, byModel: { 'deepseek/deepseek-v4': { entries: 2, tokens: 6 } } });

    // The entry older than the default 2-hour time to live is swept from the log.
    expect((await runCli(['replay-cache', 'sweep', '--cache', path])).stdout).toBe('Deleted 1 entry.\n');
    expect((await runCli(['replay-cache', 'delete', '--cache', path, '--tool-call-id', 'call_1'])).stdout).toBe('Deleted 1 entry.\n');
    const reopened = await FileReplayCache.open({ path });
    expect((await reopened.list()).map((found) => found.key.split('\u0000').at(-1))).toEqual(['call_2', 'call_3']);
    await reopened.close();
    expect((await runCli(['replay-cache', 'clear', '--cache', path, '--json'])).stdout).toBe('{\n  "deleted": 2\n}\n');
  });

  it('operates a PGlite cache the same way', { timeout: 180_000 }, async () => {
    const directory = await freshDirectory();
    const pglite = await openPGlite(directory);
    const writer = new PostgresReplayCache({ pglite, ttlMs: 24 * 60 * 60 * 1000 });
    await writer.set(entries);
    await pglite.close();
    const spec = `pglite:${directory}`;
    expect((await runCli(['replay-cache', 'delete', '--cache', spec, '--model', 'deepseek-v4'])).stdout).toBe('Deleted 2 entries.\n');
    const stats = await runCli(['replay-cache', 'stats', '--cache', spec]);
    expect(stats.stdout).toMatch(/^entries {6}1 \(memory 0, persistent 2\)$/m);
    expect(stats.stdout).toMatch(/^moonshot\/kimi-k2\.6\s+1\s+3$/m);
  });

  it('says what is wrong with the command line', async () => {
    expect(await runCli(['replay-cache', 'list'])).toMatchObject({ code: 2, stderr: expect.stringMatching(/missing --cache/) });
    expect(await runCli(['replay-cache', 'purge', '--cache', 'x'])).toMatchObject({ code: 2, stderr: expect.stringMatching(/unknown action 'purge'/) });
    const path = join(await freshDirectory(), 'replay.jsonl');
    const cache = await FileReplayCache.open({ path });
    await cache.set(entries.slice(0, 1));
    await cache.close();
    expect(await runCli(['replay-cache', 'delete', '--cache', path])).toMatchObject({ code: 2, stderr: expect.stringMatching(/needs --tool-call-id/) });
    expect(await runCli(['replay-cache', 'list', '--cache', path, '--limit', '0'])).toMatchObject({ code: 2, stderr: expect.stringMatching(/--limit must be a positive integer/) });
  });
});
