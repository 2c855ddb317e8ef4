import { describe, expect, it } from 'vitest';
import { Agent } from '../../agent/agent.js';
import type { AgentEvent } from '../../loop/agent-events.js';
import { scriptedModel } from '../../testing/scripted-model.js';
import { createApproximateCounter } from '../../tokens/token-counter.js';
import type { AgentTool } from '../../loop/tool.js';

const read: AgentTool = {
  spec: { name: 'read', description: 'reads a file', inputSchema: { type: 'object' } },
  execute: async () => ({ content: 'contents' }),
};
const trace = 'The failing test waits on a port that the fixture server never opens in time.';

async function run(steps: Parameters<typeof scriptedModel>[0]['steps']) {
  const tokenizer = createApproximateCounter();
  const model = scriptedModel({ steps });
  const session = await new Agent({ model, tools: [read], context: { budget: 50_000, tokenizer } }).session();
  const events: AgentEvent[] = [];
  const result = await session.send('CI is red', { onEvent: (event) => events.push(event) });
  return { session, events, result, tokenizer };
}

describe('reasoning stats and leak checks through the agent loop', () => {
  it('reports reasoning and visible tokens per step and per episode', async () => {
    const { events, result, tokenizer } = await run([
      { reasoning: 'a'.repeat(400), toolCalls: [{ name: 'read' }] },
      { reasoning: 'b'.repeat(200), text: 'c'.repeat(200) },
    ]);
    const stats = events.filter((event) => event.type === 'reasoning-stats');
    expect(stats.map((event) => event.scope)).toEqual(['step', 'step', 'episode']);
    expect(stats[0]).toMatchObject({ step: 1, stats: { reasoningTokens: 100, visibleTokens: 0, ratio: 1 } });
    expect(stats[1]).toMatchObject({ step: 2, stats: { reasoningTokens: 50, visibleTokens: 50, ratio: 0.5 } });
    const reported = tokenizer.countText('a'.repeat(400)) + tokenizer.countText('b'.repeat(200));
    expect(stats[2]).toMatchObject({
      steps: 2,
      stats: { reasoningTokens: 150, visibleTokens: 50, ratio: 0.75, reportedReasoningTokens: reported },
    });
    expect(result.reasoning.stats).toEqual(stats[2]?.type === 'reasoning-stats' ? stats[2].stats : undefined);
    expect(result.reasoning.leaks).toEqual([]);
    // Each step's stats come before its step-finish; the episode's before episode-finish.
    const types = events.map((event) => event.type);
    expect(types.lastIndexOf('reasoning-stats')).toBe(types.indexOf('episode-finish') - 1);
  });

  it('flags an echoed trace, tag markers and Harmony tokens in visible text', async () => {
    const { events, result, session } = await run([
      { reasoning: trace, text: `Answer: ${trace} </think> done <|channel|>final` },
    ]);
    const leak = events.find((event) => event.type === 'reasoning-leak');
    expect(leak?.type === 'reasoning-leak' && leak.findings.map((finding) => finding.kind)).toEqual([
      'trace-echo',
      'tag-marker',
      'service-token',
    ]);
    expect(result.reasoning.leaks.map((finding) => finding.step)).toEqual([1, 1, 1]);
    const summary = session.reasoning;
    expect(summary.leaks.map((finding) => [finding.kind, finding.messageIndex])).toEqual([
      ['trace-echo', 1],
      ['tag-marker', 1],
      ['service-token', 1],
    ]);
    expect(summary.total.steps).toBe(1);
    expect(summary.episodes).toHaveLength(1);
  });

  it('raises no leak event for a clean answer', async () => {
    const { events } = await run([
      { reasoning: trace, text: 'The fixture server starts too slowly; raise its timeout.' },
    ]);
    expect(events.some((event) => event.type === 'reasoning-leak')).toBe(false);
  });
});
