import type { ModelStreamEvent } from '@episodic/core';
import { describe, expect, it } from 'vitest';
import { createProviderAdapter } from '../shared/provider-adapter.js';
import { resolveProfile } from './index.js';
import { unlistedModelWarning } from './unlisted-model.js';

function warningFor(provider: string, id: string) {
  return unlistedModelWarning({ provider, id }, resolveProfile(provider, id));
}

describe('unlistedModelWarning', () => {
  it.each([
    ['openai', 'gpt-5-typo', 'gpt-5(\\.1)?(-.*)?'],
    ['openai', 'gpt-4o-mini-banana', 'gpt-4o-mini(-.*)?'],
    ['google', 'gemini-2.5-flash-typo', 'gemini-2\\.5-flash.*'],
    ['anthropic', 'claude-sonet-4-5', 'claude-.*'],
    ['deepseek', 'deepseek-r1-oops', 'deepseek-r1(-.*)?'],
  ])('%s %s only prefix-matches %s: one warning naming both', (provider, id, pattern) => {
    const warning = warningFor(provider, id);
    expect(warning?.code).toBe('unknown-model-id');
    expect(warning?.message).toContain(`"${id}"`);
    expect(warning?.message).toContain(`"${pattern}"`);
  });

  it.each([
    ['openai', 'gpt-5'],
    ['openai', 'gpt-5-2025-08-07'],
    ['openai', 'gpt-5-mini'],
    ['openai', 'gpt-5.1-codex-mini'],
    ['openai', 'gpt-4o-2024-08-06'],
    ['openai', 'gpt-4.1-mini'],
    ['openai', 'o4-mini-deep-research'],
    ['openai', 'some-model-nobody-lists'],
    ['anthropic', 'claude-sonnet-4-6'],
    ['anthropic', 'claude-3-7-sonnet-latest'],
    ['anthropic', 'claude-3-opus-20240229'],
    ['google', 'gemini-3-pro-preview'],
    ['google', 'gemini-3.8-flash'],
    ['google', 'gemini-3-flash-preview'],
    ['google', 'gemini-3.5-flash-lite'],
    ['google', 'gemini-2.5-flash-preview-09-2025'],
    ['google', 'gemini-2.0-flash-lite'],
    ['deepseek', 'deepseek-v3.2-exp'],
    ['deepseek', 'deepseek-r1-distill-llama-70b'],
    ['openrouter', 'anthropic/claude-sonnet-4.5'],
    ['ollama', 'qwen3:8b'],
  ])('%s %s is known (or served by a catch-all): no warning', (provider, id) => {
    expect(warningFor(provider, id)).toBeUndefined();
  });

  it('leaves rows the user wrote alone', () => {
    const row = { ...resolveProfile('openai', 'gpt-5'), pattern: 'my-model.*' };
    expect(unlistedModelWarning({ provider: 'openai', id: 'my-model-zz' }, row)).toBeUndefined();
  });

  it('is yielded by the adapter on its first call only', async () => {
    const model = { provider: 'openai', id: 'gpt-5-typo' };
    const adapter = createProviderAdapter({
      model,
      profile: resolveProfile('openai', model.id),
      prepare: () => ({ body: {}, warnings: [] }),
      open: async () => undefined,
      map: async function* (): AsyncGenerator<ModelStreamEvent> {
        yield {
          type: 'finish',
          message: { role: 'assistant', content: [{ type: 'text', text: 'hi' }] },
          usage: { inputTokens: 1, cachedInputTokens: 0, cacheWriteTokens: 0, outputTokens: 1, reasoningTokens: 0 },
          stopReason: 'stop',
        };
      },
      mapError: (error) => error as Error,
      secretValues: () => [],
    });
    const warnings = async () => {
      const seen: string[] = [];
      for await (const event of adapter.stream({ messages: [], tools: [] } as never)) {
        if (event.type === 'warning') seen.push(event.code ?? '');
      }
      return seen;
    };
    expect(await warnings()).toEqual(['unknown-model-id']);
    expect(await warnings()).toEqual([]);
  });
});
