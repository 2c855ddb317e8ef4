import { createOpenAICompatibleAdapter } from '@episodic/providers/openai-compatible';
import { resolveCompatibleProfile } from '@episodic/providers/internal';
import { describe, expect, it } from 'vitest';

describe('a known host with a model that has no profile row yet', () => {
  it('keeps the host base URL and key variables and sends no reasoning back', () => {
    const profile = resolveCompatibleProfile('deepseek', 'deepseek-some-new-model');
    expect(profile.baseURL).toBe('https://api.deepseek.com');
    expect(profile.apiKeyEnv).toEqual(['DEEPSEEK_API_KEY']);
    expect(profile.sendReasoningAs).toBe('none');
    const adapter = createOpenAICompatibleAdapter({ provider: 'deepseek', model: 'deepseek-some-new-model', apiKey: 'test-key' });
    expect(adapter.model).toEqual({ provider: 'deepseek', id: 'deepseek-some-new-model' });
  });

  it('gives an unknown host the safe wire: key from <PROVIDER>_API_KEY, nothing sent back, no base URL', () => {
    expect(resolveCompatibleProfile('acme-co', 'rocket')).toMatchObject({
      apiKeyEnv: ['ACME_CO_API_KEY'],
      baseURL: '',
      reasoningField: 'reasoning_content',
      sendReasoningAs: 'none',
      effortParameter: 'none',
      maxTokensField: 'max_tokens',
      fallback: true,
    });
  });

  it('still asks for a base URL for an unknown host', () => {
    expect(() => createOpenAICompatibleAdapter({ provider: 'acme', model: 'x', apiKey: 'k' })).toThrow(/No base URL for provider "acme"/);
  });
});
