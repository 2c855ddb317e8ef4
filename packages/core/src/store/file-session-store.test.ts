import { appendFile, type FileHandle, mkdtemp, open, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { FileSessionStore } from './file-session-store.js';
import type { Message } from '../message/message.js';

const user: Message = { role: 'user', content: 'hello' };
const answer: Message = { role: 'assistant', content: [{ type: 'text', text: 'hi' }] };

describe('FileSessionStore', () => {
  let directory: string;
  let store: FileSessionStore;
  beforeEach(async () => {
    directory = await mkdtemp(join(tmpdir(), 'episodic-file-store-'));
    store = new FileSessionStore({ directory });
  });
  afterEach(() => rm(directory, { recursive: true, force: true }));

  it('writes transcript v1 lines, one message each', async () => {
    await store.append('s', [user, answer]);
    expect(await readFile(store.transcriptPath('s'), 'utf8')).toBe(
      `${JSON.stringify(user)}\n${JSON.stringify(answer)}\n`,
    );
  });

  it('reports and ignores a torn last line, and keeps it apart from later appends', async () => {
    await store.append('s', [user]);
    await appendFile(store.transcriptPath('s'), '{"role":"assistant","content":[{"type":"te');
    const loaded = await store.load('s');
    expect(loaded?.messages).toEqual([user]);
    expect(loaded?.torn).toMatchObject({ line: 2, reason: expect.stringMatching(/cut short by a crash/) });

    const before = await readFile(store.transcriptPath('s'), 'utf8');
    await new FileSessionStore({ directory }).append('s', [answer]);
    const after = await readFile(store.transcriptPath('s'), 'utf8');
    expect(after.startsWith(before)).toBe(true); // appended only, never rewritten
    const reloaded = await store.load('s');
    expect(reloaded?.messages).toEqual([user, answer]);
    expect(reloaded?.torn?.line).toBe(2);
  });

  it('keeps a last line that lacks only its newline', async () => {
    await writeFile(store.transcriptPath('s'), JSON.stringify(user));
    expect(await store.load('s')).toEqual({ messages: [user], packState: undefined });
    await new FileSessionStore({ directory }).append('s', [answer]);
    expect((await store.load('s'))?.messages).toEqual([user, answer]);
  });

  it('throws a transcript error for a complete line that is not a valid message', async () => {
    await writeFile(store.transcriptPath('s'), `${JSON.stringify(user)}\n{"role":"robot"}\n`);
    await expect(store.load('s')).rejects.toMatchObject({ code: 'invalid_transcript', line: 2 });
  });

  it('replaces the pack state atomically and leaves no temporary files', async () => {
    await store.saveState('s', { version: 1, evictedEpisodes: 1 });
    await store.saveState('s', { version: 1, evictedEpisodes: 3 });
    expect(JSON.parse(await readFile(store.statePath('s'), 'utf8'))).toEqual({ version: 1, evictedEpisodes: 3 });
    expect(await readdir(directory)).toEqual(['s.state.json']);
    expect(await store.load('s')).toEqual({ messages: [], packState: { version: 1, evictedEpisodes: 3 } });
  });

  it('names a pack state file it cannot read and says what to do', async () => {
    await store.append('s', [user]);
    await writeFile(store.statePath('s'), '{"version":7}');
    await expect(store.load('s')).rejects.toMatchObject({
      code: 'invalid_session_state',
      message: expect.stringMatching(/delete it/),
    });
  });

  it('lists nothing for a directory that does not exist yet', async () => {
    expect(await new FileSessionStore({ directory: join(directory, 'missing') }).list()).toEqual([]);
  });

  it('keeps a write that failed half-way apart from the next append of the same store', async () => {
    await store.append('s', [user]);
    const probe = await open(join(directory, 'probe'), 'w');
    const prototype = Object.getPrototypeOf(probe) as FileHandle;
    await probe.close();
    const original = prototype.write;
    const failing = vi.spyOn(prototype, 'write').mockImplementationOnce(async function (this: FileHandle, data: unknown) {
      // The disk fills up after half the bytes: a torn line, and an error.
      await original.call(this, String(data).slice(0, 20));
      throw Object.assign(new Error('ENOSPC: no space left on device, write'), { code: 'ENOSPC' });
    } as FileHandle['write']);
    try {
      await expect(store.append('s', [answer])).rejects.toMatchObject({ code: 'ENOSPC' });
    } finally {
      failing.mockRestore();
    }
    const later: Message = { role: 'user', content: 'after the disk was freed' };
    await store.append('s', [later]);
    const loaded = await store.load('s');
    expect(loaded?.messages).toEqual([user, later]);
    expect(loaded?.torn?.line).toBe(2);
  });

  it('finishes a write the system took only part of, instead of reporting it done', async () => {
    await store.append('s', [user]);
    const probe = await open(join(directory, 'probe'), 'w');
    const prototype = Object.getPrototypeOf(probe) as FileHandle;
    await probe.close();
    const original = prototype.write;
    // write(2) may take fewer bytes than asked (a disk nearly full, a signal): Node reports it, it does not throw.
    const short = vi.spyOn(prototype, 'write').mockImplementationOnce(async function (this: FileHandle, data: unknown) {
      const writeBytes = original as (this: FileHandle, bytes: Uint8Array) => ReturnType<FileHandle['write']>;
      return writeBytes.call(this, Buffer.from(data as Buffer).subarray(0, 20));
    } as FileHandle['write']);
    try {
      await store.append('s', [answer]);
    } finally {
      short.mockRestore();
    }
    expect((await store.load('s'))?.messages).toEqual([user, answer]);
  });

  it('tries to create its directory again after a failed attempt', async () => {
    const blocked = join(directory, 'sessions');
    await writeFile(blocked, 'a file where the directory should be');
    const late = new FileSessionStore({ directory: blocked });
    await expect(late.append('s', [user])).rejects.toMatchObject({ code: 'EEXIST' });
    await rm(blocked);
    await late.append('s', [user]);
    expect((await late.load('s'))?.messages).toEqual([user]);
  });
});
