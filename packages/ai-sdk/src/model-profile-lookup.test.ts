import { describe, expect, it } from 'vitest';
import { modelRefOf, profileOf } from './model-profile-lookup.js';

describe('modelRefOf', () => {
  it('reads the vendor from the AI SDK provider name, and from the model id on Bedrock', () => {
    expect(modelRefOf({ provider: 'anthropic.messages', modelId: 'claude-sonnet-4-5' })).toEqual({ provider: 'anthropic', id: 'claude-sonnet-4-5' });
    expect(modelRefOf({ provider: 'openai.responses', modelId: 'gpt-5' })).toEqual({ provider: 'openai', id: 'gpt-5' });
    expect(modelRefOf({ provider: 'azure.responses', modelId: 'gpt-5' }).provider).toBe('openai');
    expect(modelRefOf({ provider: 'google.generative-ai', modelId: 'gemini-2.5-pro' }).provider).toBe('google');
    expect(modelRefOf({ provider: 'vertex.anthropic.messages', modelId: 'claude-opus-4-5' }).provider).toBe('anthropic');
    expect(modelRefOf({ provider: 'amazon-bedrock', modelId: 'us.anthropic.claude-sonnet-4-5-20250929-v1:0' })).toEqual({
      provider: 'anthropic',
      id: 'claude-sonnet-4-5-20250929',
    });
    // Inference profiles of every region Bedrock names, the cross-region `global.` one included.
    for (const [modelId, id] of [
      ['us.anthropic.claude-sonnet-4-6', 'claude-sonnet-4-6'],
      ['global.anthropic.claude-opus-4-8', 'claude-opus-4-8'],
      ['apac.anthropic.claude-sonnet-4-6', 'claude-sonnet-4-6'],
      ['us-gov.anthropic.claude-sonnet-4-5-20250929-v1:0', 'claude-sonnet-4-5-20250929'],
      ['anthropic.claude-opus-4-6-v1', 'claude-opus-4-6'],
    ]) {
      expect(modelRefOf({ provider: 'amazon-bedrock', modelId: modelId as string }), modelId).toEqual({ provider: 'anthropic', id });
      expect(profileOf({ provider: 'amazon-bedrock', modelId: modelId as string }).fallback, modelId).toBeUndefined();
    }
    expect(modelRefOf({ provider: 'mistral.chat', modelId: 'mistral-large-latest' })).toEqual({ provider: 'mistral', id: 'mistral-large-latest' });
  });

  it('finds the built-in profile, and the fallback for a provider Episodic has no table for', () => {
    const claude = profileOf({ provider: 'anthropic.messages', modelId: 'claude-sonnet-4-5' });
    expect(claude).toMatchObject({ provider: 'anthropic', cacheStyle: 'anthropic-breakpoints' });
    expect(claude.fallback).toBeUndefined();
    expect(profileOf({ provider: 'mistral.chat', modelId: 'mistral-large-latest' }).fallback).toBe(true);
    expect(profileOf({ provider: 'openai.responses', modelId: 'gpt-5' }, { contextWindow: 1000 }).contextWindow).toBe(1000);
  });
});
