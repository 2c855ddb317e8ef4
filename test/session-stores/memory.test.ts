import { MemorySessionStore } from '@episodic/core';
import { sessionStoreConformance } from './conformance.js';

// A memory store dies with its process: there is no dead writer to take over from.
sessionStoreConformance(
  'memory',
  async () => {
    const store = new MemorySessionStore();
    return { store, remove: async (id) => void (await store.delete(id)) };
  },
  { takeover: false },
);
