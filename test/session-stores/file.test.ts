import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { FileSessionStore } from '@episodic/core';
import { sessionStoreConformance } from './conformance.js';
import { crashWriterProcess } from './crash-writer.js';

// The smallest staleness the lock library allows, so the takeover case takes seconds.
const staleMs = 2_000;

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
      cleanup: () => rm(directory, { recursive: true, force: true }),
    };
  },
  { takeover: true },
);
