import { type AgentEvent, type AgentTool, assistantText } from '@episodic/core';
import { defineTool } from '@episodic/tools';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { createCiDebugger, DEFAULT_TASK } from './agent.js';
import { offlineModel } from './offline-model.js';

/** A stand-in test tool that reports what `report` says for each call. */
function fakeTestTool(name: string, report: (args: { times: number; seed?: number }) => string): AgentTool {
  return defineTool({
    name,
    description: 'fake',
    input: z.object({ times: z.number(), seed: z.number().optional(), file: z.string().optional() }),
    execute: (args) => report(args),
  });
}

const counts = (label: string, passed: number, failed: number) =>
  `${label}: ran test/queue.test.js ${passed + failed} times (TEST_SEED 1..${passed + failed}) in 0.1s: ${passed} passed, ${failed} failed.`;

/** Runs the offline model on the real tools, with some test tools replaced. */
async function investigate(replace: Record<string, AgentTool>, followUps: string[] = [], budget = 24_000) {
  const { agent, scratch } = createCiDebugger({
    model: offlineModel({ latencyMs: 0 }),
    budget,
    customizeTools: (tools) => tools.map((tool) => replace[tool.spec.name] ?? tool),
  });
  try {
    const session = await agent.session();
    const events: AgentEvent[] = [];
    const onEvent = (event: AgentEvent) => events.push(event);
    const result = await session.send(DEFAULT_TASK, { onEvent });
    const answers: string[] = [];
    for (const question of followUps) answers.push((await session.send(question, { onEvent })).text);
    const calls = session.messages.filter((message) => message.role === 'tool').map((message) => message.toolName);
    return { result, calls, answers, events };
  } finally {
    await scratch.dispose();
  }
}

describe('the offline model decides from tool results', () => {
  it('does not claim a fix when the patched copy still fails', async () => {
    const { result, calls } = await investigate({
      run_tests: fakeTestTool('run_tests', ({ times }) =>
        counts('Original', times === 1 ? 0 : 30, times === 1 ? 1 : 10),
      ),
      run_tests_on_patched: fakeTestTool('run_tests_on_patched', ({ times }) =>
        counts('Patched', times === 1 ? 1 : 36, times === 1 ? 0 : 4),
      ),
    });
    expect(calls).toContain('apply_patch');
    expect(result.text).toContain('**The patch did not hold**: 4/40 runs still fail');
    expect(result.text).not.toContain('Verified fix');
  });

  it('reports "not reproduced" and proposes no patch when no local run fails', async () => {
    const { result, calls } = await investigate({
      run_tests: fakeTestTool('run_tests', ({ times }) => counts('Original', times, 0)),
    });
    expect(calls).not.toContain('apply_patch');
    expect(result.text).toContain('## Not reproduced');
    expect(result.text).toContain('seeded batch 0/40');
  });

  it('answers from the run list alone when every run passed', async () => {
    const { result, calls } = await investigate({
      list_ci_runs: defineTool({
        name: 'list_ci_runs',
        description: 'fake',
        input: z.object({}),
        execute: () =>
          '1 run (id #number status branch commit event ...):\n1 #1 success main abcdef0 push started 2026-11-20T10:00:00Z 30s 2000 log lines',
      }),
    });
    expect(calls).toEqual(['list_ci_runs']);
    expect(assistantText(result.message!)).toBe('Every recorded CI run passed: there is no failure to debug.');
  });

  it('lists the runs again when a small budget evicted the episode that had them', async () => {
    const failing = fakeTestTool('run_tests', ({ times }) =>
      counts('Original', times === 1 ? 0 : 30, times === 1 ? 1 : 10),
    );
    const passing = fakeTestTool('run_tests_on_patched', ({ times }) => counts('Patched', times, 0));
    const questions = ['Is #1847 on feat/priority-lanes the same flake?', 'What about #1853?', 'And #1883?'];
    const fakes = { run_tests: failing, run_tests_on_patched: passing };
    // A budget just above what the first episode needs: it fits, and the follow-ups push it out.
    const probe = await investigate(fakes);
    const peak = Math.max(
      ...probe.events.flatMap((event) => (event.type === 'context-packed' ? [event.stats.tokens.total] : [])),
    );
    const budget = peak + 300;
    const { result, calls, answers, events } = await investigate(fakes, questions, budget);
    expect(result.text).toContain('**Verified fix**');
    const packed = events.flatMap((event) => (event.type === 'context-packed' ? [event.stats] : []));
    const eviction = packed.findIndex((stats) => stats.evictedNow);
    expect(eviction).toBeGreaterThan(0);
    for (const stats of packed) expect(stats.tokens.total).toBeLessThanOrEqual(budget);
    // The run list lived in the evicted first episode: the model had to ask for it again.
    expect(calls.filter((name) => name === 'list_ci_runs')).toHaveLength(2);
    expect(answers[0]).toContain('deterministic regression on the branch, not the onIdle flake');
    expect(answers[1]).toMatch(/Commit 7f3d2c9 also passed \(#1856\), so this is flaky too\./);
    expect(answers[2]).toMatch(/the same flaky test|flaky test identified earlier/);
  });
});
