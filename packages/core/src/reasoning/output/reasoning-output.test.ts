import { describe, expect, it } from 'vitest';
import { Agent } from '../../agent/agent.js';
import type { AgentEvent } from '../../loop/agent-events.js';
import { scriptedModel } from '../../testing/scripted-model.js';
import { withReasoningOutput } from './reasoning-output.js';

const long = Array.from({ length: 200 }, (_, index) => `thought ${index} about the failing fixture.`).join(' ');

function recorder() {
  const events: AgentEvent[] = [];
  return { events, onEvent: (event: AgentEvent) => events.push(event) };
}

describe('reasoningOutput', () => {
  it('ends reasoning mode at the cap: stops the stream and asks for the answer with the reasoning so far', async () => {
    const model = scriptedModel({
      steps: (request, index) =>
        index === 0 ? { reasoning: long, text: 'never streamed' } : { reasoning: 'Answering now.', text: 'Raise the timeout.' },
    });
    const agent = new Agent({ model, system: 'You debug CI.', reasoning: { output: { maxReasoningTokens: 50 } } });
    const { events, onEvent } = recorder();
    const result = await (await agent.session()).send('Why is CI red?', { onEvent });

    expect(model.requests).toHaveLength(2);
    const retry = model.requests[1]?.system ?? '';
    expect(retry.startsWith('You debug CI.')).toBe(true);
    expect(retry).toContain('reached its length limit');
    const cut = result.message?.content[0];
    expect(cut?.type).toBe('reasoning');
    const cutText = cut?.type === 'reasoning' ? cut.text : '';
    expect(cutText.length).toBeGreaterThan(0);
    expect(long.startsWith(cutText)).toBe(true);
    expect(cutText.length).toBeLessThan(long.length / 4);
    expect(retry).toContain(cutText);
    expect(result.message?.content.slice(1)).toEqual([
      expect.objectContaining({ type: 'reasoning', text: 'Answering now.' }),
      expect.objectContaining({ type: 'text', text: 'Raise the timeout.' }),
    ]);
    const texts = events.flatMap((event) => (event.type === 'text-delta' ? [event.text] : [])).join('');
    expect(texts).toBe('Raise the timeout.');
    expect(events.some((event) => event.type === 'warning' && event.code === 'reasoning-capped')).toBe(true);
  });

  it('a second call past the cap ends the step with its reasoning and max-tokens', async () => {
    const model = scriptedModel({ steps: () => ({ reasoning: long, text: 'never' }) });
    const agent = new Agent({ model, reasoning: { output: { maxReasoningTokens: 30 } } });
    const result = await (await agent.session()).send('hi');
    expect(model.requests).toHaveLength(2);
    expect(result.message?.content.map((part) => part.type)).toEqual(['reasoning']);
  });

  it('reasoning under the cap streams untouched in one call', async () => {
    const model = scriptedModel({ steps: [{ reasoning: 'Short thought.', text: 'Done.' }] });
    const agent = new Agent({ model, reasoning: { output: { maxReasoningTokens: 50 } } });
    const result = await (await agent.session()).send('hi');
    expect(model.requests).toHaveLength(1);
    expect(result.message?.content).toEqual([
      expect.objectContaining({ type: 'reasoning', text: 'Short thought.' }),
      expect.objectContaining({ type: 'text', text: 'Done.' }),
    ]);
  });

  it('echo suppression drops a burst the server sent twice, in deltas and in the saved message', async () => {
    const model = scriptedModel({ steps: [{ text: 'Raise the fixture timeout. Raise the fixture timeout. Then rerun.' }] });
    const agent = new Agent({ model, reasoning: { output: { echoSuppression: true } } });
    const { events, onEvent } = recorder();
    const result = await (await agent.session()).send('hi', { onEvent });
    expect(result.message?.content).toEqual([expect.objectContaining({ text: 'Raise the fixture timeout. Then rerun.' })]);
    const texts = events.flatMap((event) => (event.type === 'text-delta' ? [event.text] : [])).join('');
    expect(texts).toBe('Raise the fixture timeout. Then rerun.');
  });

  it('leak-check settings reach the loop: off, or with other tags', async () => {
    const leaky = () => scriptedModel({ steps: [{ text: '<scratch>draft</scratch> The answer.' }] });
    const run = async (leakCheck: false | { tags: string[] } | undefined) => {
      const { events, onEvent } = recorder();
      const agent = new Agent({ model: leaky(), reasoning: { output: leakCheck === undefined ? {} : { leakCheck } } });
      await (await agent.session()).send('hi', { onEvent });
      return events.filter((event) => event.type === 'reasoning-leak').length;
    };
    expect(await run(undefined)).toBe(0);
    expect(await run({ tags: ['scratch'] })).toBe(1);
    expect(await run(false)).toBe(0);
  });

  it('returns the adapter itself when nothing is set, and refuses a bad cap', () => {
    const model = scriptedModel({ steps: [] });
    expect(withReasoningOutput(model, {})).toBe(model);
    expect(() => withReasoningOutput(model, { maxReasoningTokens: 0 })).toThrow(/positive whole number/);
  });
});
