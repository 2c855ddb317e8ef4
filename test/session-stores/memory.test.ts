import { MemorySessionStore } from '@episodic/core';
import { sessionStoreConformance } from './conformance.js';

// A memory store dies with its process: there is no dead writer to take over from.
sessionStoreConformance('memory', async () => ({ store: new MemorySessionStore() }), { takeover: false });
