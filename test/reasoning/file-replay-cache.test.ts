import { appendFile, mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { FileReplayCache } from '@episodic/core';
import { afterEach, describe, expect, it } from 'vitest';
import { entry, replayCacheConformance } from './replay-cache-conformance.js';

const directories: string[] = [];
async function freshPath(): Promise<string> {
  const directory = await mkdtemp(join(tmpdir(), 'episodic-replay-'));
  directories.push(directory);
  return join(directory, 'nested', 'replay.jsonl');
}
afterEach(async () => {
  for (const directory of directories.splice(0)) await rm(directory, { recursive: true, force: true });
});

replayCacheConformance('file', async (bounds) => FileReplayCache.open({ ...bounds, path: await freshPath() }));

describe('FileReplayCache', () => {
  it('survives a restart, skipping a torn last line and expired entries', async () => {
    const path = await freshPath();
    let now = 1_000;
    const first = await FileReplayCache.open({ path, ttlMs: 500, now: () => now });
    await first.set([entry('old', 600), entry('kept', 1_000)]);
    await first.close();
    await appendFile(path, '{"key":"torn","parts":[{"type":"reas');
    now = 1_200;
    const second = await FileReplayCache.open({ path, ttlMs: 500, now: () => now });
    expect(await second.get('old')).toBeUndefined();
    expect((await second.get('kept'))?.parts[0]?.text).toBe('reasoning for kept');
    expect(await second.get('torn')).toBeUndefined();
    // The torn fragment stays a line of its own: the next entry is readable after another restart.
    await second.set([entry('after', 1_200)]);
    await second.close();
    const third = await FileReplayCache.open({ path, ttlMs: 500, now: () => now });
    expect(await third.get('after')).toBeDefined();
    await third.close();
  });

  it('compacts the log to the live entries once it holds many more lines', async () => {
    const path = await freshPath();
    const cache = await FileReplayCache.open({ path, maxEntries: 5, compactAfter: 20, now: () => 0 });
    for (let index = 0; index < 30; index += 1) await cache.set([entry(`k${index}`, 0)]);
    await cache.close();
    const lines = (await readFile(path, 'utf8')).trim().split('\n');
    expect(lines.length).toBeLessThan(20);
    const reopened = await FileReplayCache.open({ path, maxEntries: 5, now: () => 0 });
    expect(await reopened.get('k29')).toBeDefined();
    expect(await reopened.get('k0')).toBeUndefined();
    expect(reopened.stats().entries).toBe(5);
    await reopened.close();
  });

  it('refuses writes after close', async () => {
    const cache = await FileReplayCache.open({ path: await freshPath() });
    await cache.close();
    await expect(cache.set([entry('a', Date.now())])).rejects.toThrow(/closed/);
  });
});
