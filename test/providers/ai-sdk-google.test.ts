/**
 * An Episodic `Agent` on the AI SDK's Google provider (`@ai-sdk/google` through
 * `fromAISDK`) against the strict loopback Gemini API server: the shared conformance
 * suite, thought signatures sent back on the parts they came with.
 */
import { createGoogleGenerativeAI } from '@ai-sdk/google';
import { fromAISDK } from '@episodic/ai-sdk';
import { startGeminiServer } from '../servers/gemini-server.js';
import { runConformance } from './conformance.js';

const thoughts = { google: { thinkingConfig: { includeThoughts: true } } };

/** The AI SDK's Gemini model on the loopback server (its `baseURL` ends in `/v1beta`). */
const gemini = (url: string, model: string) => createGoogleGenerativeAI({ baseURL: `${url}/v1beta`, apiKey: 'test-key' })(model);

runConformance({
  name: 'ai-sdk google (gemini 3, signatures required)',
  startServer: () => startGeminiServer(),
  createAdapter: (url, { model }) => fromAISDK(gemini(url, model), { providerOptions: thoughts }),
  models: { primary: 'gemini-3-pro-preview', secondary: 'gemini-3-flash-preview' },
});

runConformance({
  name: 'ai-sdk google (gemini 2.5, thinking budget)',
  startServer: () => startGeminiServer(),
  createAdapter: (url, { model }) => fromAISDK(gemini(url, model), { providerOptions: thoughts }),
  models: { primary: 'gemini-2.5-pro', secondary: 'gemini-2.5-flash' },
});
