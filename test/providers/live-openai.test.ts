/**
 * Live checks against the real OpenAI API. Offline CI has no key, so the suite is
 * skipped there, with the reason in its title.
 */
import { describe, expect, it } from 'vitest';
import { createOpenAIChatAdapter } from '../../packages/providers/src/openai-chat/openai-chat-adapter.js';
import { createOpenAIResponsesAdapter } from '../../packages/providers/src/openai-responses/openai-responses-adapter.js';
import { runLiveSession } from './live-tools.js';

const key = process.env.OPENAI_API_KEY;
const title = key ? 'live OpenAI' : 'live OpenAI (skipped: OPENAI_API_KEY is not set)';

describe.skipIf(!key)(title, () => {
  it('Responses: reasoning items go back within the episode and are dropped at the next user message', async () => {
    const adapter = createOpenAIResponsesAdapter({ model: 'gpt-5-mini', reasoningEffort: 'low', maxRetries: 2 });
    const { responses } = await runLiveSession(adapter, 2_000);
    expect(responses.at(-1)?.stopReason).toBe('stop');
    const reasoning = responses.flatMap((r) => r.message.content.filter((part) => part.type === 'reasoning'));
    expect(reasoning.every((part) => typeof part.providerData?.encrypted_content === 'string')).toBe(true);
    expect(responses.some((r) => (r.usage.reasoningTokens ?? 0) > 0)).toBe(true);
  }, 120_000);

  it('Chat Completions: a tool episode with usage mapped', async () => {
    const adapter = createOpenAIChatAdapter({ model: 'gpt-4.1-mini', maxRetries: 2 });
    const { responses } = await runLiveSession(adapter, 2_000);
    expect(responses.at(-1)?.stopReason).toBe('stop');
    expect(responses.every((r) => r.usage.inputTokens > 0)).toBe(true);
  }, 120_000);
});
