/**
 * What one run of the loop works with, built once when the run starts and only read
 * after: the run's settings, the session it runs on, and its hooks: the application's
 * (`AgentOptions.hooks`), then the built-in features the settings ask for, composed
 * around the loop's own steps. The loop never assigns to the session or settings it is
 * handed; what a run adds lives in its hooks.
 */
import type { Message, UserMessage } from '../message/message.js';
import { cutResultHook } from './cut-results/cut-result-offer.js';
import { durableHook } from './durable/durable-hook.js';
import { fallbackHooks } from './fallback/fallback-hook.js';
import { HookChain, type InnerSteps } from './hooks/hook-chain.js';
import type { AgentHook } from './hooks/agent-hook.js';
import type { LoopHook } from './hooks/loop-hook.js';
import type { LoopSession, LoopSettings } from './loop-types.js';
import { reasoningOutputHook } from './reasoning-output/reasoning-output-hook.js';
import { replayCaptureHook } from './replay-cache/replay-capture-hook.js';
import { answerHook } from './structured-output/answer-hook.js';
import { summarizerHook } from './summarizer/summarizer-hook.js';
import { onDemandHook } from './on-demand/on-demand-hook.js';
import { DurableCompactions } from './on-demand/on-demand-durable.js';

/** One run's context (see the module comment). */
export interface RunContext {
  readonly settings: LoopSettings;
  readonly session: LoopSession;
  readonly hooks: HookChain;
}

/**
 * The context of a run of `session` for `input` (undefined: a resumed episode), its
 * hooks around `inner`. A durable run rewinds the session to the episode's start here.
 */
export function startRun(
  settings: LoopSettings,
  session: LoopSession,
  input: UserMessage | undefined,
  inner: InnerSteps,
): RunContext {
  return { settings, session, hooks: new HookChain(runHooks(settings, session, input), inner) };
}

/**
 * The run's hooks in order: the first one's wrappers are the outermost. The
 * application's come first (they see every step, replayed ones too); a durable run's
 * hook records what the hooks after it do as its steps (the fallback walk).
 */
export function runHooks(settings: LoopSettings, session: LoopSession, input: UserMessage | undefined): LoopHook[] {
  const messages = (): readonly Message[] => session.writer.messages;
  const fallback = settings.fallback && fallbackHooks(settings.fallback);
  const hooks: (LoopHook | undefined)[] = [
    ...(settings.hooks ?? []).map(applicationHook),
    (session.summarizer || session.checkpoints) && summarizerHook(session),
    session.compactor && onDemandHook(session.compactor, durableCompactions(settings, session)),
    settings.output && answerHook(settings.output),
    settings.replayCache && replayCaptureHook(settings, session.emit),
    cutResultHook(settings, messages),
    fallback?.prices,
    settings.durable && durableHook(settings.durable, settings, session, input),
    fallback?.models,
    reasoningOutputHook(settings.reasoningOutput),
  ];
  return hooks.filter((hook): hook is LoopHook => hook !== undefined);
}

/** A durable run's on-demand compactions: steps of its journal, not the session's compactor. */
function durableCompactions(settings: LoopSettings, session: LoopSession): DurableCompactions | undefined {
  const { durable } = settings;
  return durable && session.compactor && new DurableCompactions(session.compactor.options, durable, session.id);
}

/** An application's hook with its public phases only: a field of another name is never called. */
function applicationHook(hook: AgentHook): LoopHook {
  const { afterStep, decide } = hook;
  return {
    name: hook.name,
    ...(afterStep ? { afterStep: (step) => afterStep.call(hook, step) } : {}),
    // The state without the loop's own `append`: an application steers with the next step only.
    ...(decide ? { decide: (next, { append: _append, ...state }) => decide.call(hook, next, state) } : {}),
  };
}
