/**
 * The invariants a pool run must keep, checked on what the database holds after it:
 * - every job done, and its user message in its session exactly once, in job order;
 * - every episode finished exactly once: one final answer, after `TOOL_STEPS` steps;
 * - every tool call has exactly one result, right after it, and no call id repeats;
 * - each session's order intact (user, then step by step, then the answer);
 * - the current episode's reasoning survived every takeover: each model call saw
 *   the reasoning of every earlier step of its episode (the script wrote what it saw
 *   into the step's text), and with `persistReasoning: 'always'` the reasoning is in
 *   the transcript.
 */
import { type AssistantMessage, type Message, type SessionStore, toolCallsOf, unknownOutcome } from '@episodic/core';
import type { Job, JobWithState } from './pool-jobs.js';
import { jobMessage } from './handle-job.js';
import { reasoningNote, reasoningOf, STEP_TOOLS, TOOL_STEPS } from './pool-agent.js';

/** What the check found. */
export interface PoolCheck {
  sessions: number;
  episodes: number;
  messagesChecked: number;
  toolCalls: number;
  /** Non-idempotent calls answered "outcome unknown" after a crash (durable runs only). */
  unknownOutcomes: number;
  /** The ids of those calls. */
  unknownCalls: string[];
  /** Each broken invariant, with its session and position. */
  violations: string[];
}

/** Checks every session of `jobs` (sorted by session and position) in `store`. */
export async function verifyPool(store: SessionStore, jobs: readonly JobWithState[]): Promise<PoolCheck> {
  const check: PoolCheck = {
    sessions: 0,
    episodes: 0,
    messagesChecked: 0,
    toolCalls: 0,
    unknownOutcomes: 0,
    unknownCalls: [],
    violations: [],
  };
  const bySession = new Map<string, JobWithState[]>();
  for (const job of jobs) bySession.set(job.sessionId, [...(bySession.get(job.sessionId) ?? []), job]);
  for (const [sessionId, sessionJobs] of bySession) {
    check.sessions += 1;
    for (const job of sessionJobs) if (job.status !== 'done') check.violations.push(`job ${job.id} (${sessionId}) is ${job.status}`);
    const messages = (await store.load(sessionId))?.messages ?? [];
    check.messagesChecked += messages.length;
    verifySession(sessionId, messages, sessionJobs, check);
  }
  return check;
}

const episodeLength = 2 + 2 * TOOL_STEPS;

function verifySession(sessionId: string, messages: readonly Message[], jobs: readonly Job[], check: PoolCheck): void {
  const fail = (detail: string) => check.violations.push(`${sessionId}: ${detail}`);
  if (messages.length !== jobs.length * episodeLength) {
    fail(`${messages.length} messages, expected ${jobs.length} episodes of ${episodeLength}`);
  }
  const callIds = new Set<string>();
  jobs.forEach((job, index) => {
    const episode = messages.slice(index * episodeLength, (index + 1) * episodeLength);
    check.episodes += 1;
    const [first] = episode;
    if (first?.role !== 'user' || first.content !== jobMessage(job)) {
      fail(`episode ${index + 1} does not start with job ${job.id}'s message (lost, doubled or out of order)`);
      return;
    }
    for (let step = 1; step <= TOOL_STEPS + 1; step += 1) {
      const assistant = episode[2 * step - 1];
      if (assistant?.role !== 'assistant') {
        fail(`job ${job.id} step ${step}: expected an assistant message, found ${assistant?.role ?? 'nothing'}`);
        return;
      }
      verifyStep(job, step, assistant, episode[2 * step], fail, callIds, check);
    }
  });
}

function verifyStep(
  job: Job,
  step: number,
  assistant: AssistantMessage,
  next: Message | undefined,
  fail: (detail: string) => void,
  callIds: Set<string>,
  check: PoolCheck,
): void {
  const where = `job ${job.id} step ${step}`;
  const text = assistant.content.flatMap((part) => (part.type === 'text' ? [part.text] : [])).join('');
  if (!text.includes(reasoningNote([], step))) fail(`${where}: the model call did not see the episode's earlier reasoning ("${text}")`);
  const reasoning = assistant.content.filter((part) => part.type === 'reasoning');
  if (job.persistReasoning === 'always' && (reasoning.length !== 1 || reasoning[0]?.text !== reasoningOf(job.id, step))) {
    fail(`${where}: its reasoning is not in the transcript`);
  }
  if (job.persistReasoning === 'current-episode' && reasoning.length > 0) fail(`${where}: reasoning at rest in the transcript`);
  const calls = toolCallsOf(assistant);
  if (step > TOOL_STEPS) {
    if (calls.length > 0) fail(`${where}: the answer calls tools`);
    return;
  }
  const [call] = calls;
  if (calls.length !== 1 || call?.id !== `${job.id}-${step}` || call.name !== STEP_TOOLS[step - 1]) {
    fail(`${where}: expected one call ${job.id}-${step} of ${STEP_TOOLS[step - 1]}`);
    return;
  }
  check.toolCalls += 1;
  if (callIds.has(call.id)) fail(`${where}: tool call ${call.id} appears twice`);
  callIds.add(call.id);
  if (next?.role !== 'tool' || next.toolCallId !== call.id) fail(`${where}: tool call ${call.id} has no result right after it`);
  // The one error a durable run may give: a non-idempotent call that may have begun before a crash is not run again.
  else if (next.isError && next.content !== unknownOutcome(call.name)) fail(`${where}: tool call ${call.id} failed: ${next.content}`);
  else if (next.isError) {
    check.unknownOutcomes += 1;
    check.unknownCalls.push(call.id);
  }
}
