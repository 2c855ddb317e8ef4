/**
 * The types the step loop shares with its helpers (tool batches, structured output,
 * episode results) and with the session that drives it. They live apart from
 * `run-loop.ts` so that those helpers need not import the loop itself.
 */
import type { ApprovalPolicy, LoopApprovals } from './approvals.js';
import type { AgentEvent, AgentEventHandler } from './agent-events.js';
import type { ModelCallSettings } from './model-call.js';
import type { Pricing } from '../model/model-profile.js';
import type { ReplayCache } from '../reasoning/replay-cache/replay-cache.js';
import type { BackgroundSummarizer, SummarizerOptions } from './summarizer/background-summarizer.js';
import type { OnDemandCompactionSettings, OnDemandCompactor } from './on-demand/on-demand-compaction.js';
import type { StopCondition } from './stop-conditions.js';
import type { CheckpointSummarizer } from './checkpoints/checkpoint-summaries.js';
import type { AgentTool } from './tool.js';
import type { JsonSchema } from '../support/json-schema.js';
import type { StandardSchemaV1 } from '../support/standard-schema.js';
import type { DurableRun } from './durable/durable-runtime.js';
import type { TranscriptWriter } from './transcript-writer.js';
import type { FallbackChain } from './fallback/model-fallback.js';
import type { AgentHook } from './hooks/agent-hook.js';
import type { ReasoningOutputOptions } from '../reasoning/output/reasoning-output.js';

/** Everything the loop needs that does not change between episodes. */
export interface LoopSettings extends ModelCallSettings {
  tools: ReadonlyMap<string, AgentTool>;
  stopWhen: StopCondition;
  maxConcurrency: number | undefined;
  toolTimeoutMs: number | undefined;
  /** Prices for the cost estimate, usually from the adapter's profile. */
  pricing: Pricing | undefined;
  /** Captures the reasoning of every answer for histories that come back without it; off when undefined. */
  replayCache?: ReplayCache | undefined;
  /** Decides calls that need approval before a person is asked; undefined asks for all of them. */
  approvalPolicy?: ApprovalPolicy | undefined;
  /** The structured answer this run must give (see `withOutput`); none when undefined. */
  output?: OutputSettings | undefined;
  /** Summaries of evicted episodes, written in the background by each session; off when undefined. */
  summarizer?: SummarizerOptions | undefined;
  /** On-demand compaction (see on-demand-compaction.ts), run by each session; off when undefined. */
  onDemandCompaction?: OnDemandCompactionSettings | undefined;
  /** Runs the episode on a durable runtime (see durable/durable-runtime.ts); today's loop when undefined. */
  durable?: DurableRun | undefined;
  /** Models to fail over to (see fallback/model-fallback.ts); none when undefined. */
  fallback?: FallbackChain | undefined;
  /** Controls on what the model streams (reasoning cap, echo suppression) and the leak check's settings; defaults when undefined. */
  reasoningOutput?: ReasoningOutputOptions | undefined;
  /** The application's hooks (`AgentOptions.hooks`), run before the built-in features'. */
  hooks?: readonly AgentHook[] | undefined;
}

/** The session side of a run: the writer of its transcript, where events go. The loop reads it, never assigns to it. */
export interface LoopSession {
  id: string;
  /** The transcript and its one writer for this run: the loop reads and appends through it only. */
  writer: TranscriptWriter;
  emit: AgentEventHandler;
  /** Takes the events about the session itself (load warnings, restored reasoning) not yet emitted; emitted after `episode-start`. */
  takeNotices?: () => readonly AgentEvent[];
  /** Decisions on calls that need approval; without it such calls wait for the policy only. */
  approvals?: LoopApprovals;
  /** Writes summaries of evicted episodes in the background; off when undefined. */
  summarizer?: BackgroundSummarizer | undefined;
  /** Compacts the transcript on demand at user boundaries; off when undefined. */
  compactor?: OnDemandCompactor | undefined;
  /** Writes the text summaries of opaque compactions (portable checkpoints); none when undefined. */
  checkpoints?: CheckpointSummarizer | undefined;
}

export type { NextStep } from './next-step.js';

/** What a run that asks for a structured answer needs. */
export interface OutputSettings {
  schema: StandardSchemaV1;
  jsonSchema: JsonSchema;
  mode: 'native' | 'tool';
  retries: number;
}
