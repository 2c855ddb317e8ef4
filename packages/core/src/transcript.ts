/**
 * `@episodic/core/transcript`: the transcript format (JSONL, format v1.1, a superset
 * of v1), its version, limits and consistency check, and the split of a transcript
 * into episodes. The message types themselves are in `@episodic/core`; reading and
 * writing transcript files is in `@episodic/core/node`.
 */
export { formatTranscript, parseTranscriptLine } from './message/transcript.js';
export type { ReadTranscriptOptions } from './message/transcript.js';
export { checkConsistency } from './message/transcript-consistency.js';
export { MAX_LINE_BYTES, MAX_NESTING_DEPTH } from './message/transcript-limits.js';
export {
  TRANSCRIPT_FORMAT,
  TRANSCRIPT_VERSION,
  transcriptVersionOf,
  transcriptVersions,
  versionLine,
} from './message/transcript-version.js';
export type { TranscriptVersion } from './message/transcript-version.js';
export { splitEpisodes } from './message/episodes.js';
export type { Episode } from './message/episodes.js';
