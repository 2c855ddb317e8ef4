/**
 * A model adapter's assistant message is checked against transcript format v1
 * before it is saved: a store must never hold a line that a later load refuses.
 * Built-in adapters always pass; this guards custom adapters.
 */
import { EpisodicError } from '../errors.js';
import type { AssistantMessage } from '../message/message.js';
import { ModelError } from '../model/model-adapter.js';
import { parseTranscriptLine, serializeMessage } from '../message/transcript.js';

/** Returns `message` when it is valid; throws a non-retryable protocol {@link ModelError} otherwise. */
export function checkedAssistantMessage(message: AssistantMessage, provider: string): AssistantMessage {
  try {
    parseTranscriptLine(serializeMessage(message), 1);
    return message;
  } catch (error) {
    if (!EpisodicError.isInstance(error)) throw error;
    const detail = error.message.replace(/^line 1: /, '');
    throw new ModelError(
      'protocol',
      `The ${provider} adapter returned an assistant message that cannot be saved (${detail}); nothing was written. ` +
        'Fix the adapter so its messages follow transcript format v1.',
      { cause: error },
    );
  }
}
