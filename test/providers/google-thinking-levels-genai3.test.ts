/**
 * Gemini thinking levels on @google/genai 3 (the `genai3` alias, as in
 * newest-sdk-majors.test.ts), whose `ThinkingLevel` names `XHIGH` (cases in
 * ./google-thinking-levels-cases.ts).
 */
import { expect, it, vi } from 'vitest';
import { googleSdk } from '../../packages/providers/src/google/google-sdk.js';
import { describeThinkingLevels } from './google-thinking-levels-cases.js';

vi.mock('@google/genai', () => import('genai3'));

it('runs on @google/genai 3', async () => {
  const sdk = await googleSdk.load();
  expect(sdk.GoogleGenAI).toBe((await import('genai3')).GoogleGenAI);
  expect((sdk.ThinkingLevel as Record<string, string>).XHIGH).toBe('XHIGH');
});

describeThinkingLevels('@google/genai 3');
