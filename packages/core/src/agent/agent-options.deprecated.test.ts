import { describe, expect, it } from 'vitest';
import { Agent } from './agent.js';
import type { AgentOptions, DeprecatedAgentOptions } from './agent-options.js';
import { groupOptions } from './agent-options-deprecated.js';
import { EpisodicError } from '../errors/episodic-error.js';
import { OptionConflictError } from '../errors/input-errors.js';
import type { AgentEvent } from '../loop/agent-events.js';
import { autoApprove } from '../loop/approvals.js';
import type { AgentTool } from '../loop/tool.js';
import { scriptedModel } from '../testing/scripted-model.js';
import { createApproximateCounter, type TokenCounter } from '../tokens/token-counter.js';
import { MemoryReplayCache } from '../reasoning/replay-cache/memory-replay-cache.js';

const model = scriptedModel({ steps: () => ({ text: 'ok' }) });
const other = scriptedModel({ steps: () => ({ text: 'other' }), model: { provider: 'scripted', id: 'other' } });

/** Each flat name of the previous release, a value for it, and where it must land. */
const cases: readonly [old: string, value: unknown, group: 'context' | 'reasoning' | 'toolCalls' | 'modelCalls', name: string][] = [
  ['budget', 9_000, 'context', 'budget'],
  ['retention', 'all', 'context', 'retention'],
  ['nativeContext', { clearThinking: { keep: 'all' } }, 'context', 'native'],
  ['pack', { lowWater: 0.5 }, 'context', 'pack'],
  ['cutResults', 'cut', 'context', 'cutResults'],
  ['summarizer', { model: other }, 'context', 'summarizer'],
  ['tokenizer', createApproximateCounter(), 'context', 'tokenizer'],
  ['handoff', true, 'reasoning', 'handoff'],
  ['persistReasoning', 'current-episode', 'reasoning', 'persist'],
  ['reasoningOutput', { echoSuppression: true }, 'reasoning', 'output'],
  ['replayCache', new MemoryReplayCache(), 'reasoning', 'replayCache'],
  ['maxConcurrency', 2, 'toolCalls', 'maxConcurrency'],
  ['toolTimeoutMs', 5_000, 'toolCalls', 'timeoutMs'],
  ['approvalPolicy', autoApprove, 'toolCalls', 'approvalPolicy'],
  ['maxOutputTokens', 1_000, 'modelCalls', 'maxOutputTokens'],
  ['retry', { maxRetries: 0 }, 'modelCalls', 'retry'],
  ['providerOptions', { temperature: 0 }, 'modelCalls', 'providerOptions'],
  ['fallback', [other], 'modelCalls', 'fallback'],
];

const deprecationsOf = (agent: Agent) => agent.warnings.filter((warning) => warning.includes('deprecated'));

describe('AgentOptions: the previous release names', () => {
  const named = cases.map(([old, value, group, name]) => ({ old, value, group, name, target: `${group}.${name}` }));
  it.each(named)('$old maps to $target and warns once', async ({ old, value, group, name }) => {
    const given = { model, [old]: value } as AgentOptions;
    const { grouped, deprecations } = groupOptions(given);
    expect((grouped[group] as Record<string, unknown>)[name]).toBe(value);
    expect(old in grouped).toBe(false);
    expect(deprecations).toEqual([`AgentOptions.${old} is deprecated: use ${group}.${name} (the old name is removed in the next release).`]);

    const agent = new Agent(given);
    expect(deprecationsOf(agent)).toEqual(deprecations);
    // Said once per agent: the first session has it and emits it at its first run; later sessions do not.
    const events: AgentEvent[] = [];
    const first = await agent.session();
    expect(first.warnings).toEqual(expect.arrayContaining(deprecations));
    const second = await agent.session();
    expect(second.warnings.filter((warning) => warning.includes('deprecated'))).toEqual([]);
    await first.send('hi', { onEvent: (event) => events.push(event) });
    await first.send('again', { onEvent: (event) => events.push(event) });
    const warned = events.filter((event) => event.type === 'warning' && event.code === 'deprecated-option');
    expect(warned).toHaveLength(1);
  });

  it('takes an old name given with the same value as its new one, warning once', () => {
    const { grouped, deprecations } = groupOptions({ model, budget: 9_000, context: { budget: 9_000 } });
    expect(grouped.context.budget).toBe(9_000);
    expect(deprecations).toHaveLength(1);
  });

  it('refuses an old and a new name with different values, naming both', () => {
    const attempt = () => new Agent({ model, maxConcurrency: 2, toolCalls: { maxConcurrency: 3 } });
    expect(attempt).toThrow(OptionConflictError);
    expect(attempt).toThrow(/both maxConcurrency \(deprecated\) and toolCalls\.maxConcurrency are given/);
    try {
      new Agent({ model, nativeContext: { clearThinking: { keep: 1 } }, context: { native: { clearThinking: { keep: 2 } } } });
      expect.unreachable();
    } catch (error) {
      expect(error).toBeInstanceOf(EpisodicError);
      expect(error).toMatchObject({ code: 'option_conflict', deprecated: 'nativeContext', replacement: 'context.native' });
    }
  });

  it("takes the string form of context and the policy name 'episodic' as 'packer', with a warning each", () => {
    const flat = new Agent({ model, context: 'episodic' });
    expect(flat.context).toBe('packer');
    expect(deprecationsOf(flat)).toEqual([
      "AgentOptions.context as a string ('episodic') is deprecated: use context: { policy } (the old name is removed in the next release).",
    ]);
    expect(flat.warnings).toContain(
      "the context policy 'episodic' (AgentOptions.context.policy) is now called 'packer': use 'packer' (the old name is removed in the next release).",
    );
    const grouped = new Agent({ model, context: { policy: 'episodic' } });
    expect(grouped.context).toBe('packer');
    expect(grouped.warnings).toHaveLength(1);
    expect(new Agent({ model, context: 'native' }).context).toBe('native');
  });

  it("takes a model profile's contextPolicy 'episodic' as 'packer', with a warning", () => {
    const old = scriptedModel({ steps: [], profile: { contextPolicy: 'episodic' } });
    const agent = new Agent({ model: old });
    expect(agent.context).toBe('packer');
    expect(agent.warnings).toEqual([expect.stringContaining("the context policy 'episodic' (the model profile's contextPolicy)")]);
    expect(new Agent({ model: old, context: { policy: 'hybrid' } }).warnings).not.toContainEqual(expect.stringContaining('episodic'));
  });

  it('warns nothing for the grouped shape', () => {
    const agent = new Agent({
      model,
      context: { policy: 'packer', budget: 9_000, pack: { lowWater: 0.5 }, cutResults: 'cut' },
      reasoning: { handoff: true, persist: 'always' },
      toolCalls: { maxConcurrency: 2, timeoutMs: 5_000, approvalPolicy: autoApprove },
      modelCalls: { maxOutputTokens: 1_000, retry: { maxRetries: 0 }, fallback: [other] },
    });
    expect(agent.warnings).toEqual([]);
    expect(agent.budget).toBe(9_000);
  });
});

describe('AgentOptions: the grouped shape', () => {
  it('has at most 12 top-level fields besides the deprecated ones (issue 36)', () => {
    // Typed as a record of every own field: adding a field to AgentOptions fails to compile until it is listed here.
    const own: Record<Exclude<keyof AgentOptions, keyof DeprecatedAgentOptions>, true> = {
      model: true,
      system: true,
      tools: true,
      store: true,
      context: true,
      reasoning: true,
      toolCalls: true,
      modelCalls: true,
      stopWhen: true,
      secrets: true,
      hooks: true,
    };
    expect(Object.keys(own).length).toBeLessThanOrEqual(12);
  });
});

describe('AgentOptions: grouped and flat run alike', () => {
  const read: AgentTool = {
    spec: { name: 'read', description: 'Reads a page.', inputSchema: { type: 'object' } },
    needsApproval: true,
    execute: async (args) => ({ content: `page ${(args as { page: number }).page} `.repeat(400) }),
  };
  const steps = [
    { reasoning: 'Read both pages.', toolCalls: [{ id: 'c1', name: 'read', args: { page: 1 } }, { id: 'c2', name: 'read', args: { page: 2 } }] },
    { text: 'Both read.' },
    { reasoning: 'Again.', toolCalls: [{ id: 'c3', name: 'read', args: { page: 3 } }] },
    { text: 'Done.' },
  ];

  /** The requests the model got, the transcript and the events of two episodes on `options`. */
  async function run(options: (model: ReturnType<typeof scriptedModel>, tokenizer: TokenCounter) => AgentOptions) {
    const scripted = scriptedModel({ steps });
    // A counter each: a shared one would be calibrated by the first run's usage.
    const agent = new Agent(options(scripted, createApproximateCounter()));
    const session = await agent.session({ id: 'same' });
    const events: AgentEvent[] = [];
    const onEvent = (event: AgentEvent) => {
      if (!(event.type === 'warning' && event.code === 'deprecated-option')) events.push(event);
    };
    await session.send('read the pages', { onEvent });
    await session.send('and the third', { onEvent });
    const stable = (value: unknown) =>
      JSON.parse(JSON.stringify(value, (key, field: unknown) => (/^(at|durationMs|ms|createdAt|timestamp)$/.test(key) ? 0 : field)));
    return { requests: scripted.requests, messages: stable(session.messages), events: stable(events), agent };
  }

  it('sends the same requests, saves the same transcript and emits the same events', async () => {
    const flat = await run((scripted, tokenizer) => ({
      model: scripted,
      tools: [read],
      budget: 3_000,
      retention: 'all',
      pack: { toolResultCap: 100, lowWater: 0.6 },
      cutResults: 'cut',
      tokenizer,
      maxOutputTokens: 500,
      providerOptions: { temperature: 0 },
      retry: { maxRetries: 0 },
      maxConcurrency: 1,
      toolTimeoutMs: 10_000,
      approvalPolicy: autoApprove,
      persistReasoning: 'always',
    }));
    const grouped = await run((scripted, tokenizer) => ({
      model: scripted,
      tools: [read],
      context: { budget: 3_000, retention: 'all', pack: { toolResultCap: 100, lowWater: 0.6 }, cutResults: 'cut', tokenizer },
      modelCalls: { maxOutputTokens: 500, providerOptions: { temperature: 0 }, retry: { maxRetries: 0 } },
      toolCalls: { maxConcurrency: 1, timeoutMs: 10_000, approvalPolicy: autoApprove },
      reasoning: { persist: 'always' },
    }));
    expect(deprecationsOf(flat.agent)).toHaveLength(12);
    expect(grouped.agent.warnings).toEqual([]);
    // The options took effect: the small cap cut a past result, the approval policy ran the tools.
    expect(grouped.requests[1]?.maxOutputTokens).toBe(500);
    expect(JSON.stringify(grouped.requests[1])).toContain('page 1 '.repeat(400));
    expect(JSON.stringify(grouped.requests[2])).not.toContain('page 1 '.repeat(400));
    expect(grouped.events.some((event: AgentEvent) => event.type === 'tool-result')).toBe(true);
    expect(grouped.requests).toEqual(flat.requests);
    expect(grouped.messages).toEqual(flat.messages);
    expect(grouped.events).toEqual(flat.events);
  });
});
