import { appendFile, type FileHandle, mkdtemp, open, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { TranscriptError } from '../errors/input-errors.js';
import { FileSessionStore } from './file-session-store.js';
import type { Message } from '../message/message.js';
import { StoreWriteError } from '../errors/store-write-error.js';

const user: Message = { role: 'user', content: 'hello' };
const answer: Message = { role: 'assistant', content: [{ type: 'text', text: 'hi' }] };

/** The prototype of every FileHandle, to make writes fail the way a full disk does. */
const handlePrototype: FileHandle = await (async () => {
  const probe = await open(tmpdir(), 'r');
  const prototype = Object.getPrototypeOf(probe) as FileHandle;
  await probe.close();
  return prototype;
})();

function serializedLength(messages: readonly Message[]): number {
  return messages.reduce((sum, message) => sum + Buffer.byteLength(`${JSON.stringify(message)}\n`), 0);
}

/** The disk fills up after `room` bytes: the first write takes what fits, the next fails with ENOSPC. */
function failWritesAfter(room: number) {
  const original = handlePrototype.write;
  let left = room;
  return vi.spyOn(handlePrototype, 'write').mockImplementation(async function (this: FileHandle, data: unknown) {
    const bytes = Buffer.from(data as Buffer);
    if (left <= 0) throw Object.assign(new Error('ENOSPC: no space left on device, write'), { code: 'ENOSPC' });
    const taken = bytes.subarray(0, left);
    left -= taken.length;
    const writeBytes = original as (this: FileHandle, chunk: Uint8Array) => ReturnType<FileHandle['write']>;
    return writeBytes.call(this, taken);
  } as FileHandle['write']);
}

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

  it('reports and ignores a torn last line, and cuts it off before the next append', async () => {
    await store.append('s', [user]);
    const good = await readFile(store.transcriptPath('s'), 'utf8');
    await appendFile(store.transcriptPath('s'), '{"role":"assistant","content":[{"type":"te');
    const loaded = await store.load('s');
    expect(loaded?.messages).toEqual([user]);
    expect(loaded?.torn).toMatchObject({ line: 2, reason: expect.stringMatching(/cut short by a crash/) });

    await new FileSessionStore({ directory }).append('s', [answer]);
    // The fragment is gone, so it never sits between good lines (where it would be damage).
    expect(await readFile(store.transcriptPath('s'), 'utf8')).toBe(`${good}${JSON.stringify(answer)}\n`);
    expect(await store.load('s')).toEqual({ messages: [user, answer], packState: undefined });
  });

  it('refuses a damaged line that is not the last, naming it and the repair command', async () => {
    const other: Message = { role: 'user', content: 'and the nightly build' };
    await store.append('s', [user, answer, other, answer]);
    const text = await readFile(store.transcriptPath('s'), 'utf8');
    // One changed byte: the closing quote of the third line's content.
    await writeFile(store.transcriptPath('s'), text.replace('build"', 'buildx'));
    const error = await store.load('s').catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(TranscriptError);
    expect(error).toMatchObject({ code: 'invalid_transcript', line: 3 });
    expect((error as Error).message).toContain(`episodic repair ${store.transcriptPath('s')}`);
  });

  it('refuses lines that contradict each other, naming both', async () => {
    const call: Message = { role: 'assistant', content: [{ type: 'tool-call', id: 'c1', name: 't', args: {} }] };
    const result: Message = { role: 'tool', toolCallId: 'c1', toolName: 't', content: 'ok' };
    await store.append('s', [user, call, result, result]);
    await expect(store.load('s')).rejects.toMatchObject({
      code: 'invalid_transcript',
      line: 4,
      message: expect.stringMatching(/already has its result on line 3/),
    });
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

  it('rolls a write that failed half-way back to the last complete step, with a typed error', async () => {
    await store.append('s', [user]);
    const before = await readFile(store.transcriptPath('s'));
    const results: Message[] = [1, 2, 3].map((n) => ({ role: 'tool', toolCallId: `c${n}`, toolName: 't', content: 'x'.repeat(50) }));
    const call: Message = {
      role: 'assistant',
      content: [1, 2, 3].map((n) => ({ type: 'tool-call', id: `c${n}`, name: 't', args: {} })),
    };
    await store.append('s', [call]);
    const withCall = await readFile(store.transcriptPath('s'));
    const failing = failWritesAfter(serializedLength([results[0]!, results[1]!]) + 10);
    try {
      const error = await store.append('s', results).catch((caught: unknown) => caught);
      expect(error).toBeInstanceOf(StoreWriteError);
      expect(error).toMatchObject({ code: 'store_write_failed', errno: 'ENOSPC', cause: { code: 'ENOSPC' } });
      expect((error as Error).message).toMatch(/the disk is full \(ENOSPC\)\. The transcript was restored/);
    } finally {
      failing.mockRestore();
    }
    // Two whole result lines were on disk; left there, a resumed step would save them twice.
    expect(await readFile(store.transcriptPath('s'))).toEqual(withCall);
    await store.append('s', results);
    expect((await store.load('s'))?.messages).toEqual([user, call, ...results]);
    expect(before.length).toBeLessThan(withCall.length);
  });

  it('ignores and later removes a failed write it could not truncate away', async () => {
    await store.append('s', [user]);
    const good = await readFile(store.transcriptPath('s'));
    const failing = failWritesAfter(serializedLength([answer]));
    const truncate = vi.spyOn(handlePrototype, 'truncate').mockRejectedValue(
      Object.assign(new Error('EIO: i/o error, ftruncate'), { code: 'EIO' }),
    );
    try {
      await expect(store.append('s', [answer, answer])).rejects.toMatchObject({
        code: 'store_write_failed',
        message: expect.stringMatching(/removes it before its next write/),
      });
    } finally {
      failing.mockRestore();
      truncate.mockRestore();
    }
    expect((await readFile(store.transcriptPath('s'))).length).toBeGreaterThan(good.length);
    expect((await store.load('s'))?.messages).toEqual([user]);
    const later: Message = { role: 'user', content: 'after the disk was freed' };
    await store.append('s', [later]);
    expect((await store.load('s'))?.messages).toEqual([user, later]);
  });

  it('finishes a write the system took only part of, instead of reporting it done', async () => {
    await store.append('s', [user]);
    const original = handlePrototype.write;
    // write(2) may take fewer bytes than asked (a disk nearly full, a signal): Node reports it, it does not throw.
    const short = vi.spyOn(handlePrototype, 'write').mockImplementationOnce(async function (this: FileHandle, data: unknown) {
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
    await expect(late.append('s', [user])).rejects.toMatchObject({ code: 'store_write_failed', errno: 'EEXIST' });
    await rm(blocked);
    await late.append('s', [user]);
    expect((await late.load('s'))?.messages).toEqual([user]);
  });
});
