/**
 * Tools the API ran itself (`server_tool_use` and its `*_tool_result`, recorded from
 * claude-sonnet-5 with the advisor and code execution) stay in the transcript as
 * provider-tool parts and go back verbatim in their turn.
 */
import type { BetaRawMessageStreamEvent as RawMessageStreamEvent } from '@anthropic-ai/sdk/resources/beta/messages/messages';
import type { ModelStreamEvent } from '@episodic/core';
import { describe, expect, it } from 'vitest';
import { resolveAnthropicProfile } from '../profiles/anthropic-resolver.js';
import { mapAnthropicStream } from './anthropic-stream.js';
import { convertToAnthropicMessages } from './convert-to-anthropic-messages.js';

const model = { provider: 'anthropic', id: 'claude-sonnet-5' };
const result = {
  type: 'advisor_tool_result',
  tool_use_id: 'srvtoolu_1',
  content: { type: 'advisor_result', text: 'The answer is 4.', stop_reason: 'end_turn' },
};
const events = [
  { type: 'message_start', message: { usage: { input_tokens: 10, output_tokens: 1 } } },
  { type: 'content_block_start', index: 0, content_block: { type: 'server_tool_use', id: 'srvtoolu_1', name: 'advisor', input: {} } },
  { type: 'content_block_delta', index: 0, delta: { type: 'input_json_delta', partial_json: '{"q": 1}' } },
  { type: 'content_block_stop', index: 0 },
  { type: 'content_block_start', index: 1, content_block: result },
  { type: 'content_block_stop', index: 1 },
  { type: 'content_block_start', index: 2, content_block: { type: 'text', text: '' } },
  { type: 'content_block_delta', index: 2, delta: { type: 'text_delta', text: '2 + 2 = 4.' } },
  { type: 'content_block_stop', index: 2 },
  { type: 'message_delta', delta: { stop_reason: 'end_turn' }, usage: { output_tokens: 9 } },
  { type: 'message_stop' },
] as unknown as RawMessageStreamEvent[];

describe('anthropic server tools', () => {
  it('keeps server tool blocks as provider-tool parts and sends them back as they came', async () => {
    async function* source() {
      yield* events;
    }
    const seen: ModelStreamEvent[] = [];
    for await (const event of mapAnthropicStream(source(), model, 'prefix')) seen.push(event);
    const finish = seen.at(-1);
    if (finish?.type !== 'finish') throw new Error('no finish');
    expect(finish.message.content.map((part) => part.type)).toEqual(['provider-tool', 'provider-tool', 'text']);
    expect(finish.message.content[0]).toMatchObject({ kind: 'call', name: 'advisor', id: 'srvtoolu_1' });
    const converted = convertToAnthropicMessages(
      { messages: [{ role: 'user', content: 'What is 2+2?' }, finish.message] },
      { profile: resolveAnthropicProfile(model.id), tools: undefined },
    );
    expect(converted.messages[1]?.content).toEqual([
      { type: 'server_tool_use', id: 'srvtoolu_1', name: 'advisor', input: { q: 1 } },
      result,
      { type: 'text', text: '2 + 2 = 4.' },
    ]);
  });
});
