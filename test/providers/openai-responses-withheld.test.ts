/**
 * `input_transformations` on openai 6, which does not type the field: the adapter reads it
 * from the untyped response (cases in ./openai-responses-withheld-cases.ts).
 */
import { expect, it } from 'vitest';
import { openAISdk } from '../../packages/providers/src/openai-shared/openai-sdk.js';
import { describeWithheldReasoning } from './openai-responses-withheld-cases.js';

it('runs on openai 6', async () => {
  const { OpenAI } = await openAISdk.load();
  expect(new OpenAI({ apiKey: 'k' }).constructor.name).toBe('OpenAI');
  expect((await import('openai/version')).VERSION).toMatch(/^6\./);
});

describeWithheldReasoning('openai 6');
