import { appendFile, mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { PersistedFormatError } from '@episodic/core';
import { FileReplayCache } from '@episodic/core/node';
import { afterEach, describe, expect, it } from 'vitest';
import { entry, failLookups, replayCacheConformance } from './replay-cache-conformance.js';

const directories: string[] = [];
async function freshPath(): Promise<string> {
  const directory = await mkdtemp(join(tmpdir(), 'episodic-replay-'));
  directories.push(directory);
  return join(directory, 'nested', 'replay.jsonl');
}
afterEach(async () => {
  for (const directory of directories.splice(0)) await rm(directory, { recursive: true, force: true });
});

replayCacheConformance('file', async (bounds) => FileReplayCache.open({ ...bounds, path: await freshPath() }), failLookups);

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

  it('refuses a line that is JSON but not an entry, naming the file, the line and the field', async () => {
    const path = await freshPath();
    const good = JSON.stringify(entry('good', 0));
    await mkdir(dirname(path), { recursive: true });
    await writeFile(path, `${good}\n{"key":"bad","provider":"deepseek","parts":[]}\n`);
    const error = await FileReplayCache.open({ path, now: () => 0 }).catch((thrown: unknown) => thrown);
    expect(error).toBeInstanceOf(PersistedFormatError);
    expect(error).toMatchObject({ code: 'invalid_replay_cache', file: path, line: 2, field: 'model' });
    expect((error as Error).message).toBe(
      `${path}, line 2: model is required; it is not a valid version 1 replay-cache log: ` +
        'delete the file (the cache starts empty and stores reasoning again as the agent runs).',
    );
  });

  it('refuses a line written by a newer version, and still skips a torn line in the middle', async () => {
    const path = await freshPath();
    await mkdir(dirname(path), { recursive: true });
    const newer = JSON.stringify({ ...entry('newer', 0), version: 2 });
    await writeFile(path, `{"key":"torn","par\n${JSON.stringify(entry('good', 0))}\n${newer}\n`);
    await expect(FileReplayCache.open({ path, now: () => 0 })).rejects.toMatchObject({
      code: 'invalid_replay_cache',
      line: 3,
      field: 'version',
      message: expect.stringMatching(/is a version 2 replay-cache log, written by a newer version of Episodic/),
    });
    await writeFile(path, `{"key":"torn","par\n${JSON.stringify(entry('good', 0))}\n`);
    const cache = await FileReplayCache.open({ path, now: () => 0 });
    expect((await cache.get('good'))?.parts).toEqual(entry('good', 0).parts);
    await cache.close();
  });

  it('refuses writes after close', async () => {
    const cache = await FileReplayCache.open({ path: await freshPath() });
    await cache.close();
    await expect(cache.set([entry('a', Date.now())])).rejects.toThrow(/closed/);
  });
});
