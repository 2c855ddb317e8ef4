import { mkdtemp, readdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { FileSessionStore } from '@episodic/core/node';
import { sessionStoreConformance } from './conformance.js';
import { crashWriterProcess } from './crash-writer.js';

// Short, so the takeover case takes seconds; long enough that a loaded machine still sees the dead writer's lock live first.
const staleMs = 4_000;

sessionStoreConformance(
  'file',
  async () => {
    const directory = await mkdtemp(join(tmpdir(), 'episodic-store-'));
    return {
      store: new FileSessionStore({ directory, staleMs }),
      reopen: async () => new FileSessionStore({ directory, staleMs }),
      crashWriter: (id, messages) =>
        crashWriterProcess({ kind: 'file', directory, staleMs, id, messages }, 'packages/core/dist/index.js'),
      takeoverMs: staleMs,
      // The file store has no delete: an operator removes the session's files, lock included.
      remove: async (id) => {
        for (const name of await readdir(directory)) {
          if (name.startsWith(`${id}.`)) await rm(join(directory, name), { recursive: true, force: true });
        }
      },
      cleanup: () => rm(directory, { recursive: true, force: true }),
    };
  },
  { takeover: true },
);
