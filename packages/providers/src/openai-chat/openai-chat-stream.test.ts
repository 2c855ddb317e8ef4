import type { ModelStreamEvent } from '@episodic/core';
import type { ChatCompletionChunk } from 'openai/resources/chat/completions';
import { describe, expect, it } from 'vitest';
import { mapOpenAIChatStream } from './openai-chat-stream.js';

const model = { provider: 'openrouter', id: 'openai/gpt-5-mini' };

async function finishOf(chunks: unknown[]) {
  async function* source() {
    for (const chunk of chunks) yield chunk as ChatCompletionChunk;
  }
  const events: ModelStreamEvent[] = [];
  for await (const event of mapOpenAIChatStream(source(), model, { fields: ['reasoning'], details: true })) events.push(event);
  const finish = events.at(-1);
  if (finish?.type !== 'finish') throw new Error('no finish');
  return finish;
}

describe('OpenRouter reasoning_details', () => {
  it('keeps a summary and an encrypted entry that share an index as two entries (recorded on gpt-5-mini)', async () => {
    const summary = { type: 'reasoning.summary', summary: 'Plan.', format: 'openai-responses-v1', index: 0 };
    const encrypted = { type: 'reasoning.encrypted', data: 'gAAAA', id: 'rs_1', format: 'openai-responses-v1', index: 0 };
    const finish = await finishOf([
      { choices: [{ index: 0, delta: { role: 'assistant', reasoning: 'Plan.', reasoning_details: [summary, encrypted] }, finish_reason: null }] },
      { choices: [{ index: 0, delta: { content: 'Hi' }, finish_reason: 'stop' }] },
    ]);
    expect(finish.message.content[0]?.providerData?.reasoning_details).toEqual([summary, encrypted]);
  });

  it('still joins the fragments of one streamed entry', async () => {
    const base = { type: 'reasoning.text', format: 'anthropic-claude-v1', index: 0 };
    const finish = await finishOf([
      { choices: [{ index: 0, delta: { reasoning_details: [{ ...base, text: 'Let me ' }] }, finish_reason: null }] },
      { choices: [{ index: 0, delta: { reasoning_details: [{ ...base, text: 'think.', signature: 'sig' }] }, finish_reason: 'stop' }] },
    ]);
    expect(finish.message.content[0]?.providerData?.reasoning_details).toEqual([{ ...base, text: 'Let me think.', signature: 'sig' }]);
  });
});
