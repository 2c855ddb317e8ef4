/**
 * The phases of a hook that only the loop's own features use: they work on the
 * loop's internal settings (`LoopSettings`), so they are not public. Each is a
 * middleware (it gets the next function of its kind and returns one in its place) or
 * a step of the episode's end. The spine composes them once per run (hook-chain.ts).
 */
import type { AgentEventHandler } from '../agent-events.js';
import type { LoopApprovals } from '../approvals.js';
import type { AssistantMessage, Message, ToolCallPart, Usage } from '../../message/message.js';
import type { StopReason } from '../../model/model-adapter.js';
import type { PackState } from '../../packing/pack-types.js';
import type { LoopSettings, NextStep } from '../loop-types.js';
import type { ModelCallResult } from '../model-call.js';
import type { ToolBatch } from '../tool-batch.js';
import type { CheckpointSummarizer } from '../checkpoints/checkpoint-summaries.js';
import type { AgentHook, HookState } from './agent-hook.js';

/** One model call of a step: what it is made on. */
export interface ModelCallInput {
  step: number;
  /** The transcript (the writer's array: it grows as the loop appends). */
  messages: readonly Message[];
  packState: PackState | undefined;
  emit: AgentEventHandler;
  signal: AbortSignal | undefined;
  /** The run's append, for what joins the transcript before the call (a finished summary). */
  append: Append;
  /** Writes the text summaries of opaque compactions that a call to another model may need (portable checkpoints). */
  checkpoints?: CheckpointSummarizer | undefined;
}

/** What a model call's step records: the message the loop appends, and what it is told about the call. */
export interface RecordedModelCall {
  message: AssistantMessage;
  usage: Usage;
  stopReason: StopReason;
}

/** A model call as the loop sees it: the recorded part, and the live result when the call ran in this process. */
export interface ModelCallOutcome extends RecordedModelCall {
  live: ModelCallResult | undefined;
  /** The settings of the model that answered when not the run's (a fallback model): they price and check its message. */
  answeredWith?: LoopSettings | undefined;
}

/** Makes a step's model call with `settings`. */
export type ModelCall = (settings: LoopSettings, call: ModelCallInput) => Promise<ModelCallOutcome>;

/** Who a tool batch runs for: its session and the decisions on calls that need approval. */
export interface BatchSession {
  id: string;
  emit: AgentEventHandler;
  approvals: LoopApprovals | undefined;
}

/** Runs one step's tool calls (tool-batch.ts); never throws for a tool's failure. */
export type ToolBatchRun = (
  settings: LoopSettings,
  session: BatchSession,
  next: { calls: readonly ToolCallPart[]; step: number },
  signal: AbortSignal | undefined,
) => Promise<ToolBatch>;

/** Persists messages after the transcript (transcript-writer.ts). */
export type Append = (messages: readonly Message[]) => Promise<void>;

/** What {@link LoopHook.decide} gets besides the public state: the append of the run. */
export interface LoopHookState extends HookState {
  /** Appends messages (an injected user message, a summary line) before the next step runs. */
  append: Append;
}

/** A user boundary (before a new episode's user message is saved, or an episode's end), as the hooks see it. */
export interface UserBoundary {
  /** The settings of a model call on `messages`. */
  settings: LoopSettings;
  messages: readonly Message[];
  append: Append;
  emit: AgentEventHandler;
}

/** The episode's end, as {@link LoopHook.finish} sees it. */
export interface EpisodeEnd extends UserBoundary {
  next: Extract<NextStep, { type: 'final' | 'stop' | 'paused' }>;
}

/** A hook of the loop's own features: {@link AgentHook} and the phases on the loop's settings. */
export interface LoopHook extends AgentHook {
  /**
   * The settings of a model call or tool batch (and of the check that a new input
   * fits) on `messages`. Return `settings` itself when nothing changes, and the same
   * object for the same input: the calls of a session share their settings' prefix.
   */
  settings?(settings: LoopSettings, messages: readonly Message[]): LoopSettings;
  /** Wraps the step's model call; the first hook's wrapper is the outermost. */
  wrapModelCall?(next: ModelCall): ModelCall;
  /** Wraps the run of a tool batch. */
  wrapToolBatch?(next: ToolBatchRun): ToolBatchRun;
  /** Wraps the append of messages to the transcript. */
  wrapAppend?(next: Append): Append;
  decide?(next: NextStep, state: LoopHookState): NextStep | undefined | Promise<NextStep | undefined>;
  /** Before a new episode's user message is saved (after the check that it fits). */
  atUserBoundary?(boundary: UserBoundary): Promise<void>;
  /** At the episode's end, before its result is made: the structured answer, when the hook has one. */
  finish?(end: EpisodeEnd): Promise<{ output?: unknown } | undefined>;
}
