/**
 * The Google adapter against the strict loopback Gemini API server: the shared
 * conformance suite on Gemini 3 (signatures required) and 2.5 (budget thinking).
 */
import { GoogleAdapter } from '@episodic/providers';
import { startGeminiServer } from '../servers/gemini-server.js';
import { runConformance } from './conformance.js';

runConformance({
  name: 'google (gemini 3, signatures required)',
  startServer: () => startGeminiServer(),
  createAdapter: (url, { model }) => new GoogleAdapter({ model, baseURL: url, apiKey: 'test-key' }),
  models: { primary: 'gemini-3-pro-preview', secondary: 'gemini-3-flash-preview' },
});

runConformance({
  name: 'google (gemini 2.5, thinking budget)',
  startServer: () => startGeminiServer(),
  createAdapter: (url, { model }) => new GoogleAdapter({ model, baseURL: url, apiKey: 'test-key' }),
  models: { primary: 'gemini-2.5-pro', secondary: 'gemini-2.5-flash' },
});
