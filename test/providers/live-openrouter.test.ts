/**
 * Live check against OpenRouter (reasoning_details sent back verbatim). Skipped
 * without a key.
 */
import { describe, expect, it } from 'vitest';
import { createOpenAICompatibleAdapter } from '../../packages/providers/src/openai-compatible/openai-compatible-adapter.js';
import { runLiveSession } from './live-tools.js';

const key = process.env.OPENROUTER_API_KEY;
const title = key ? 'live OpenRouter' : 'live OpenRouter (skipped: OPENROUTER_API_KEY is not set)';

describe.skipIf(!key)(title, () => {
  it('an Anthropic model through OpenRouter accepts its reasoning_details back within the episode', async () => {
    const adapter = createOpenAICompatibleAdapter({
      provider: 'openrouter',
      model: 'anthropic/claude-sonnet-4.6',
      reasoningEffort: 'low',
      maxRetries: 2,
    });
    const { responses } = await runLiveSession(adapter, 2_000);
    expect(responses.at(-1)?.stopReason).toBe('stop');
  }, 180_000);
});
