import { describe, expect, it } from 'vitest';
import { builtinProfiles, pricesCollected, resolveProfile } from './index.js';

describe('resolveProfile', () => {
  it.each([
    ['claude-haiku-4-5', 'enabled', false],
    ['claude-sonnet-4-5-20250929', 'enabled', false],
    ['claude-opus-4-1', 'enabled', false],
    ['claude-opus-4-5', 'enabled', false],
    ['claude-opus-4-6', 'adaptive', false],
    ['claude-sonnet-4-6', 'adaptive', false],
    // Earlier thinking kept, no prefix check: the 5.x models before Fable 5.1.
    ['claude-opus-5', 'adaptive', false],
    ['claude-sonnet-5', 'adaptive', false],
    ['claude-fable-5', 'adaptive', false],
    ['claude-mythos-5', 'adaptive', false],
    // Preserved thinking: the models the prefix-check pages list.
    ['claude-fable-5-1', 'adaptive', true],
    ['claude-mythos-5-1', 'adaptive', true],
    ['claude-fable-5-2', 'adaptive', true],
    ['claude-mythos-5-2', 'adaptive', true],
    ['claude-opus-5-5', 'adaptive', true],
    ['claude-sonnet-5-5', 'adaptive', true],
    ['claude-haiku-5-5', 'adaptive', true],
    // An unknown Claude model is assumed to bind (later models enforce it everywhere).
    ['claude-opus-6', 'adaptive', true],
  ])('%s thinks %s (bound signatures: %s)', (model, thinking, bound) => {
    const profile = resolveProfile('anthropic', model);
    expect(profile.thinking).toMatchObject({ type: thinking });
    expect(profile.signatureBoundToPrefix).toBe(bound);
    expect(profile.cacheStyle).toBe('anthropic-breakpoints');
  });

  it.each([
    // Compaction documented: hybrid, as measured (bench/results/context-policies.md).
    ['claude-sonnet-4-6', 'hybrid', 'billed'],
    ['claude-opus-4-6', 'hybrid', 'billed'],
    // Thinking kept, compaction not documented: the packer alone.
    ['claude-sonnet-5', undefined, 'billed'],
    ['claude-sonnet-5-5', undefined, 'billed'],
    ['claude-fable-5-1', undefined, 'billed'],
    // Earlier turns' thinking dropped by the model itself.
    ['claude-sonnet-4-5', undefined, 'stripped'],
  ])('%s packs with the context policy %s and bills earlier thinking as %s', (model, policy, pastReasoning) => {
    const profile = resolveProfile('anthropic', model);
    expect(profile.contextPolicy).toBe(policy);
    expect(profile.pastReasoning).toBe(pastReasoning);
  });

  it('prices Sonnet 5.5 at its list prices (the model page, 2026-12-05)', () => {
    expect(resolveProfile('anthropic', 'claude-sonnet-5-5').pricing).toEqual({ input: 2, cachedInput: 0.2, cacheWrite: 2.5, output: 10 });
  });

  it.each([
    ['gemini-3-pro-preview', 'required', 'level'],
    ['gemini-3-flash-preview', 'required', 'level'],
    ['gemini-2.5-pro', 'optional', 'budget'],
    ['gemini-2.5-flash-lite', 'optional', 'budget'],
  ])('%s: signatures %s, thinking by %s', (model, signatures, field) => {
    const profile = resolveProfile('google', model);
    expect(profile.functionCallSignatures).toBe(signatures);
    expect(profile.thinking).toHaveProperty(field);
    expect(profile.thinking).not.toHaveProperty(field === 'level' ? 'budget' : 'level');
  });

  it.each([
    ['gemini-3.5-flash-lite-preview-09-2026', 'gemini-3\\.5-flash-lite.*', 'minimal'],
    ['gemini-3.5-flash-001', 'gemini-3\\.5-flash.*', 'medium'],
    // A Flash-Lite id with no row of its own falls past its Flash sibling to the unlisted 3.x row.
    ['gemini-3.8-flash-lite', 'gemini-3(?:\\.\\d+)?-flash.*', 'high'],
  ])('%s resolves to %s and sends %s', (model, pattern, level) => {
    const profile = resolveProfile('google', model);
    expect(profile.pattern).toBe(pattern);
    expect(profile.thinking).toEqual({ level, includeThoughts: true });
  });

  it('models each OpenAI generation: gpt-5.6 renders and bills earlier turns\' reasoning, earlier ones strip it', () => {
    expect(resolveProfile('openai', 'gpt-5.5').pastReasoning).toBe('stripped');
    expect(resolveProfile('openai', 'gpt-5.6').pastReasoning).toBe('billed');
    expect(resolveProfile('openai', 'gpt-5.10-mini').pastReasoning).toBe('billed');
    // Responses models compact server-side (hybrid by default); an unknown model stays with the packer.
    expect(resolveProfile('openai', 'gpt-5.6')).toMatchObject({ contextPolicy: 'hybrid', nativeContext: { compaction: {} } });
    expect(resolveProfile('openai', 'some-new-model').contextPolicy).toBe('packer');
    expect(resolveProfile('openai', 'gpt-5.6', {}, [{ provider: 'openai', pattern: 'mine', contextWindow: 1, maxOutputTokens: 1, retention: 'episode', cacheStyle: 'none', minCacheableTokens: 0, tokenizerFactor: 1 }]).contextPolicy).toBe('packer');
  });

  it('applies user overrides field by field, but never the provider', () => {
    const profile = resolveProfile('anthropic', 'claude-opus-4-5', { contextWindow: 1_000_000, provider: 'other' });
    expect(profile.contextWindow).toBe(1_000_000);
    expect(profile.provider).toBe('anthropic');
    expect(profile.maxOutputTokens).toBe(64_000);
  });

  it('lets a user table take precedence and falls back for unknown models', () => {
    const custom = [{ ...resolveProfile('google', 'gemini-2.5-pro'), pattern: 'my-gemini', contextWindow: 5 }];
    expect(resolveProfile('google', 'my-gemini', {}, [...custom, ...builtinProfiles]).contextWindow).toBe(5);
    const unknown = resolveProfile('acme', 'model.v1');
    expect(unknown).toMatchObject({ provider: 'acme', retention: 'episode', cacheStyle: 'none' });
    expect(new RegExp(`^(?:${unknown.pattern})$`).test('model.v1')).toBe(true);
    expect(new RegExp(`^(?:${unknown.pattern})$`).test('modelXv1')).toBe(false);
  });

  it('falls back by one rule: conservative limits, the known provider`s own fields, nothing sent back', () => {
    expect(resolveProfile('anthropic', 'claude-opus-4-5').fallback).toBeUndefined();
    expect(resolveProfile('deepseek', 'deepseek-v9-ultra')).toMatchObject({
      fallback: true,
      contextWindow: 128_000,
      maxOutputTokens: 8192,
      retention: 'episode',
      cacheStyle: 'openai-prefix',
      minCacheableTokens: 64,
      baseURL: 'https://api.deepseek.com',
      apiKeyEnv: ['DEEPSEEK_API_KEY'],
      sendReasoningAs: 'none',
      reasoningRequiredOnToolCalls: false,
    });
    expect(resolveProfile('anthropic', 'my-claude-finetune')).toMatchObject({
      fallback: true,
      cacheStyle: 'anthropic-breakpoints',
      minCacheableTokens: 1024,
      contextWindow: 128_000,
    });
    // Gemma through the Gemini API: Google's cache, not Gemini's 1M window.
    expect(resolveProfile('google', 'gemma-3-27b-it')).toMatchObject({
      fallback: true,
      cacheStyle: 'gemini-implicit',
      contextWindow: 128_000,
    });
    expect(resolveProfile('acme', 'rocket')).toMatchObject({
      fallback: true,
      cacheStyle: 'none',
      minCacheableTokens: Number.POSITIVE_INFINITY,
    });
  });
});

describe('the built-in prices', () => {
  it('are dated, sourced, and price cached input no higher than input and cache writes no lower', () => {
    expect(pricesCollected.date).toMatch(/^\d{4}-\d{2}-\d{2}$/);
    expect(pricesCollected.note).toMatch(/change/);
    expect(pricesCollected.sources.length).toBeGreaterThan(0);
    const priced = builtinProfiles.filter((profile) => profile.pricing !== undefined);
    expect(new Set(priced.map((profile) => profile.provider))).toEqual(
      new Set(['anthropic', 'google', 'openai', 'deepseek']),
    );
    for (const { pricing } of priced) {
      expect(pricing!.cachedInput).toBeLessThanOrEqual(pricing!.input);
      if (pricing!.cacheWrite !== undefined) expect(pricing!.cacheWrite).toBeGreaterThanOrEqual(pricing!.input);
    }
  });
});
