import { describe, expect, it } from 'vitest';
import type { AssistantMessage, Message } from '../message/message.js';
import { lastAssistant, pendingStep, stepsInEpisode } from './pending-step.js';

const model = { provider: 'anthropic', id: 'claude-sonnet-4-6' };
const answer: AssistantMessage = { role: 'assistant', content: [{ type: 'text', text: 'CI is green.' }], model };
// What the on-demand compactor appends at an episode's end: the signed block standing for the first messages.
const swapped: AssistantMessage = {
  role: 'assistant',
  content: [
    {
      type: 'compaction',
      text: 'Summary of the build so far.',
      summarizedMessages: 2,
      providerData: { provider: 'anthropic', model: 'claude-sonnet-4-6', block: { type: 'compaction', content: 'x' } },
    },
  ],
  model,
};

describe('pending-step', () => {
  const transcript: Message[] = [{ role: 'user', content: 'Is CI green?' }, answer, swapped];

  it('reads an episode with an on-demand compaction swapped in after its answer as finished, with that answer last', () => {
    expect(pendingStep(transcript)).toBeUndefined();
    expect(lastAssistant(transcript)).toBe(answer);
    expect(stepsInEpisode(transcript)).toBe(1);
  });

  it('still counts every model step and finds the last answer without a compaction', () => {
    const steps: Message[] = [{ role: 'user', content: 'Is CI green?' }, answer, { ...answer, content: [{ type: 'text', text: 'Yes.' }] }];
    expect(stepsInEpisode(steps)).toBe(2);
    expect(lastAssistant(steps)).toBe(steps[2]);
  });
});
