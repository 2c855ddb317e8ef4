/**
 * OpenAI Responses output items and Gemini parts the adapters do not read
 * themselves are kept whole and go back verbatim and in place to the model that
 * produced them (item shapes as recorded in vercel/ai's openai-mcp-tool-approval
 * and Gemini code-execution fixtures).
 */
import type { AssistantMessage, ModelStreamEvent } from '@episodic/core';
import type { GenerateContentResponse } from '@google/genai';
import type { ResponseStreamEvent } from 'openai/resources/responses/responses';
import { describe, expect, it } from 'vitest';
import { convertToGoogleMessages } from '../../packages/providers/src/google/convert-to-google-messages.js';
import { resolveGoogleProfile } from '../../packages/providers/src/google/google-profile.js';
import { mapGoogleStream } from '../../packages/providers/src/google/google-stream.js';
import { convertToOpenAIResponsesMessages } from '../../packages/providers/src/openai-responses/convert-to-openai-responses-messages.js';
import { mapOpenAIResponsesStream } from '../../packages/providers/src/openai-responses/openai-responses-stream.js';

async function finished(events: AsyncIterable<ModelStreamEvent>): Promise<AssistantMessage> {
  let last: ModelStreamEvent | undefined;
  for await (const event of events) last = event;
  if (last?.type !== 'finish') throw new Error('no finish event');
  return last.message;
}

async function* each<T>(values: readonly unknown[]): AsyncGenerator<T> {
  for (const value of values) yield value as T;
}

describe('OpenAI Responses output items the adapter does not read', () => {
  const listTools = { id: 'mcpl_1', type: 'mcp_list_tools', server_label: 'zip1', tools: [{ name: 'create_short_url', input_schema: {} }] };
  const approval = { id: 'mcpr_1', type: 'mcp_approval_request', arguments: '{"url":"https://ai-sdk.dev/"}', name: 'create_short_url', server_label: 'zip1' };
  const message = { id: 'msg_1', type: 'message', role: 'assistant', status: 'completed', content: [{ type: 'output_text', text: 'Approve?', annotations: [] }] };
  const output = [listTools, approval, message];
  const events = [
    ...output.map((item, index) => ({ type: 'response.output_item.done', sequence_number: index, output_index: index, item })),
    {
      type: 'response.completed',
      sequence_number: 9,
      response: { id: 'resp_1', status: 'completed', output, usage: { input_tokens: 10, output_tokens: 5, input_tokens_details: { cached_tokens: 0 }, output_tokens_details: { reasoning_tokens: 0 } } },
    },
  ];

  it('keeps them as provider-tool parts and sends them back as they came, in place', async () => {
    const result = await finished(mapOpenAIResponsesStream(each<ResponseStreamEvent>(events), { provider: 'openai', id: 'gpt-5' }));
    expect(result.content.map((part) => part.type)).toEqual(['provider-tool', 'provider-tool', 'text']);
    expect(result.content[1]).toMatchObject({ name: 'create_short_url', kind: 'call', id: 'mcpr_1' });
    const items = convertToOpenAIResponsesMessages([{ role: 'user', content: 'Shorten it' }, result]);
    expect(items.slice(1, 3)).toEqual([listTools, approval]);
    expect(items[3]).toMatchObject({ role: 'assistant', content: 'Approve?' });
  });
});

describe('Gemini parts the adapter does not read', () => {
  const code = { executableCode: { language: 'PYTHON', code: 'print(2 + 2)' } };
  const result = { codeExecutionResult: { outcome: 'OUTCOME_OK', output: '4\n' } };
  const chunks = [
    { candidates: [{ content: { role: 'model', parts: [{ text: 'Running it.' }, code] } }] },
    { candidates: [{ content: { role: 'model', parts: [result, { text: 'It prints 4.' }] }, finishReason: 'STOP' }], usageMetadata: { promptTokenCount: 10, candidatesTokenCount: 8 } },
  ];

  it('keeps them as provider-tool parts and sends them back as they came, in place', async () => {
    const model = { provider: 'google', id: 'gemini-2.5-flash' };
    const message = await finished(mapGoogleStream(each<GenerateContentResponse>(chunks), model));
    expect(message.content.map((part) => part.type)).toEqual(['text', 'provider-tool', 'provider-tool', 'text']);
    expect(message.content[1]).toMatchObject({ name: 'executableCode', kind: 'call' });
    expect(message.content[2]).toMatchObject({ name: 'codeExecutionResult', kind: 'result' });
    const converted = convertToGoogleMessages(undefined, [{ role: 'user', content: 'What is 2+2?' }, message], {
      profile: resolveGoogleProfile(model.id),
    });
    expect(converted.contents[1]?.parts).toEqual([{ text: 'Running it.' }, code, result, { text: 'It prints 4.' }]);
  });
});
