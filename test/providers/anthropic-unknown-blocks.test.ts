/**
 * Blocks the Anthropic adapter does not read itself are kept whole and go back in
 * place: the MCP connector's `mcp_tool_use` (input streamed by `input_json_delta`)
 * and `mcp_tool_result` (event shapes as recorded in vercel/ai's
 * anthropic-mcp.1.chunks.txt), a block type added later, and citations on text.
 * The follow-up request is checked by the loopback server's validation, which
 * refuses an `mcp_tool_result` whose `mcp_tool_use` is missing.
 */
import type { BetaRawMessageStreamEvent as RawMessageStreamEvent } from '@anthropic-ai/sdk/resources/beta/messages/messages';
import type { AssistantMessage, ModelStreamEvent } from '@episodic/core';
import { stripForeignReasoning } from '@episodic/core/reasoning';
import { describe, expect, it } from 'vitest';
import { resolveAnthropicProfile } from '../../packages/providers/src/profiles/anthropic-resolver.js';
import { mapAnthropicStream } from '../../packages/providers/src/anthropic/anthropic-stream.js';
import { convertToAnthropicMessages } from '../../packages/providers/src/anthropic/convert-to-anthropic-messages.js';
import { leftOutProviderTools } from '../../packages/providers/src/shared/provider-adapter.js';
import { type AnthropicBody, normalizeBody, validateAnthropicRequest } from '../servers/anthropic-validation.js';

const model = { provider: 'anthropic', id: 'claude-sonnet-4-5-20250929' };
const mcpResult = {
  type: 'mcp_tool_result',
  tool_use_id: 'mcptoolu_1',
  is_error: false,
  content: [{ type: 'text', text: 'Tool echo: hello world' }],
};
const future = { type: 'container_upload_result', id: 'cu_1', content: { file_id: 'file_1' } };
const citation = { type: 'web_search_result_location', url: 'https://example.org', title: 'Example', encrypted_index: 'Eo8B', cited_text: 'hello' };
const events = [
  { type: 'message_start', message: { usage: { input_tokens: 589, output_tokens: 1 } } },
  { type: 'content_block_start', index: 0, content_block: { type: 'mcp_tool_use', id: 'mcptoolu_1', name: 'echo', input: {}, server_name: 'echo' } },
  { type: 'content_block_delta', index: 0, delta: { type: 'input_json_delta', partial_json: '{"mess' } },
  { type: 'content_block_delta', index: 0, delta: { type: 'input_json_delta', partial_json: 'age": "hello world"}' } },
  { type: 'content_block_stop', index: 0 },
  { type: 'content_block_start', index: 1, content_block: mcpResult },
  { type: 'content_block_stop', index: 1 },
  { type: 'content_block_start', index: 2, content_block: future },
  { type: 'content_block_delta', index: 2, delta: { type: 'upload_progress_delta', percent: 50 } },
  { type: 'content_block_delta', index: 2, delta: { type: 'upload_progress_delta', percent: 100 } },
  { type: 'content_block_stop', index: 2 },
  { type: 'content_block_start', index: 3, content_block: { type: 'text', text: '' } },
  { type: 'content_block_delta', index: 3, delta: { type: 'text_delta', text: 'It echoed hello world.' } },
  { type: 'content_block_delta', index: 3, delta: { type: 'citations_delta', citation } },
  { type: 'content_block_stop', index: 3 },
  { type: 'message_delta', delta: { stop_reason: 'end_turn' }, usage: { output_tokens: 83 } },
  { type: 'message_stop' },
] as unknown as RawMessageStreamEvent[];

async function mapped(): Promise<{ seen: ModelStreamEvent[]; message: AssistantMessage }> {
  async function* source() {
    yield* events;
  }
  const seen: ModelStreamEvent[] = [];
  for await (const event of mapAnthropicStream(source(), model, 'prefix')) seen.push(event);
  const finish = seen.at(-1);
  if (finish?.type !== 'finish') throw new Error('no finish event');
  return { seen, message: finish.message };
}

const validation = {
  signatures: { valid: () => true, bound: () => false, issuedFor: () => undefined },
  issued: new Map(),
  adaptiveOnly: () => false,
  adaptiveSupported: () => true,
};

function followUp(message: AssistantMessage): AnthropicBody {
  const converted = convertToAnthropicMessages(
    { messages: [{ role: 'user', content: 'Echo hello world' }, message, { role: 'user', content: 'Again?' }] },
    { profile: resolveAnthropicProfile(model.id), tools: undefined },
  );
  return normalizeBody({ model: model.id, max_tokens: 1024, messages: converted.messages } as AnthropicBody);
}

describe('Anthropic blocks the adapter does not read itself', () => {
  it('keeps mcp_tool_use with its streamed input, mcp_tool_result, a new block type and citations, in order', async () => {
    const { seen, message } = await mapped();
    expect(message.content.map((part) => part.type)).toEqual(['provider-tool', 'provider-tool', 'provider-tool', 'text']);
    expect(message.content[0]).toMatchObject({ name: 'echo', kind: 'call', id: 'mcptoolu_1' });
    expect(message.content[2]).toMatchObject({ name: 'container_upload_result', kind: 'result', id: 'cu_1' });
    const warnings = seen.filter((event) => event.type === 'warning');
    expect(warnings).toEqual([
      {
        type: 'warning',
        code: 'unknown-delta',
        message: 'anthropic: a `upload_progress_delta` delta on a `container_upload_result` block is not understood by this adapter and was not applied',
      },
    ]);
  });

  it('sends them back verbatim and in place, in a request the API accepts', async () => {
    const { message } = await mapped();
    const body = followUp(message);
    expect(body.messages[1]?.content).toEqual([
      { type: 'mcp_tool_use', id: 'mcptoolu_1', name: 'echo', input: { message: 'hello world' }, server_name: 'echo' },
      mcpResult,
      future,
      { type: 'text', text: 'It echoed hello world.', citations: [citation] },
    ]);
    expect(validateAnthropicRequest(body, {}, validation)).toBeUndefined();
  });

  it('is refused by the loopback server when an mcp_tool_result has no mcp_tool_use before it', async () => {
    const { message } = await mapped();
    const body = followUp({ ...message, content: message.content.slice(1) });
    expect(validateAnthropicRequest(body, {}, validation)).toBe(
      'messages.1.content.0: `mcp_tool_result` block with tool_use_id mcptoolu_1 has no corresponding `mcp_tool_use` block before it.',
    );
  });

  it('leaves them out for another provider with one warning', async () => {
    const { message } = await mapped();
    const target = { provider: 'openai', id: 'gpt-5' };
    // The loop strips another model's opaque data first (core's one rule), then the adapter warns.
    const { messages } = stripForeignReasoning([{ role: 'user', content: 'Hi' }, message], target);
    const warnings = leftOutProviderTools(messages, target);
    expect(warnings.filter((warning) => warning.code === 'provider-tool-dropped')).toHaveLength(1);
    expect(warnings.find((warning) => warning.code === 'provider-tool-dropped')?.message).toContain('echo x1, mcp_tool_result x1, container_upload_result x1');
    // The text goes on, without Anthropic's citations.
    expect((messages[1] as AssistantMessage).content.at(-1)).toEqual({ type: 'text', text: 'It echoed hello world.' });
  });
});
