/**
 * An Episodic `Agent` on the AI SDK's Anthropic provider (`@ai-sdk/anthropic` through
 * `fromAISDK`) against the strict loopback Messages API server: the shared conformance
 * suite, as the native Anthropic adapter runs it.
 */
import { createAnthropic } from '@ai-sdk/anthropic';
import { fromAISDK } from '@episodic/ai-sdk';
import { expect } from 'vitest';
import { runConformance } from './conformance.js';
import { startAnthropicServer } from '../servers/anthropic-server.js';

/** The AI SDK's Anthropic model on the loopback server (its `baseURL` ends in `/v1`). */
export function aiSdkAnthropic(url: string, model: string) {
  return createAnthropic({ baseURL: `${url}/v1`, apiKey: 'test-key' })(model);
}

const thinking = { anthropic: { thinking: { type: 'enabled', budgetTokens: 2048 } } };

runConformance({
  name: 'ai-sdk anthropic (claude-opus-4-5, manual thinking)',
  startServer: () => startAnthropicServer(),
  createAdapter: (url, { model }) => fromAISDK(aiSdkAnthropic(url, model), { providerOptions: thinking }),
  models: { primary: 'claude-opus-4-5', secondary: 'claude-haiku-4-5' },
  hooks: {
    afterScenario(_scenario, { calls }) {
      // The packer's breakpoints reach the wire through the AI SDK's cacheControl, within Anthropic's four.
      for (const call of calls) {
        expect(call.view?.cacheBreakpoints).toBeGreaterThanOrEqual(2);
        expect(call.view?.cacheBreakpoints).toBeLessThanOrEqual(4);
      }
    },
  },
});

runConformance({
  name: 'ai-sdk anthropic (claude-opus-5, adaptive thinking, prefix-bound signatures)',
  startServer: () => startAnthropicServer(),
  createAdapter: (url, { model }) =>
    fromAISDK(aiSdkAnthropic(url, model), { providerOptions: { anthropic: { thinking: { type: 'adaptive' } } } }),
  models: { primary: 'claude-opus-5', secondary: 'claude-sonnet-5' },
});
