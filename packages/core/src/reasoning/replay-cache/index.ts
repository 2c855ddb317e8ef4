/** The replay cache: reasoning captured from responses, restored into histories that lack it. */
export { FileReplayCache, type FileReplayCacheOptions } from './file-replay-cache.js';
export {
  DEFAULT_REPLAY_ENTRIES,
  DEFAULT_REPLAY_TOKENS,
  DEFAULT_REPLAY_TTL_MS,
  MemoryReplayCache,
} from './memory-replay-cache.js';
export {
  messageKey,
  type ReplayCache,
  type ReplayCacheBounds,
  type ReplayCacheStats,
  type ReplayEntry,
  toolCallKey,
} from './replay-cache.js';
export {
  captureReasoning,
  countMissingReasoning,
  lacksRequiredReasoning,
  type RestoreResult,
  restoreReasoning,
} from './replay-restore.js';
