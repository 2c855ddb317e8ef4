/**
 * @episodic/core/node: the parts of the core that need Node's file system:
 * transcript files and streams, the file session store and the file replay cache.
 * `@episodic/core` itself imports no Node built-in, so it also bundles for
 * browsers and edge runtimes.
 */
export { readTranscript, readTranscriptStream, writeTranscript } from './message/transcript-file.js';
export { FileReplayCache } from './reasoning/replay-cache/file-replay-cache.js';
export type { FileReplayCacheOptions } from './reasoning/replay-cache/file-replay-cache.js';
export { FileSessionStore } from './store/file-session-store.js';
export type { FileSessionStoreOptions } from './store/file-session-store.js';
