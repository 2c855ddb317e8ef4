import { describe, expect, it } from 'vitest';
import { Agent } from '../../agent/agent.js';
import type { AgentEvent } from '../../loop/agent-events.js';
import { MemorySessionStore } from '../../store/memory-session-store.js';
import { countContext } from '../../packing/message-fits.js';
import type { Message, ModelRef } from '../../message/message.js';
import { maxSteps } from '../../loop/stop-conditions.js';
import { type ScriptStep, scriptedModel } from '../../testing/scripted-model.js';
import { createTokenCounter } from '../../tokens/token-counter.js';
import type { AgentTool } from '../../loop/tool.js';

const read: AgentTool = {
  spec: { name: 'read', description: 'reads a file', inputSchema: { type: 'object' } },
  execute: async () => ({ content: 'file contents' }),
};
const modelA: ModelRef = { provider: 'lab', id: 'model-a' };
const modelB: ModelRef = { provider: 'lab', id: 'model-b' };
const system = 'You fix CI.';
const traceA = 'The log shows a timeout in fixtures.ts; next I should read the fixture config.';

/** Model A reasons and calls a tool, then a stop condition interrupts the episode (as a crash or a hand-over would). */
async function startWithModelA(store: MemorySessionStore, reasoning = traceA): Promise<void> {
  const model = scriptedModel({ model: modelA, steps: [{ reasoning, toolCalls: [{ id: 'a1', name: 'read' }] }] });
  const agent = new Agent({ model, system, tools: [read], store, stopWhen: maxSteps(1), context: { budget: 50_000 } });
  const session = await agent.session({ id: 'shared' });
  expect((await session.send('CI is red')).reason).toBe('stop-condition');
}

function recorder() {
  const events: AgentEvent[] = [];
  return { events, onEvent: (event: AgentEvent) => events.push(event) };
}

const reasoningIn = (messages: readonly Message[]) =>
  messages.flatMap((message) =>
    message.role === 'assistant' ? message.content.filter((part) => part.type === 'reasoning') : [],
  );

describe('cross-model hand-off through the agent loop', () => {
  it('quotes the other model`s trace in the system prompt of this episode`s calls only', async () => {
    const store = new MemorySessionStore();
    await startWithModelA(store);
    const steps: ScriptStep[] = [
      { reasoning: 'B goes on', toolCalls: [{ id: 'b1', name: 'read' }] },
      { text: 'Fixed the fixture.' },
      { text: 'Glad to help.' },
    ];
    const model = scriptedModel({ model: modelB, steps });
    const agent = new Agent({ model, system, tools: [read], store, context: { budget: 50_000 } });
    const session = await agent.session({ id: 'shared', handoff: true });
    const { events, onEvent } = recorder();
    await session.resume({ onEvent });
    await session.send('Thanks', { onEvent });

    const [first, second, nextEpisode] = model.requests;
    expect(first?.system?.startsWith(`${system}\n\n[Continuation note`)).toBe(true);
    expect(first?.system).toContain(traceA);
    expect(first?.system).toContain('lab/model-a');
    // The opaque trace itself is never sent to model B.
    expect(reasoningIn(first?.messages ?? [])).toEqual([]);
    // Later calls of the same episode carry the same note (same bytes: the cache keeps hitting).
    expect(second?.system).toBe(first?.system);
    expect(reasoningIn(second?.messages ?? []).map((part) => part.text)).toEqual(['B goes on']);
    // The next episode is back to the stable system prompt.
    expect(nextEpisode?.system).toBe(system);

    const handoffs = events.filter((event) => event.type === 'reasoning-handoff');
    expect(handoffs).toHaveLength(2);
    const counter = createTokenCounter();
    const added = counter.countSystem(first?.system ?? '') - counter.countSystem(system);
    expect(handoffs[0]).toMatchObject({ step: 2, from: [modelA], traces: 1, tokens: added, skipped: [] });
    const packed = events.find((event) => event.type === 'context-packed');
    expect(packed).toMatchObject({ budget: 50_000 - added });
  });

  it('sends neither the note nor the trace when hand-off is off', async () => {
    const store = new MemorySessionStore();
    await startWithModelA(store);
    const model = scriptedModel({ model: modelB, steps: [{ text: 'Done.' }] });
    const session = await new Agent({ model, system, tools: [read], store, context: { budget: 50_000 } }).session({ id: 'shared' });
    const { events, onEvent } = recorder();
    await session.resume({ onEvent });
    expect(model.requests[0]?.system).toBe(system);
    expect(JSON.stringify(model.requests[0]?.messages)).not.toContain(traceA);
    expect(events.some((event) => event.type === 'reasoning-handoff')).toBe(false);
    expect(events.find((event) => event.type === 'warning')).toMatchObject({
      code: 'foreign-reasoning-dropped',
      step: 2,
    });
  });

  it('gives the same model its own reasoning back, with no note', async () => {
    const store = new MemorySessionStore();
    await startWithModelA(store);
    const model = scriptedModel({ model: modelA, steps: [{ text: 'Done.' }] });
    const agent = new Agent({ model, system, tools: [read], store, context: { budget: 50_000 }, reasoning: { handoff: true } });
    await (await agent.session({ id: 'shared' })).resume();
    expect(model.requests[0]?.system).toBe(system);
    expect(reasoningIn(model.requests[0]?.messages ?? []).map((part) => part.text)).toEqual([traceA]);
  });

  it('leaves a trace over the token limit out whole, with a warning event', async () => {
    const store = new MemorySessionStore();
    const huge = `${'a very long chain of thought '.repeat(200)}END-OF-TRACE`;
    await startWithModelA(store, huge);
    const model = scriptedModel({ model: modelB, steps: [{ text: 'Done.' }] });
    const session = await new Agent({ model, system, tools: [read], store, context: { budget: 50_000 } }).session({
      id: 'shared',
      handoff: { maxTokens: 300 },
    });
    const { events, onEvent } = recorder();
    await session.resume({ onEvent });
    expect(model.requests[0]?.system).toBe(system);
    expect(JSON.stringify(model.requests[0])).not.toContain('END-OF-TRACE');
    const warning = events.find((event) => event.type === 'warning');
    expect(warning).toMatchObject({ code: 'handoff-trace-skipped', step: 2 });
    expect(warning?.type === 'warning' && warning.message).toMatch(/left out whole/);
  });

  it('learns the tokenizer ratio from what was sent, the note included, not as if the note were extra tokens', async () => {
    const store = new MemorySessionStore();
    await startWithModelA(store, `${traceA} `.repeat(20));
    const exact = createTokenCounter(); // the provider tokenizes exactly like the agent's counter
    const model = scriptedModel({
      model: modelB,
      steps: (request) => ({ text: 'Done.', usage: { inputTokens: countContext(exact, request) } }),
    });
    const agent = new Agent({ model, system, tools: [read], store, context: { budget: 50_000 } });
    const session = await agent.session({ id: 'shared', handoff: true });
    const { events, onEvent } = recorder();
    await session.resume({ onEvent });
    expect(events.some((event) => event.type === 'reasoning-handoff')).toBe(true);
    // Same tokenizer on both sides: the ratio is 1, so the factor is 1 plus the 5% safety margin.
    expect(agent.tokenizer.calibration.factor).toBeCloseTo(1.05, 2);
  });
});
