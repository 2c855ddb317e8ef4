/**
 * Reasoning goes back in the message field the host answered in. Recorded (pydantic-ai,
 * test_crusoe_tool_calling): GLM-5.2 on Crusoe, an unlisted host, answered in
 * `reasoning` while the GLM family row says `reasoning_content`; the follow-up the API
 * accepted carried it in `reasoning`.
 */
import type { ModelStreamEvent } from '@episodic/core';
import type { ChatCompletionChunk } from 'openai/resources/chat/completions';
import { describe, expect, it } from 'vitest';
import { convertToOpenAIChatMessages } from './convert-to-openai-chat-messages.js';
import { mapOpenAIChatStream } from './openai-chat-stream.js';

const model = { provider: 'crusoe', id: 'zai/GLM-5.2' };
const call = { index: 0, id: 'chatcmpl-tool-1', type: 'function', function: { name: 'get_weather', arguments: '{"city": "Paris"}' } };

async function answerIn(field: string) {
  async function* source() {
    yield { choices: [{ index: 0, delta: { role: 'assistant', [field]: 'I will call get_weather.' }, finish_reason: null }] } as unknown as ChatCompletionChunk;
    yield { choices: [{ index: 0, delta: { tool_calls: [call] }, finish_reason: 'tool_calls' }] } as unknown as ChatCompletionChunk;
  }
  const events: ModelStreamEvent[] = [];
  for await (const event of mapOpenAIChatStream(source(), model, { fields: ['reasoning_content', 'reasoning'] })) events.push(event);
  const finish = events.at(-1);
  if (finish?.type !== 'finish') throw new Error('no finish');
  return finish.message;
}

const followUp = async (field: string) => {
  const messages = convertToOpenAIChatMessages(
    undefined,
    [
      { role: 'user', content: 'Weather in Paris?' },
      await answerIn(field),
      { role: 'tool', toolCallId: 'chatcmpl-tool-1', toolName: 'get_weather', content: 'Sunny' },
    ],
    { sendAs: 'reasoning_content' },
    model,
  );
  return messages[1] as Record<string, unknown>;
};

describe('reasoning sent back in the field the host answered in', () => {
  it('goes back in `reasoning` when the host answered there, not in the profile field', async () => {
    const message = await followUp('reasoning');
    expect(message.reasoning).toBe('I will call get_weather.');
    expect('reasoning_content' in message).toBe(false);
  });

  it('stays in the profile field when the host answered there', async () => {
    const message = await followUp('reasoning_content');
    expect(message.reasoning_content).toBe('I will call get_weather.');
    expect('reasoning' in message).toBe(false);
  });
});
