/**
 * `@episodic/core/ui-stream`: a session's events as the AI SDK UI message stream,
 * for web chat front ends, and the helpers that send it as an HTTP response.
 */
export { toUIMessageStream } from './ui-stream/to-ui-message-stream.js';
export type { UIMessageStreamOptions } from './ui-stream/to-ui-message-stream.js';
export type { EpisodicMessageMetadata, UIFinishReason, UIMessageChunk, UIPackMetadata, UIUsageMetadata } from './ui-stream/ui-message-chunk.js';
export {
  createUIMessageStreamResponse,
  pipeUIMessageStreamToResponse,
  toServerSentEvents,
  UI_MESSAGE_STREAM_HEADERS,
} from './ui-stream/ui-message-stream-response.js';
export type { UIMessageStreamResponseInit } from './ui-stream/ui-message-stream-response.js';
