import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { FileSessionStore } from '@episodic/core';
import { sessionStoreConformance } from './conformance.js';

sessionStoreConformance('file', async () => {
  const directory = await mkdtemp(join(tmpdir(), 'episodic-store-'));
  return { store: new FileSessionStore({ directory }), cleanup: () => rm(directory, { recursive: true, force: true }) };
});
