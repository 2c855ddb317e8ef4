/**
 * Reading a model stream to its end. {@link collectResponse} is the one fold of
 * {@link ModelStreamEvent}s into a {@link ModelResponse}: `generate()` is it with no
 * listener, and the agent loop's model call is it with a listener that forwards
 * deltas and warnings as agent events.
 */
import type { AssistantMessage, Usage } from '../message/message.js';
import {
  type ModelAdapter,
  ModelError,
  type ModelRequest,
  type ModelStreamEvent,
  type StopReason,
  type StreamOptions,
} from './model-adapter.js';

/** The collected result of one model call. */
export interface ModelResponse {
  message: AssistantMessage;
  usage: Usage;
  stopReason: StopReason;
  warnings: string[];
}

/**
 * Streams one call and folds its events into the response of its `finish` event.
 * `onEvent` sees every event as it arrives, before the fold. A stream that ends
 * without `finish` is a retryable protocol error.
 */
export async function collectResponse(
  adapter: ModelAdapter,
  request: ModelRequest,
  options: StreamOptions = {},
  onEvent?: (event: ModelStreamEvent) => void,
): Promise<ModelResponse> {
  const warnings: string[] = [];
  for await (const event of adapter.stream(request, options)) {
    onEvent?.(event);
    if (event.type === 'warning') warnings.push(event.message);
    if (event.type === 'finish')
      return { message: event.message, usage: event.usage, stopReason: event.stopReason, warnings };
  }
  throw new ModelError('protocol', `${adapter.model.provider} stream ended without a finish event`, {
    retryable: true,
  });
}

/** Runs a stream to the end and returns its `finish` event's content, with the warnings it gave. */
export function generate(
  adapter: ModelAdapter,
  request: ModelRequest,
  options: StreamOptions = {},
): Promise<ModelResponse> {
  return collectResponse(adapter, request, options);
}
