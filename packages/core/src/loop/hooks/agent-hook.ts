/**
 * The hook interface of the agent loop. The loop is a plain spine (pack -> call ->
 * persist -> tools -> decide); what an agent adds to it attaches as a hook, the
 * built-in features (fallback, durable runs, structured answers, the summarizer, the
 * reader of cut results, the replay cache) as much as an application's own
 * (`AgentOptions.hooks`). A hook implements only the phases it needs.
 *
 * The phases an application can use are the ones below. The built-in features also
 * wrap the model call, the tool batch and the append of messages (`LoopHook` in
 * loop-hook.ts); those phases work on the loop's internal settings and are not public.
 */
import type { AssistantMessage, Message, ToolMessage } from '../../message/message.js';
import type { UsageTotals } from '../../model/usage-totals.js';
import type { NextStep } from '../next-step.js';

/** A model step just persisted, as {@link AgentHook.afterStep} sees it. */
export interface HookStep {
  /** The session the step belongs to. */
  readonly sessionId: string;
  /** The step's number in its episode (1 for the first model call). */
  readonly step: number;
  /** The assistant message as it was saved. */
  readonly message: AssistantMessage;
  /** The message before it in the transcript. */
  readonly previous: Message | undefined;
}

/** Where the loop is when {@link AgentHook.decide} is asked. */
export interface HookState {
  /** The session the episode runs in. */
  readonly sessionId: string;
  /** Model calls of the current episode so far (the number of the last step). */
  readonly step: number;
  /** The transcript so far; read it, never change it. */
  readonly messages: readonly Message[];
  /** Usage of this run's model calls so far (`costUsd` when the model has prices). */
  readonly usage: UsageTotals;
  /** The results of the tool batch just run; undefined when no tool batch came just before. */
  readonly results: readonly ToolMessage[] | undefined;
  /** The current episode's last assistant message, if it has one. */
  readonly message: AssistantMessage | undefined;
}

/**
 * A hook of the agent loop (see the module comment). Every phase is optional and may
 * be async; an error thrown by a phase ends the episode as a failed model call would
 * (the transcript stays consistent and persisted).
 */
export interface AgentHook {
  /** Names the hook in errors and traces. */
  readonly name: string;
  /** After each model step is persisted (before its tools run); a replayed durable step counts too. */
  afterStep?(step: HookStep): void | Promise<void>;
  /**
   * Before the loop acts on `next` (after the episode's start, each model step and
   * each tool batch): return another next step to steer the episode, e.g.
   * `{ type: 'stop', message }` to end it as a stop condition would, or undefined to
   * leave `next` as it is. Hooks are asked in order, each with the previous one's answer.
   */
  decide?(next: NextStep, state: HookState): NextStep | undefined | Promise<NextStep | undefined>;
}
