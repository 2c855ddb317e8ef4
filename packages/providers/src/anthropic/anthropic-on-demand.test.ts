import type { MessageCreateParamsStreaming } from '@anthropic-ai/sdk/resources/beta/messages/messages';
import { describe, expect, it } from 'vitest';
import { createAnthropicAdapter } from './anthropic-adapter.js';
import { compactionBody } from './anthropic-on-demand.js';

describe('the on-demand compaction request', () => {
  it('leaves out what the API refuses next to compaction, and keeps the rest of the conversation request', () => {
    const body = {
      model: 'claude-opus-5',
      max_tokens: 8192,
      stream: true,
      messages: [{ role: 'user', content: 'hi' }],
      stop_sequences: ['END'],
      tool_choice: { type: 'any' },
      output_config: { effort: 'high', format: { type: 'json_schema', schema: { type: 'object' } } },
      context_management: { edits: [{ type: 'clear_tool_uses_20250919' }] },
    } as unknown as MessageCreateParamsStreaming;
    expect(compactionBody(body, 'Keep the file names.')).toEqual({
      model: 'claude-opus-5',
      max_tokens: 8192,
      stream: true,
      messages: [{ role: 'user', content: 'hi' }],
      output_config: { effort: 'high' },
      compaction: { type: 'summarize', instructions: 'Keep the file names.' },
    });
    const auto = { ...body, tool_choice: { type: 'auto' } } as MessageCreateParamsStreaming;
    expect(compactionBody(auto, undefined)).toMatchObject({ tool_choice: { type: 'auto' }, compaction: { type: 'summarize' } });
  });

  it('a request that carries the block sends the beta header and no threshold compaction, and says so', () => {
    const adapter = createAnthropicAdapter({ model: 'claude-opus-5', apiKey: 'k' });
    const block = { type: 'compaction', content: 'summary', signature: 's' };
    const prepared = adapter.prepare({
      messages: [
        {
          role: 'assistant',
          content: [{ type: 'compaction', text: 'summary', summarizedMessages: 4, providerData: { provider: 'anthropic', model: 'claude-opus-5', block } }],
        },
        { role: 'user', content: 'go on' },
      ],
      nativeContext: { compaction: { threshold: 60_000 } },
    });
    expect(prepared.headers['anthropic-beta']).toContain('compact-2026-09-04');
    expect(prepared.body).not.toHaveProperty('context_management');
    expect(prepared.body.messages[0]).toEqual({ role: 'assistant', content: [block] });
    expect(prepared.warnings.map((warning) => warning.message).join()).toContain('takes no threshold compaction');
  });

  it('is refused on a model without on-demand compaction', async () => {
    const adapter = createAnthropicAdapter({ model: 'claude-haiku-4-5', apiKey: 'k' });
    await expect(adapter.compact({ messages: [{ role: 'user', content: 'hi' }] })).rejects.toMatchObject({ code: 'invalid_argument' });
  });
});
