/**
 * The agent loop as a plain function. One call runs one episode (or finishes an
 * unfinished one): pack, stream the model, append its message, run the tools it
 * asked for, append their results, persist, and decide the next step, until the
 * model answers without tool calls or a stop condition holds.
 *
 * Write-ahead: the assistant message is persisted as soon as the call returns
 * (before its tools run) and the tool results as soon as the last one finishes, so
 * a crash loses at most the call or the tool batch in flight; `pendingStep` tells
 * what an interrupted transcript needs next. Tools may therefore run twice across
 * a crash (at least once, never zero times).
 */
import { episodeUnfinished, unansweredToolCalls } from '../message/episodes.js';
import { RunAbortedError } from '../errors/run-aborted-error.js';
import { savableAssistantMessage } from './checked-message.js';
import {
  type AssistantMessage,
  isEpisodeStart,
  type Message,
  type ToolMessage,
  toolCallsOf,
  type Usage,
  type UserMessage,
} from '../message/message.js';
import { callModel, type ModelCallResult } from './model-call.js';
import type { LoopSession, LoopSettings, NextStep } from './loop-types.js';
import { checkMessageFits } from '../packing/message-fits.js';
import { continuesBoundStep } from '../packing/bound-reasoning.js';
import { ReasoningReporter } from '../reasoning/stats/reasoning-report.js';
import { captureForReplay } from '../reasoning/replay-cache/replay-capture.js';
import { appendFinishedSummaries } from './summarizer/background-summarizer.js';
import { resultsOf, runToolBatch } from './tool-batch.js';
import { type EpisodeResult, episodeResult } from './episode-result.js';
import { AnswerCheck } from './structured-output/structured-output.js';
import { addSubSessionUsage, addUsage, emptyUsageTotals, estimateCost, type UsageTotals } from '../model/usage-totals.js';
import type { ModelCallOutcome } from './durable/durable-episode.js';
import { offeredSettings, type RunContext, startRun } from './run-context.js';

/**
 * Runs one episode: with `input`, a new one; without, whatever the transcript's
 * current episode still needs (see {@link pendingStep}). Throws {@link RunAbortedError}
 * when `signal` aborts and the final error when a model call fails for good; in both
 * cases the transcript is consistent and persisted.
 */
export async function runEpisode(
  loopSettings: LoopSettings,
  session: LoopSession,
  input: UserMessage | undefined,
  signal?: AbortSignal,
): Promise<EpisodeResult<unknown>> {
  const { emit } = session;
  const run = startRun(loopSettings, session, input);
  const { settings } = run;
  let usage = emptyUsageTotals(settings.pricing);
  let calls = 0;
  const reporter = new ReasoningReporter(settings.tokenizer, emit, settings.leakCheck);
  const model = settings.model.model;
  emit({ type: 'episode-start', sessionId: session.id, input, resumed: input === undefined, model });
  for (const notice of session.takeNotices?.() ?? []) emit(notice);
  try {
    if (input) await startEpisode(run, input);
    const { writer } = session;
    let step = stepsInEpisode(writer.messages);
    let next: NextStep = pendingStep(writer.messages) ?? { type: 'final', message: lastAssistant(writer.messages) };
    const answers = settings.output ? new AnswerCheck(settings.output) : undefined;
    for (;;) {
      switch (next.type) {
        case 'call-model': {
          step += 1;
          const outcome = await modelStep(run, { step, reporter }, signal);
          usage = addUsage(usage, outcome.usage, settings.pricing);
          calls += 1;
          next = outcome.next;
          // A response paused after the provider compacted is recorded; the same step goes on.
          if (outcome.paused) step -= 1;
          break;
        }
        case 'run-tools': {
          const { message } = next;
          const outcome = await runTools(run, next, step, signal);
          for (const result of outcome.results) if (result.subSession) usage = addSubSessionUsage(usage, result.subSession);
          const answered = outcome.next.type !== 'paused' && (await answers?.afterTools(message, outcome.results));
          next = answered ? { type: 'final', message } : outcome.next;
          break;
        }
        case 'final':
        case 'stop':
        case 'paused': {
          const goesOn = await afterEnd(run, next, answers);
          if (goesOn) {
            next = goesOn;
            break;
          }
          return await finishEpisode(run, next, { steps: calls, usage, reporter, answers });
        }
      }
    }
  } catch (error) {
    throw failedEpisode(run, error, { signal, usage, reporter });
  }
}

/**
 * What comes after the episode's end, when it goes on: a durable run waits for the
 * decisions its pause needs, and a structured answer that failed its check sends the
 * model its feedback. Undefined when the episode ends at `next`.
 */
async function afterEnd(
  run: RunContext,
  next: Extract<NextStep, { type: 'final' | 'stop' | 'paused' }>,
  answers: AnswerCheck | undefined,
): Promise<NextStep | undefined> {
  const { durable, session } = run;
  if (next.type === 'paused' && durable?.canWaitFor(next.pending)) {
    await durable.waitForDecisions(next.pending);
    return pendingStep(session.writer.messages) ?? next;
  }
  const feedback = await answers?.atEnd(next, session.writer.messages);
  if (!feedback) return undefined;
  await append(run, [feedback]);
  return { type: 'call-model' };
}

/** Ends the episode at `next`: appends the finished summaries, reports, and returns its result. */
async function finishEpisode(
  run: RunContext,
  next: Extract<NextStep, { type: 'final' | 'stop' | 'paused' }>,
  { steps, usage, reporter, answers }: { steps: number; usage: UsageTotals; reporter: ReasoningReporter; answers: AnswerCheck | undefined },
): Promise<EpisodeResult<unknown>> {
  const { session, durable } = run;
  // Not while paused: a summary line must not come between a step's tool results.
  if (next.type !== 'paused') await appendFinishedSummaries(session, (lines) => append(run, lines));
  const outcome = { message: next.message, steps, usage, reasoning: reporter.finish(), output: answers?.value };
  durable?.replay.finish(session.writer.messages);
  const result = episodeResult(next, outcome);
  session.emit({ type: 'episode-finish', reason: result.reason, message: next.message, usage, output: outcome.output });
  return result;
}

/** The error that ends the episode, reported and redacted once (retried ones are redacted in model-call.ts). */
function failedEpisode(
  run: RunContext,
  error: unknown,
  { signal, usage, reporter }: { signal: AbortSignal | undefined; usage: UsageTotals; reporter: ReasoningReporter },
): unknown {
  const { secrets } = run.settings;
  const aborted = signal?.aborted === true;
  const raw = aborted && !(error instanceof RunAbortedError) ? new RunAbortedError(signal?.reason) : error;
  const failure = secrets ? secrets.redactError(raw) : raw;
  reporter.finish();
  run.session.emit({ type: 'error', error: failure as Error, willRetry: false });
  run.session.emit({ type: 'episode-finish', reason: aborted ? 'aborted' : 'error', message: undefined, usage });
  return failure;
}

/**
 * Calls the model, learns the tokenizer ratio from the reported input tokens (so the
 * next packs stay under the provider's real limit), and persists the answer before
 * anything else happens; then reports its reasoning and captures it for replay.
 */
async function modelStep(
  run: RunContext,
  { step, reporter }: { step: number; reporter: ReasoningReporter },
  signal: AbortSignal | undefined,
): Promise<{ usage: Usage; next: NextStep; paused?: boolean }> {
  const { settings, session, durable } = run;
  const { emit, writer } = session;
  // Summaries finished since the last call are used from this call on; none is waited for.
  // Not while bound reasoning is under way: a new summary would change what it is bound to.
  if (!(settings.pack?.boundReasoning && continuesBoundStep(writer.messages))) {
    await appendFinishedSummaries(session, (lines) => append(run, lines));
  }
  const context = { messages: writer.messages, packState: writer.packState, step };
  const offered = offeredSettings(run);
  const call = () =>
    offered.fallback ? offered.fallback.call(offered, context, emit, signal) : callModel(offered, context, emit, signal);
  // A replayed call (no live result) has nothing to learn from and no pack state to keep.
  const result = durable ? await durable.callModel(step, call) : liveCall(await call());
  const { live } = result;
  // The model that answered (a fallback model after a switch) prices and calibrates its call.
  const used = settings.fallback?.settingsOfModel(settings, result.message.model) ?? settings;
  if (live?.summaryRequest) session.summarizer?.request(live.summaryRequest, { ...settings, messages: writer.messages });
  if (live) {
    // The provider reports what it read after its own edits; what was sent is that plus what it cleared.
    const cleared = (live.message.contextEdits ?? []).reduce((sum, edit) => sum + edit.clearedInputTokens, 0);
    used.tokenizer.calibration.observe(live.countedTokens, live.usage.inputTokens + cleared, live.countedFactor);
  }
  // The cost is fixed at call time with this model's prices, so session totals stay
  // right after a switch to a model with other prices.
  const usage: Usage = used.pricing ? { ...result.usage, costUsd: estimateCost(result.usage, used.pricing) } : result.usage;
  // Named fields first, the rest after: every saved assistant line has its keys in the same order.
  const { role, content, model, usage: _reported, ...extra } = result.message;
  const message = savableAssistantMessage(
    { role, content, model: model ?? used.model.model, usage, ...extra },
    { provider: used.model.model.provider, usedIds: writer.toolCallIds(), step, emit },
  );
  const previous = writer.messages.at(-1);
  await append(run, [message]);
  if (live) await writer.commit(live.state);
  reporter.step(step, message);
  if (settings.replayCache) await captureForReplay(settings, { message, previous, step }, emit);
  const calls = toolCallsOf(message);
  if (pausedAfterCompaction(message)) return { usage: result.usage, next: { type: 'call-model' }, paused: true };
  if (calls.length > 0)
    return { usage: result.usage, next: { type: 'run-tools', message, calls, stopReason: result.stopReason } };
  emit({ type: 'step-finish', step, message, toolResults: [], usage: result.usage, stopReason: result.stopReason });
  return { usage: result.usage, next: { type: 'final', message } };
}

/** A response that holds only the provider's compaction (Anthropic `pause_after_compaction`): no answer yet. */
function pausedAfterCompaction(message: AssistantMessage): boolean {
  return message.content.length > 0 && message.content.every((part) => part.type === 'compaction');
}

async function runTools(
  run: RunContext,
  next: Extract<NextStep, { type: 'run-tools' }>,
  step: number,
  signal: AbortSignal | undefined,
): Promise<{ next: NextStep; results: readonly ToolMessage[] }> {
  const { settings, session, durable, approvals } = run;
  // The reader of cut results runs once it is offered (the model was offered it for this call).
  const offered = offeredSettings(run);
  const batch = { id: session.id, emit: session.emit, approvals };
  const { pending, results, handlerFailure } = await runToolBatch(offered, batch, { calls: next.calls, step }, signal);
  durable?.throwIfFailed();
  if (results.length > 0) await append(run, results);
  await approvals?.answered(results.map((result) => result.toolCallId));
  if (handlerFailure) throw handlerFailure.error;
  if (signal?.aborted) throw new RunAbortedError(signal.reason);
  const { message, stopReason } = next;
  if (pending.length > 0) return { next: { type: 'paused', message, pending }, results };
  const toolResults = resultsOf(session.writer.messages, message);
  session.emit({ type: 'step-finish', step, message, toolResults, usage: message.usage, stopReason });
  const stop = settings.stopWhen({ steps: step, message, toolResults, messages: session.writer.messages });
  return { next: stop ? { type: 'stop', message } : { type: 'call-model' }, results };
}

/**
 * Appends the user message that opens an episode, after error results for the tool
 * calls an interrupted or paused episode left without one, so that a new user message
 * never follows a dangling call (`resume()` runs them instead). Decisions on those
 * calls are spent.
 */
async function startEpisode(run: RunContext, input: UserMessage): Promise<void> {
  // Checked before it is saved: a message no pack can hold would fail every later call of its episode.
  const { messages } = run.session.writer;
  const { system, toolSpecs: tools, budget, tokenizer } = offeredSettings(run);
  checkMessageFits(input, { messages, system, tools, budget, tokenizer });
  const pending = pendingStep(messages);
  const calls = pending?.type === 'run-tools' ? pending.calls : [];
  const unanswered = calls.map((call): ToolMessage => ({
    role: 'tool',
    toolCallId: call.id,
    toolName: call.name,
    content: `Tool "${call.name}" did not run: the episode was interrupted (or waiting for approval) and a new message came first.`,
    isError: true,
  }));
  await append(run, [...unanswered, input]);
  if (unanswered.length > 0) await run.approvals?.answered(unanswered.map((result) => result.toolCallId));
}

/** Appends through the writer (it counts, persists, then takes into memory; see transcript-writer.ts). */
async function append({ session, durable }: RunContext, messages: readonly Message[]): Promise<void> {
  if (!durable) return session.writer.append(messages);
  // A replayed step's messages are stored already: taken into memory, not written twice.
  const { stored, fresh } = durable.replay.match(messages);
  session.writer.take(stored);
  await session.writer.append(fresh);
}

function liveCall(live: ModelCallResult): ModelCallOutcome {
  return { message: live.message, usage: live.usage, stopReason: live.stopReason, live };
}

/**
 * What an interrupted transcript needs next, or undefined when its current episode
 * is finished (it ends with an assistant message whose tool calls all have results,
 * and no tool results after it) or there is nothing to continue.
 * - last assistant message has calls without results: run those;
 * - the transcript ends with a user or tool message: call the model.
 */
export function pendingStep(messages: readonly Message[]): NextStep | undefined {
  const unanswered = unansweredToolCalls(messages);
  if (unanswered) return { type: 'run-tools', ...unanswered, stopReason: undefined };
  return episodeUnfinished(messages) ? { type: 'call-model' } : undefined;
}

/** Assistant messages (model calls) since the episode began (injected user messages do not end it). */
export function stepsInEpisode(messages: readonly Message[]): number {
  let steps = 0;
  for (let index = messages.length - 1; index >= 0; index -= 1) {
    const message = messages[index] as Message;
    if (isEpisodeStart(message)) break;
    if (message.role === 'assistant') steps += 1;
  }
  return steps;
}

function lastAssistant(messages: readonly Message[]): AssistantMessage | undefined {
  for (let index = messages.length - 1; index >= 0; index -= 1) {
    const message = messages[index];
    if (message && isEpisodeStart(message)) return undefined;
    if (message?.role === 'assistant') return message;
  }
  return undefined;
}
