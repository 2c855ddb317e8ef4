/**
 * @episodic/core: the neutral message model, transcripts, episodes, token counting,
 * the context packer and the agent loop. No vendor SDK is imported here.
 */

export * from './calibration.js';
export * from './episodes.js';
export * from './errors.js';
export * from './message.js';
export * from './model-adapter.js';
export * from './model-profile.js';
export { countContext, defaultTokenCounter, packContext } from './pack.js';
export * from './pack-types.js';
export * from './reasoning/index.js';
export { shortenText } from './shorten.js';
export * from './token-counter.js';
export * from './tool.js';
export {
  formatTranscript,
  parseTranscriptLine,
  type ReadTranscriptOptions,
  readTranscript,
  readTranscriptStream,
  serializeMessage,
  writeTranscript,
} from './transcript.js';
export * as TranscriptSchema from './transcript-schema.js';
