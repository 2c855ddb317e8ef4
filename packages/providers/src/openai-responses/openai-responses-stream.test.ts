import type { ModelStreamEvent } from '@episodic/core';
import type { ResponseStreamEvent } from 'openai/resources/responses/responses';
import { describe, expect, it } from 'vitest';
import { mapOpenAIResponsesStream } from './openai-responses-stream.js';

const model = { provider: 'openai', id: 'gpt-5' };

async function failureOf(events: unknown[]): Promise<unknown> {
  async function* source() {
    for (const event of events) yield event as ResponseStreamEvent;
  }
  const seen: ModelStreamEvent[] = [];
  try {
    for await (const event of mapOpenAIResponsesStream(source(), model)) seen.push(event);
  } catch (error) {
    return error;
  }
  throw new Error(`the stream did not fail: ${JSON.stringify(seen)}`);
}

const failed = (code: string, message: string) => ({
  type: 'response.failed',
  sequence_number: 3,
  response: { id: 'resp_1', status: 'failed', output: [], error: { code, message } },
});

describe('mapOpenAIResponsesStream failures', () => {
  it('classifies a failed response by its error code', async () => {
    expect(await failureOf([failed('rate_limit_exceeded', 'Rate limit reached for gpt-5.')])).toMatchObject({
      kind: 'rate-limit',
      retryable: true,
    });
    expect(await failureOf([failed('server_error', 'The server had an error.')])).toMatchObject({
      kind: 'server',
      retryable: true,
    });
    expect(await failureOf([failed('invalid_prompt', 'Invalid prompt: flagged.')])).toMatchObject({
      kind: 'invalid-request',
      retryable: false,
    });
  });

  it('recognises a context overflow reported in the stream, so the loop repacks instead of retrying', async () => {
    const overflow = { type: 'error', sequence_number: 1, code: 'context_length_exceeded', param: 'input' };
    expect(
      await failureOf([{ ...overflow, message: 'Your input exceeds the context window of this model.' }]),
    ).toMatchObject({ kind: 'context-overflow', retryable: false });
    expect(await failureOf([failed('context_length_exceeded', 'Input too long.')])).toMatchObject({
      kind: 'context-overflow',
      retryable: false,
    });
  });

  it('keeps an error event without a known code retryable', async () => {
    const event = { type: 'error', sequence_number: 1, code: null, param: null, message: 'An error occurred.' };
    expect(await failureOf([event])).toMatchObject({ kind: 'server', retryable: true });
  });
});
