/**
 * The reasoning sidecar (`persistReasoning: 'current-episode'`) in every built-in
 * session store: replaced whole, returned by `load`, deleted by `undefined`, and
 * kept apart from the transcript and from other sessions.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { MemorySessionStore, type Message, type ReasoningSidecar, type SessionStore } from '@episodic/core';
import { FileSessionStore } from '@episodic/core/node';
import { afterEach, describe, expect, it } from 'vitest';

const directories: string[] = [];
afterEach(async () => {
  for (const directory of directories.splice(0)) await rm(directory, { recursive: true, force: true });
});

const factories: [string, () => Promise<SessionStore>][] = [
  ['memory', async () => new MemorySessionStore()],
  [
    'file',
    async () => {
      const directory = await mkdtemp(join(tmpdir(), 'episodic-sidecar-'));
      directories.push(directory);
      return new FileSessionStore({ directory, sync: false });
    },
  ],
];

const user: Message = { role: 'user', content: 'CI is red' };
const sidecar = (text: string): ReasoningSidecar => ({
  version: 1,
  episodeStart: 0,
  entries: [
    { index: 1, fingerprint: 'f', parts: [{ position: 0, part: { type: 'reasoning', text, signature: 's' } }] },
  ],
});

for (const [name, open] of factories) {
  describe(`${name} session store reasoning sidecar`, () => {
    it('replaces the sidecar whole, loads it back, and deletes it', async () => {
      const store = await open();
      await store.append('s', [user]);
      expect((await store.load('s'))?.reasoningSidecar).toBeUndefined();
      await store.saveReasoningSidecar?.('s', sidecar('first'));
      await store.saveReasoningSidecar?.('s', sidecar('second'));
      expect((await store.load('s'))?.reasoningSidecar).toEqual(sidecar('second'));
      expect((await store.load('s'))?.messages).toEqual([user]);
      await store.saveReasoningSidecar?.('s', undefined);
      await store.saveReasoningSidecar?.('s', undefined);
      expect((await store.load('s'))?.reasoningSidecar).toBeUndefined();
    });

    it('keeps sidecars of sessions apart and out of the session list', async () => {
      const store = await open();
      await store.append('a', [user]);
      await store.append('b', [user]);
      await store.saveReasoningSidecar?.('a', sidecar('only a'));
      expect((await store.load('b'))?.reasoningSidecar).toBeUndefined();
      if (store.list) expect((await store.list()).sort()).toEqual(['a', 'b']);
    });
  });
}
