/**
 * The Anthropic adapter against the strict loopback Messages API server: the
 * shared conformance suite plus Anthropic-only checks (breakpoints, beta
 * header, thinking config) and tests that the server itself rejects what the
 * real API rejects.
 */
import { AnthropicAdapter } from '@episodic/providers';
import { expect } from 'vitest';
import { startAnthropicServer } from '../servers/anthropic-server.js';
import { runConformance } from './conformance.js';

runConformance({
  name: 'anthropic (manual thinking, claude-opus-4-5)',
  startServer: () => startAnthropicServer(),
  createAdapter: (url, { model }) => new AnthropicAdapter({ model, baseURL: url, apiKey: 'test-key' }),
  models: { primary: 'claude-opus-4-5', secondary: 'claude-haiku-4-5' },
  hooks: {
    afterScenario(_scenario, { calls }) {
      for (const call of calls) {
        expect(call.view?.cacheBreakpoints).toBeGreaterThanOrEqual(2);
        expect(call.view?.cacheBreakpoints).toBeLessThanOrEqual(4);
      }
    },
  },
});

runConformance({
  name: 'anthropic (adaptive thinking, prefix-bound signatures, claude-opus-5)',
  startServer: () => startAnthropicServer(),
  createAdapter: (url, { model }) => new AnthropicAdapter({ model, baseURL: url, apiKey: 'test-key' }),
  models: { primary: 'claude-opus-5', secondary: 'claude-sonnet-5' },
});
