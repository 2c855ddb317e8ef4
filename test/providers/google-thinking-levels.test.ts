/**
 * Gemini thinking levels on @google/genai 2, the major the project installs (cases in
 * ./google-thinking-levels-cases.ts).
 */
import { expect, it } from 'vitest';
import { googleSdk } from '../../packages/providers/src/google/google-sdk.js';
import { describeThinkingLevels } from './google-thinking-levels-cases.js';

it('runs on @google/genai 2, whose ThinkingLevel has no XHIGH', async () => {
  const sdk = await googleSdk.load();
  expect(sdk.GoogleGenAI).toBe((await import('@google/genai')).GoogleGenAI);
  expect((sdk.ThinkingLevel as Record<string, string>).HIGH).toBe('HIGH');
  expect((sdk.ThinkingLevel as Record<string, string>).XHIGH).toBeUndefined();
});

describeThinkingLevels('@google/genai 2');
