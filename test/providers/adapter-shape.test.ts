/**
 * Every wire API's adapter has one shape: a factory returns a plain object with
 * `model`, `profile`, `stream` and `prepare` (the request it would send, without
 * sending it), and its SDK client (with the key) stays out of sight.
 */
import { inspect } from 'node:util';
import type { ModelRequest } from '@episodic/core';
import { createAnthropicAdapter } from '@episodic/providers/anthropic';
import { createGoogleAdapter } from '@episodic/providers/google';
import { createOpenAIChatAdapter, createOpenAIResponsesAdapter } from '@episodic/providers/openai';
import { createOpenAICompatibleAdapter } from '@episodic/providers/openai-compatible';
import { describe, expect, it } from 'vitest';

const apiKey = 'sk-secret-shape-789';
const factories = {
  anthropic: () => createAnthropicAdapter({ model: 'claude-opus-4-5', apiKey }),
  google: () => createGoogleAdapter({ model: 'gemini-2.5-pro', apiKey }),
  'openai-responses': () => createOpenAIResponsesAdapter({ model: 'gpt-5', apiKey }),
  'openai-chat': () => createOpenAIChatAdapter({ model: 'gpt-4o', apiKey }),
  'openai-compatible': () => createOpenAICompatibleAdapter({ provider: 'deepseek', model: 'deepseek-chat', apiKey }),
};

const request: ModelRequest = { system: 'Be brief.', messages: [{ role: 'user', content: 'hi' }], maxOutputTokens: 100 };

describe('the adapter shape', () => {
  it.each(Object.entries(factories))('%s: a plain object with model, profile, stream and prepare', (_name, create) => {
    const adapter = create();
    expect(Object.getPrototypeOf(adapter)).toBe(Object.prototype);
    expect(Object.keys(adapter)).toEqual(expect.arrayContaining(['model', 'profile', 'prepare', 'stream']));
    expect(adapter.profile.provider).toBe(adapter.model.provider);
    const prepared = adapter.prepare(request);
    expect(prepared.body).toMatchObject({ model: adapter.model.id });
    expect(prepared.warnings).toEqual([]);
    // `prepare` is a plain function: it works detached from the object.
    const { prepare } = adapter;
    expect(prepare(request).body).toEqual(prepared.body);
    expect(inspect(adapter, { depth: 10 })).not.toContain(apiKey);
  });
});
