import { MemorySessionStore } from '@episodic/core';
import { sessionStoreConformance } from './conformance.js';

sessionStoreConformance('memory', async () => ({ store: new MemorySessionStore() }));
