/**
 * The conformance scenarios, each run through the real agent loop (`Agent` and
 * `Session` from `@episodic/core`: packContext, retries, repack on overflow, abort)
 * with the adapter under test and its strict loopback server. Assertions read what
 * the server received; what reasoning goes back follows the adapter's profile
 * retention (see {@link Harness.expectEcho}).
 */
import {
  type AssistantMessage,
  ModelError,
  maxSteps,
  type ReasoningPart,
  RunAbortedError,
} from '@episodic/core';
import { packContext } from '@episodic/core/packing';

/** The packer's default low-water mark (a share of the budget; packages/core/src/packing/pack-settings.ts). */
const DEFAULT_LOW_WATER = 0.5;
import { expect } from 'vitest';
import { z } from 'zod';
import type { ScriptedReply } from '../servers/scripted-server.js';
import {
  current,
  expectNoOrphans,
  type Harness,
  past,
  retentionOf,
  type ScenarioName,
  type ScenarioResult,
  viewOf,
} from './conformance-harness.js';
import { testAgentTools, testToolSpecs } from './conformance-tools.js';

const statusesOf = (harness: Harness) => harness.calls().map((call) => call.status);

async function threeToolSteps(h: Harness): Promise<ScenarioResult> {
  const replies: ScriptedReply[] = [
    { type: 'reply', reasoning: ['r1: read the log'], toolCalls: [{ name: 'get_ci_log', args: { run: 1 } }] },
    {
      type: 'reply',
      reasoning: ['r2: open the test'],
      toolCalls: [{ name: 'read_file', args: { path: 'a.test.ts' } }],
    },
    { type: 'reply', reasoning: ['r3: compare runs'], toolCalls: [{ name: 'get_ci_log', args: { run: 2 } }] },
    { type: 'reply', reasoning: ['r4: conclude'], text: 'The expectation is off by one.' },
  ];
  h.server.enqueue(...replies);
  const session = await h.session();
  const result = await h.send(session, 'CI is red on main');
  expect(result).toMatchObject({ reason: 'done', steps: 4, text: 'The expectation is off by one.' });
  const calls = h.calls();
  expect(statusesOf(h)).toEqual([200, 200, 200, 200]);
  for (const [index, call] of calls.entries()) h.expectEcho(call, current(...replies.slice(0, index)));
  expectNoOrphans(calls);
  const assistants = session.messages.filter((message): message is AssistantMessage => message.role === 'assistant');
  expect(assistants).toHaveLength(4);
  for (const message of assistants) {
    expect(message.model).toEqual(h.adapter.model);
    expect(message.usage?.inputTokens).toBeGreaterThan(0);
    expect(message.usage?.outputTokens).toBeGreaterThan(0);
    const reasoning = message.content.filter((part): part is ReasoningPart => part.type === 'reasoning');
    if (h.target.echoesReasoning ?? true) expect(reasoning.length).toBeGreaterThan(0);
    for (const part of reasoning)
      expect(part.providerData).toMatchObject({ provider: h.adapter.model.provider, model: h.adapter.model.id });
  }
  return h.result(session);
}

async function secondUserTurn(h: Harness): Promise<ScenarioResult> {
  const first: ScriptedReply[] = [
    { type: 'reply', reasoning: ['e1: look'], toolCalls: [{ name: 'get_ci_log', args: { run: 7 } }] },
    { type: 'reply', reasoning: ['e1: answer'], text: 'Flaky test.' },
  ];
  const second: ScriptedReply[] = [
    { type: 'reply', reasoning: ['e2: look again'], toolCalls: [{ name: 'read_file', args: { path: 'b.ts' } }] },
    { type: 'reply', reasoning: ['e2: answer'], text: 'Fixed in b.ts.' },
  ];
  h.server.enqueue(...first, ...second);
  const session = await h.session();
  await h.send(session, 'Why is CI red?');
  const result = await h.send(session, 'And the second failure?');
  expect(result.text).toBe('Fixed in b.ts.');
  const calls = h.calls();
  expect(statusesOf(h)).toEqual([200, 200, 200, 200]);
  expect(viewOf(calls[2]).userTexts).toEqual(['Why is CI red?', 'And the second failure?']);
  expect(viewOf(calls[2]).toolCallIds).toHaveLength(1);
  h.expectEcho(calls[2], past(...first));
  h.expectEcho(calls[3], [...past(...first), ...current(second[0] as ScriptedReply)]);
  expectNoOrphans(calls);
  return h.result(session);
}

async function parallelToolCalls(h: Harness): Promise<ScenarioResult> {
  const both: ScriptedReply = {
    type: 'reply',
    reasoning: ['p: both at once'],
    toolCalls: [
      { name: 'get_ci_log', args: { run: 1 } },
      { name: 'read_file', args: { path: 'c.ts' } },
    ],
  };
  h.server.enqueue(both, { type: 'reply', text: 'Both checked.' });
  const session = await h.session();
  const result = await h.send(session, 'Check run 1 and c.ts');
  expect(result.text).toBe('Both checked.');
  expect(statusesOf(h)).toEqual([200, 200]);
  const view = viewOf(h.calls()[1]);
  expect(view.toolCallIds).toHaveLength(2);
  expect(view.toolResultIds).toEqual(view.toolCallIds);
  h.expectEcho(h.calls()[1], current(both));
  return h.result(session);
}

async function toolError(h: Harness): Promise<ScenarioResult> {
  const attempt: ScriptedReply = {
    type: 'reply',
    reasoning: ['t: try it'],
    toolCalls: [{ name: 'failing_tool', args: {} }],
  };
  h.server.enqueue(attempt, { type: 'reply', text: 'The tool failed; giving up.' });
  const session = await h.session();
  const result = await h.send(session, 'Use the failing tool');
  expect(result.text).toBe('The tool failed; giving up.');
  expect(statusesOf(h)).toEqual([200, 200]);
  const view = viewOf(h.calls()[1]);
  expect(view.toolErrorIds).toHaveLength(1);
  expect(view.toolErrorIds).toEqual(view.toolCallIds);
  h.expectEcho(h.calls()[1], current(attempt));
  const toolResult = session.messages.find((message) => message.role === 'tool');
  expect(toolResult).toMatchObject({ isError: true, content: expect.stringContaining('disk on fire') });
  return h.result(session);
}

/**
 * Aborted while the model streams: a typed error from the adapter, a consistent
 * transcript, and `resume` continues the episode with its reasoning.
 */
async function abortMidStream(h: Harness): Promise<ScenarioResult> {
  const look: ScriptedReply = {
    type: 'reply',
    reasoning: ['x: look first'],
    toolCalls: [{ name: 'read_file', args: { path: 'e.ts' } }],
  };
  h.server.enqueue(look, { type: 'stall', text: 'thinking out loud' });
  const controller = new AbortController();
  const session = await h.session();
  const started = Date.now();
  const outcome = await session
    .send('Go', {
      signal: controller.signal,
      onEvent: (event) => {
        if (event.type === 'text-delta') controller.abort();
      },
    })
    .catch((error: unknown) => error);
  expect(outcome).toBeInstanceOf(RunAbortedError);
  expect(Date.now() - started).toBeLessThan(5000);
  // The adapter itself ended the stream with its typed error (the loop reports RunAbortedError).
  expect(h.adapter.thrown).toHaveLength(1);
  expect(h.adapter.thrown[0]).toBeInstanceOf(ModelError);
  expect((h.adapter.thrown[0] as ModelError).kind).toBe('aborted');
  const callCount = session.messages
    .flatMap((message) => (message.role === 'assistant' ? message.content : []))
    .filter((part) => part.type === 'tool-call').length;
  expect(session.messages.filter((message) => message.role === 'tool')).toHaveLength(callCount);
  expect(session.unfinished).toBe(true);
  h.server.enqueue({ type: 'reply', text: 'continued' });
  const resumed = await h.resume(session);
  expect(resumed.text).toBe('continued');
  const calls = h.calls();
  expect(calls.at(-1)?.status).toBe(200);
  h.expectEcho(calls.at(-1), current(look));
  expectNoOrphans(calls);
  return h.result(session);
}

/** A 429 with a retry-after is retried after exactly that delay, asked of the loop's (fake) sleep. */
async function rateLimitThenSuccess(h: Harness): Promise<ScenarioResult> {
  h.server.enqueue({ type: 'error', status: 429, retryAfterSeconds: 2 }, { type: 'reply', text: 'after the limit' });
  const session = await h.session();
  const result = await h.send(session, 'Try despite limits');
  expect(result.text).toBe('after the limit');
  expect(statusesOf(h)).toEqual([429, 200]);
  const [report, ...rest] = h.errors();
  expect(rest).toEqual([]);
  expect(report).toMatchObject({ willRetry: true, retryInMs: 2000 });
  expect(report?.error).toBeInstanceOf(ModelError);
  expect(report?.error).toMatchObject({ kind: 'rate-limit', retryable: true, status: 429, retryAfter: 2 });
  expect(h.sleeps).toEqual([2000]);
  return h.result(session);
}

/**
 * The second episode's budget is set to exactly what it packs to (counted by the
 * agent's own calibrated counter), so the loop's repack at a smaller budget after
 * the provider's context-length error has to evict the first episode.
 */
async function contextOverflowRepack(h: Harness): Promise<ScenarioResult> {
  h.server.enqueue(
    { type: 'reply', text: 'first answer' },
    { type: 'context-overflow' },
    { type: 'reply', text: 'fits now' },
  );
  const roomy = h.agent();
  const firstSession = await h.session(roomy);
  await h.send(firstSession, `First question, with the log: ${'step 4 failed: expected 2, got 3. '.repeat(40)}`);
  const second = { role: 'user' as const, content: 'Second question' };
  const pack = (budget: number, boundReasoning?: boolean) =>
    packContext({
      messages: [...firstSession.messages, second],
      system: h.system,
      tools: testToolSpecs,
      budget,
      retention: retentionOf(h.adapter),
      tokenizer: roomy.tokenizer,
      state: firstSession.packState,
      ...(boundReasoning ? { boundReasoning } : {}),
    });
  const total = pack(1_000_000).stats.tokens.total;
  // A model that binds its thinking evicts at a user turn already above the low-water mark
  // (half the budget by default), or above what leaves the room its recent episodes foresee
  // (bound-room.ts): give it the least budget at which its plan keeps the first episode.
  const bound = h.adapter.profile?.signatureBoundToPrefix === true;
  let budget = bound ? Math.ceil(total / DEFAULT_LOW_WATER) + 1 : total;
  while (bound && pack(budget, true).stats.evictedNow) budget = Math.ceil(budget * 1.02);
  const tight = h.agent({ budget, tokenizer: roomy.tokenizer });
  const session = await h.session(tight);
  const result = await h.send(session, second);
  expect(result.text).toBe('fits now');
  const calls = h.calls();
  expect(statusesOf(h)).toEqual([200, 400, 200]);
  const [report, ...rest] = h.errors();
  expect(rest).toEqual([]);
  expect(report?.willRetry).toBe(true);
  expect(report?.error).toBeInstanceOf(ModelError);
  expect(report?.error).toMatchObject({ kind: 'context-overflow', retryable: false });
  expect(h.sleeps).toEqual([]);
  expect(viewOf(calls[1]).userTexts).toHaveLength(2);
  expect(viewOf(calls[2]).userTexts).toEqual(['Second question']);
  expect(viewOf(calls[2]).messageCount).toBeLessThan(viewOf(calls[1]).messageCount);
  return h.result(session);
}

/**
 * The primary model makes a tool call and the episode stops there; the secondary
 * resumes it, then runs the next episode. The secondary never gets the primary's
 * opaque reasoning; its own goes back per its own profile's retention.
 */
async function modelSwitch(h: Harness): Promise<ScenarioResult> {
  const primaryStep: ScriptedReply = {
    type: 'reply',
    reasoning: ['a: primary thinks'],
    toolCalls: [{ name: 'get_ci_log', args: { run: 3 } }],
  };
  const secondaryAnswer: ScriptedReply = {
    type: 'reply',
    reasoning: ['b: secondary thinks'],
    text: 'Secondary answers.',
  };
  const nextStep: ScriptedReply = {
    type: 'reply',
    reasoning: ['b: next episode'],
    toolCalls: [{ name: 'read_file', args: { path: 'd.ts' } }],
  };
  h.server.enqueue(primaryStep, secondaryAnswer, nextStep, { type: 'reply', text: 'Done.' });
  const first = await h.session(h.agent({ stopWhen: maxSteps(1) }));
  expect((await h.send(first, 'Start with the primary model')).reason).toBe('stop-condition');
  const other = h.createAdapter(h.target.models.secondary);
  const session = await h.session(h.agent({ model: other }));
  expect((await h.resume(session)).text).toBe('Secondary answers.');
  await h.send(session, 'Continue with the secondary');
  const calls = h.calls();
  expect(statusesOf(h)).toEqual([200, 200, 200, 200]);
  expect(calls.map((call) => viewOf(call).model)).toEqual([
    h.target.models.primary,
    ...Array(3).fill(h.target.models.secondary),
  ]);
  h.expectEcho(calls[1], [], other);
  h.expectEcho(calls[2], past(secondaryAnswer), other);
  h.expectEcho(calls[3], [...past(secondaryAnswer), ...current(nextStep)], other);
  expectNoOrphans(calls);
  const assistants = session.messages.filter((message) => message.role === 'assistant');
  expect(assistants.map((message) => message.model?.id)).toEqual([
    h.target.models.primary,
    ...Array(3).fill(h.target.models.secondary),
  ]);
  return h.result(session);
}

/**
 * Parallel calls, one of which needs approval: the other runs at once and the
 * episode pauses; an agent built afresh (as another process would) on the same
 * store approves and resumes. The resumed call is the same episode, so its
 * reasoning goes back with its opaque data, and every call has its result.
 */
async function approvalPauseResume(h: Harness): Promise<ScenarioResult> {
  const tools = testAgentTools.map((tool) => (tool.spec.name === 'read_file' ? { ...tool, needsApproval: true } : tool));
  const both: ScriptedReply = {
    type: 'reply',
    reasoning: ['g: read the log and the file'],
    toolCalls: [
      { name: 'get_ci_log', args: { run: 5 } },
      { name: 'read_file', args: { path: 'f.ts' } },
    ],
  };
  h.server.enqueue(both, { type: 'reply', reasoning: ['g: conclude'], text: 'Fixed in f.ts.' });
  const paused = await h.send(await h.session(h.agent({ tools })), 'Check run 5 and f.ts');
  expect(paused.status).toBe('paused');
  expect(paused.pendingApprovals.map((request) => request.toolName)).toEqual(['read_file']);
  const reopened = await h.session(h.agent({ model: h.createAdapter(h.target.models.primary), tools }));
  await reopened.approveAll();
  const result = await h.resume(reopened);
  expect(result).toMatchObject({ status: 'finished', text: 'Fixed in f.ts.' });
  const calls = h.calls();
  expect(statusesOf(h)).toEqual([200, 200]);
  h.expectEcho(calls[1], current(both));
  expectNoOrphans(calls);
  expect(viewOf(calls[1]).toolResultIds).toHaveLength(2);
  expect(viewOf(calls[1]).toolErrorIds).toEqual([]);
  return h.result(reopened);
}

const Diagnosis = z.object({ verdict: z.enum(['flaky', 'broken']), file: z.string() });

/**
 * A structured answer whose first try breaks the schema: natively (the format in the
 * wire API's field, the answer as JSON text) where the profile says so, else through
 * the final_answer tool. The failed check goes back to the model, and the second
 * answer is accepted and typed.
 */
async function structuredOutputRecovered(h: Harness): Promise<ScenarioResult> {
  const native = h.adapter.profile?.structuredOutput === 'native';
  const answer = (value: Record<string, unknown>, thought: string): ScriptedReply =>
    native
      ? { type: 'reply', reasoning: [thought], text: JSON.stringify(value) }
      : { type: 'reply', reasoning: [thought], toolCalls: [{ name: 'final_answer', args: value }] };
  const look: ScriptedReply = {
    type: 'reply',
    reasoning: ['s: read the log first'],
    toolCalls: [{ name: 'get_ci_log', args: { run: 9 } }],
  };
  const first = answer({ verdict: 'maybe', file: 'a.test.ts' }, 's: answer');
  h.server.enqueue(look, first, answer({ verdict: 'flaky', file: 'a.test.ts' }, 's: fix the verdict'));
  const session = await h.session();
  const result = await session.send('Why is CI red?', { output: Diagnosis, onEvent: (event) => h.events.push(event) });
  expect(result.status === 'finished' && result.output).toEqual({ verdict: 'flaky', file: 'a.test.ts' });
  const calls = h.calls();
  expect(statusesOf(h)).toEqual([200, 200, 200]);
  expectNoOrphans(calls);
  const [asked, , retried] = calls.map(viewOf);
  if (native) {
    expect(asked?.outputFormat?.schema).toMatchObject({ properties: { verdict: {}, file: {} } });
    expect(retried?.userTexts.at(-1)).toContain('does not match the required schema');
  } else {
    expect(asked?.outputFormat).toBeUndefined();
    expect(retried?.toolErrorIds).toEqual([retried?.toolCallIds.at(-1)]);
    h.expectEcho(calls[2], current(look, first));
  }
  return h.result(session);
}

/** Every scenario of the suite, in the order it runs. */
export const scenarios: Record<ScenarioName, { title: string; run(harness: Harness): Promise<ScenarioResult> }> = {
  'three-tool-steps': {
    title: 'runs one episode with three tool steps, echoing the current reasoning with its opaque data',
    run: threeToolSteps,
  },
  'second-user-turn': {
    title: 'at the next user message sends past reasoning only as the profile`s retention keeps it',
    run: secondUserTurn,
  },
  'parallel-tool-calls': {
    title: 'sends parallel tool calls and their results together, in order',
    run: parallelToolCalls,
  },
  'tool-error': { title: 'sends a failing tool`s result flagged as an error and goes on', run: toolError },
  'abort-mid-stream': {
    title: 'aborts mid-stream with a typed error, a consistent transcript, and resumes the episode',
    run: abortMidStream,
  },
  'rate-limit-then-success': {
    title: 'retries a 429 after its retry-after through the loop`s sleep, then succeeds',
    run: rateLimitThenSuccess,
  },
  'context-overflow-repack': {
    title: 'maps a context-length error to context-overflow and succeeds after one repack that evicts',
    run: contextOverflowRepack,
  },
  'model-switch': {
    title: 'switches model mid-episode and keeps going without sending the other model`s opaque reasoning',
    run: modelSwitch,
  },
  'approval-pause-resume': {
    title: 'pauses for an approval, and a reopened session resumes the same episode with its reasoning',
    run: approvalPauseResume,
  },
  'structured-output-recovered': {
    title: 'asks for a structured answer (natively where the profile says so), feeds a failed check back and returns the typed answer',
    run: structuredOutputRecovered,
  },
};
