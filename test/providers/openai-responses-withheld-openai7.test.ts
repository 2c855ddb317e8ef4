/**
 * `input_transformations` on openai 7 (the `openai7` alias, as in newest-sdk-majors.test.ts),
 * which types the field (cases in ./openai-responses-withheld-cases.ts).
 */
import { expect, it, vi } from 'vitest';
import { openAISdk } from '../../packages/providers/src/openai-shared/openai-sdk.js';
import { describeWithheldReasoning } from './openai-responses-withheld-cases.js';

vi.mock('openai', () => import('openai7'));

it('runs on openai 7', async () => {
  expect((await openAISdk.load()).OpenAI).toBe((await import('openai7')).OpenAI);
  expect((await import('openai7/version')).VERSION).toMatch(/^7\./);
});

describeWithheldReasoning('openai 7');
