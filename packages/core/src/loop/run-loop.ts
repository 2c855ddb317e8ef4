/**
 * The agent loop as a plain function. One call runs one episode (or finishes an
 * unfinished one): pack, call the model, persist its message, run the tools it asked
 * for, persist their results, and decide the next step, until the model answers
 * without tool calls or a stop condition holds. Everything else (fallback models,
 * durable runs, structured answers, the summarizer, the reader of cut results, the
 * replay cache, an application's own hooks) attaches through the run's hooks
 * (hooks/agent-hook.ts), composed once in run-context.ts.
 *
 * Write-ahead: the assistant message is persisted as soon as the call returns
 * (before its tools run) and the tool results as soon as the last one finishes, so
 * a crash loses at most the call or the tool batch in flight; `pendingStep` tells
 * what an interrupted transcript needs next. Tools may therefore run twice across
 * a crash (at least once, never zero times).
 */
import { RunAbortedError } from '../errors/run-aborted-error.js';
import { savableAssistantMessage } from './checked-message.js';
import { type AssistantMessage, type Message, type ToolMessage, toolCallsOf, type Usage, type UserMessage } from '../message/message.js';
import { callModel } from './model-call.js';
import type { LoopSession, LoopSettings, NextStep } from './loop-types.js';
import { checkMessageFits } from '../packing/message-fits.js';
import { ReasoningReporter } from '../reasoning/stats/reasoning-report.js';
import { resultsOf, runToolBatch } from './tool-batch.js';
import { type EpisodeResult, episodeResult } from './episode-result.js';
import { estimateCost, type UsageTotals } from '../model/usage-totals.js';
import { EpisodeProgress } from './episode-progress.js';
import type { ModelCall, ModelCallOutcome } from './hooks/loop-hook.js';
import { lastAssistant, pendingStep, stepsInEpisode } from './pending-step.js';
import { type RunContext, startRun } from './run-context.js';

export { pendingStep, stepsInEpisode } from './pending-step.js';

type EndStep = Extract<NextStep, { type: 'final' | 'stop' | 'paused' }>;

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
  const { emit, writer } = session;
  const inner = { callModel: callLive, runTools: runToolBatch, append: (messages: readonly Message[]) => writer.append(messages) };
  const run = startRun(loopSettings, session, input, inner);
  const { settings } = run;
  const reporter = new ReasoningReporter(settings.tokenizer, emit, settings.reasoningOutput?.leakCheck);
  const episode = new EpisodeProgress(reporter, settings.pricing);
  emit({ type: 'episode-start', sessionId: session.id, input, resumed: input === undefined, model: settings.model.model });
  for (const notice of session.takeNotices?.() ?? []) emit(notice);
  try {
    if (input) await startEpisode(run, input);
    episode.resumeAt(stepsInEpisode(writer.messages));
    let next: NextStep = pendingStep(writer.messages) ?? { type: 'final', message: lastAssistant(writer.messages) };
    for (;;) {
      next = await decide(run, next, episode);
      if (next.type === 'call-model') next = await modelStep(run, episode, signal);
      else if (next.type === 'run-tools') next = await runTools(run, next, episode, signal);
      else return await finishEpisode(run, next, episode);
    }
  } catch (error) {
    throw failedEpisode(run, error, { signal, usage: episode.usage, reporter });
  }
}

/** The next step as the run's hooks leave it (structured-answer feedback, a durable wait, an application's stop). */
async function decide(run: RunContext, next: NextStep, episode: EpisodeProgress): Promise<NextStep> {
  const { hooks, session } = run;
  const results = episode.takeResults();
  if (!hooks.decides) return next;
  const { messages } = session.writer;
  const message = lastAssistant(messages);
  const state = { sessionId: session.id, step: episode.step, messages, usage: episode.usage, results, message, append: hooks.append };
  return hooks.decide(next, state);
}

/** Ends the episode at `next`: the hooks finish (summaries, the structured answer), then it reports and returns its result. */
async function finishEpisode(run: RunContext, next: EndStep, episode: EpisodeProgress): Promise<EpisodeResult<unknown>> {
  const { session, hooks } = run;
  const { emit, writer } = session;
  const settings = hooks.settings(run.settings, writer.messages);
  const output = await hooks.finish({ next, settings, messages: writer.messages, append: hooks.append, emit });
  const { usage } = episode;
  const outcome = { message: next.message, steps: episode.calls, usage, reasoning: episode.reporter.finish(), output };
  const result = episodeResult(next, outcome);
  emit({ type: 'episode-finish', reason: result.reason, message: next.message, usage, output: outcome.output });
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
 * Calls the model through the hooks, learns the tokenizer ratio from the reported
 * input tokens (so the next packs stay under the provider's real limit), and persists
 * the answer before anything else happens; then reports its reasoning.
 */
async function modelStep(run: RunContext, episode: EpisodeProgress, signal: AbortSignal | undefined): Promise<NextStep> {
  const { settings, session, hooks } = run;
  const { emit, writer } = session;
  const step = episode.nextStep();
  const { checkpoints } = session;
  const call = { step, messages: writer.messages, packState: writer.packState, emit, signal, append: hooks.append, checkpoints };
  const outcome = await hooks.callModel(hooks.settings(settings, writer.messages), call);
  // The model that answered (a fallback model after a switch) prices and calibrates its call.
  const used = outcome.answeredWith ?? settings;
  const { live } = outcome;
  if (live) {
    // The provider reports what it read after its own edits; what was sent is that plus what it cleared.
    const cleared = (live.message.contextEdits ?? []).reduce((sum, edit) => sum + edit.clearedInputTokens, 0);
    used.tokenizer.calibration.observe(live.countedTokens, live.usage.inputTokens + cleared, live.countedFactor);
  }
  const message = savedMessage(outcome, used, { step, emit, usedIds: writer.toolCallIds() });
  const previous = writer.messages.at(-1);
  await hooks.append([message]);
  if (live) await writer.commit(live.state);
  episode.reporter.step(step, message);
  await hooks.afterStep({ sessionId: session.id, step, message, previous });
  // A response paused after the provider compacted is recorded; the same step goes on.
  const paused = pausedAfterCompaction(message);
  episode.called(outcome.usage, paused);
  if (paused) return { type: 'call-model' };
  const calls = toolCallsOf(message);
  if (calls.length > 0) return { type: 'run-tools', message, calls, stopReason: outcome.stopReason };
  emit({ type: 'step-finish', step, message, toolResults: [], usage: outcome.usage, stopReason: outcome.stopReason });
  return { type: 'final', message };
}

/**
 * The assistant message as it is saved: its cost fixed at call time with the prices of
 * the model that answered (so session totals stay right after a switch to a model with
 * other prices), checked against the transcript format, with tool-call ids made unique.
 */
function savedMessage(
  outcome: ModelCallOutcome,
  used: LoopSettings,
  context: { step: number; emit: LoopSession['emit']; usedIds: ReadonlySet<string> },
): AssistantMessage {
  const usage: Usage = used.pricing ? { ...outcome.usage, costUsd: estimateCost(outcome.usage, used.pricing) } : outcome.usage;
  // Named fields first, the rest after: every saved assistant line has its keys in the same order.
  const { role, content, model, usage: _reported, ...extra } = outcome.message;
  return savableAssistantMessage(
    { role, content, model: model ?? used.model.model, usage, ...extra },
    { provider: used.model.model.provider, ...context },
  );
}

/** A response that holds only the provider's compaction (Anthropic `pause_after_compaction`): no answer yet. */
function pausedAfterCompaction(message: AssistantMessage): boolean {
  return message.content.length > 0 && message.content.every((part) => part.type === 'compaction');
}

/** Runs the step's tool calls through the hooks, persists their results, and decides what comes next. */
async function runTools(
  run: RunContext,
  next: Extract<NextStep, { type: 'run-tools' }>,
  episode: EpisodeProgress,
  signal: AbortSignal | undefined,
): Promise<NextStep> {
  const { settings, session, hooks } = run;
  const { approvals, writer } = session;
  const { step } = episode;
  const batch = { id: session.id, emit: session.emit, approvals };
  const offered = hooks.settings(settings, writer.messages);
  const { pending, results, handlerFailure } = await hooks.runTools(offered, batch, { calls: next.calls, step }, signal);
  if (results.length > 0) await hooks.append(results);
  await approvals?.answered(results.map((result) => result.toolCallId));
  if (handlerFailure) throw handlerFailure.error;
  if (signal?.aborted) throw new RunAbortedError(signal.reason);
  episode.toolsRan(results);
  const { message, stopReason } = next;
  if (pending.length > 0) return { type: 'paused', message, pending };
  const toolResults = resultsOf(writer.messages, message);
  session.emit({ type: 'step-finish', step, message, toolResults, usage: message.usage, stopReason });
  const stop = settings.stopWhen({ steps: step, message, toolResults, messages: writer.messages });
  return stop ? { type: 'stop', message } : { type: 'call-model' };
}

/**
 * Appends the user message that opens an episode, after error results for the tool
 * calls an interrupted or paused episode left without one, so that a new user message
 * never follows a dangling call (`resume()` runs them instead). Decisions on those
 * calls are spent.
 */
async function startEpisode(run: RunContext, input: UserMessage): Promise<void> {
  // Checked before it is saved: a message no pack can hold would fail every later call of its episode.
  const { session, hooks } = run;
  const { messages } = session.writer;
  const settings = hooks.settings(run.settings, messages);
  const { system, toolSpecs: tools, budget, tokenizer } = settings;
  checkMessageFits(input, { messages, system, tools, budget, tokenizer });
  await hooks.atUserBoundary({ settings, messages, append: hooks.append, emit: session.emit });
  const pending = pendingStep(messages);
  const calls = pending?.type === 'run-tools' ? pending.calls : [];
  const unanswered = calls.map((call): ToolMessage => ({
    role: 'tool',
    toolCallId: call.id,
    toolName: call.name,
    content: `Tool "${call.name}" did not run: the episode was interrupted (or waiting for approval) and a new message came first.`,
    isError: true,
  }));
  await hooks.append([...unanswered, input]);
  if (unanswered.length > 0) await session.approvals?.answered(unanswered.map((result) => result.toolCallId));
}

/** The loop's own model call: packs and calls the model in this process (the innermost of the hooks' wrappers). */
const callLive: ModelCall = async (settings, { messages, packState, step, emit, signal, checkpoints }) => {
  const live = await callModel(settings, { messages, packState, step, checkpoints }, emit, signal);
  return { message: live.message, usage: live.usage, stopReason: live.stopReason, live };
};
