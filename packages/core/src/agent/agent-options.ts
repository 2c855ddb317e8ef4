/**
 * The options of an `Agent`, grouped by what they steer: the context the model reads,
 * its reasoning, the tool calls, the model calls. A group reads as the question it
 * answers (`context.budget`: how many tokens the context may take), and a newcomer
 * looking for a knob finds it among a few fields, not twenty-five. The flat names of
 * the previous release still work for one release (see agent-options-compat.ts).
 */
import type { ApprovalPolicy } from '../loop/approvals.js';
import type { SummarizerOptions } from '../loop/summarizer/background-summarizer.js';
import type { RetryOptions } from '../loop/model-call.js';
import type { FallbackModel, FallbackOptions } from '../loop/fallback/model-fallback.js';
import type { StopCondition } from '../loop/stop-conditions.js';
import type { AgentTool } from '../loop/tool.js';
import type { Message } from '../message/message.js';
import type { Retention } from '../message/retention.js';
import type { ModelAdapter } from '../model/model-adapter.js';
import type { ContextPolicy, DeprecatedContextPolicy, NativeContextOptions } from '../model/native-context.js';
import type { PackTuning } from '../packing/pack-types.js';
import type { HandoffOptions } from '../reasoning/handoff/handoff-note.js';
import type { ReasoningOutputOptions } from '../reasoning/output/reasoning-output.js';
import type { ReplayCache } from '../reasoning/replay-cache/replay-cache.js';
import type { SessionStore } from '../store/session-store.js';
import type { PersistReasoning } from '../store/reasoning-sidecar.js';
import type { TokenCounter } from '../tokens/token-counter.js';
import type { CutResults } from './agent-cut-results.js';
import type { AgentHook } from '../loop/hooks/agent-hook.js';

/** What the model reads on each call, and who decides it: {@link AgentOptions.context}. */
export interface ContextOptions {
  /**
   * Who manages the context: the packer alone (`packer`), the provider's own context
   * management (`native`), or both (`hybrid`: the packer packs, the provider compacts
   * past its threshold). See `ContextPolicy`. Default: the profile's `contextPolicy`, else `packer`.
   */
  policy?: ContextPolicy | DeprecatedContextPolicy | undefined;
  /**
   * Max input tokens per model call. Default: the profile's context window minus
   * its max output tokens (or `modelCalls.maxOutputTokens` when given).
   */
  budget?: number | undefined;
  /**
   * Which reasoning goes back to the model. Default: `all` under the `native` context
   * policy (the provider decides what the model reads), else the profile's retention,
   * else `episode`.
   */
  retention?: Retention | undefined;
  /**
   * Settings of the provider's own context management (reasoning context, context
   * editing, compaction), merged over the profile's `nativeContext`; sent as the
   * `policy` allows (`native` all of them, `hybrid` compaction only, `packer` none; an
   * option given here that the policy does not send gets a `native-option-not-sent` warning).
   */
  native?: NativeContextOptions | undefined;
  /** Further packing knobs (low-water mark, head share, tool-result caps). */
  pack?: PackTuning | undefined;
  /**
   * What the model can do about a tool result the packer shortened to its cap.
   * `readable` (default): the marker in the middle of the shortened result says which
   * characters were cut and how to read them with the built-in `read_cut_result` tool,
   * which the model is offered from the first call whose transcript holds a result over
   * the cap (agents whose results are never cut see no extra tool). `cut`: the marker
   * only says how much was cut, and there is no reader. There is none either where the
   * cap leaves a read under 256 tokens (budgets under about 7,500 tokens with the
   * default caps). `pack.resultReader` renames the reader.
   */
  cutResults?: CutResults | undefined;
  /**
   * Summaries of evicted episodes: when the packer evicts episodes, a summary of them
   * is written in the background (`model`, default this agent's; a cheaper one does
   * fine), saved as a summary line of the transcript and sent from the next call on,
   * in place of the evicted episodes. No call waits for it. Default: off.
   */
  summarizer?: SummarizerOptions | undefined;
  /**
   * Counter for the packer. Its calibration learns this model's tokenizer from the
   * reported usage; default o200k_base, calibrated from the profile's `tokenizerFactor`.
   */
  tokenizer?: TokenCounter | undefined;
}

/** What happens to the model's reasoning: {@link AgentOptions.reasoning}. */
export interface ReasoningOptions {
  /**
   * Cross-model hand-off, the default of {@link SessionOptions.handoff} for this
   * agent's sessions: when a call goes to another model than the one that reasoned
   * earlier in the current episode, that reasoning is quoted as a framed note in the
   * call's system prompt. Default off.
   */
  handoff?: boolean | HandoffOptions | undefined;
  /** Where reasoning is kept, the default of {@link SessionOptions.persistReasoning}. Default `always`. */
  persist?: PersistReasoning | undefined;
  /**
   * Controls on what the model streams (see `ReasoningOutputOptions`): a reasoning cap
   * for models without a native thinking budget (the stream is stopped and the answer
   * asked for), echo suppression for servers that repeat deltas, and the leak check's
   * settings. Applies to the fallback models too. Default: no cap, no suppression,
   * the leak check with its defaults.
   */
  output?: ReasoningOutputOptions | undefined;
  /**
   * Captures the reasoning of every answer, and restores it into histories that lack
   * it (a `history` passed to `session()`, or a stored transcript). Default: none.
   */
  replayCache?: ReplayCache | undefined;
}

/** How the tools the model calls are run: {@link AgentOptions.toolCalls}. */
export interface ToolCallOptions {
  /** Tool calls running at the same time. Default 4. */
  maxConcurrency?: number | undefined;
  /** Timeout of a tool call when the tool sets none, in ms (`Infinity` for none). Default 120,000. */
  timeoutMs?: number | undefined;
  /**
   * Decides calls of tools that need approval before a person is asked (e.g.
   * `autoApprove` in tests); when it returns undefined the episode pauses. Default:
   * every such call waits for `session.approve()` / `reject()`.
   */
  approvalPolicy?: ApprovalPolicy | undefined;
}

/** What every call to the model is sent with, and what happens when one fails: {@link AgentOptions.modelCalls}. */
export interface ModelCallOptions {
  /** Sent with every call; default the profile's. */
  maxOutputTokens?: number | undefined;
  /** Retries of a failed call (attempts, backoff, the longest wait on a rate limit). */
  retry?: RetryOptions | undefined;
  /** Passed to the adapter with every call. */
  providerOptions?: Record<string, unknown> | undefined;
  /**
   * Models to fail over to when `model` fails a step with an error worth it (overload,
   * server error or dropped connection after the retries, a rate limit waiting past
   * `maxRetryWaitMs`, model not found): the step is retried on the next one, the
   * switch is recorded on the step (`AssistantMessage.fallback`), and the model taking
   * over gets the current episode's reasoning as a hand-off note. An array is the
   * models in order. See `FallbackOptions`. Default: none.
   */
  fallback?: readonly (ModelAdapter | FallbackModel)[] | FallbackOptions | undefined;
}

/**
 * Options of {@link Agent}: the model, its prompt and tools, where sessions are kept,
 * and one group per concern (`context`, `reasoning`, `toolCalls`, `modelCalls`).
 * The flat fields it extends are the previous release's names, deprecated.
 */
export interface AgentOptions extends DeprecatedAgentOptions {
  /** The model every call goes to (an adapter of `@episodic/providers`, or your own). */
  model: ModelAdapter;
  /** The system prompt. */
  system?: string | undefined;
  /** The tools the model may call; each needs its own `spec.name`. */
  tools?: readonly AgentTool[] | undefined;
  /** Where sessions are kept when `session()` is not given a store. Default: in memory. */
  store?: SessionStore | undefined;
  /**
   * What the model reads: the context policy, the token budget, reasoning retention,
   * the provider's own context management, packing knobs, cut tool results, summaries
   * of evicted episodes, the token counter. See {@link ContextOptions}.
   *
   * The string form (`context: 'native'`) is the previous release's, deprecated: use
   * `context: { policy: 'native' }`.
   */
  context?: ContextOptions | ContextPolicy | DeprecatedContextPolicy | undefined;
  /** Reasoning hand-off, where reasoning is kept, stream controls, the replay cache. See {@link ReasoningOptions}. */
  reasoning?: ReasoningOptions | undefined;
  /** Concurrency, timeout and approval of tool calls. See {@link ToolCallOptions}. */
  toolCalls?: ToolCallOptions | undefined;
  /** Max output tokens, retries, provider options and fallback models of model calls. See {@link ModelCallOptions}. */
  modelCalls?: ModelCallOptions | undefined;
  /** When to stop an episode that keeps calling tools. An array means any of them. Default `maxSteps(50)`. */
  stopWhen?: StopCondition | readonly StopCondition[] | undefined;
  /**
   * Secret values to keep out of tool results and error messages (replaced with
   * `[redacted]` before anything is saved or emitted), besides the two sets always
   * kept out: the API keys of every model the agent holds (`model`, the fallback
   * models, the summarizer's model, the models of agents it calls through `asTool()`
   * tools and of agents that call it), and the values of environment variables whose
   * names look like keys, tokens, secrets or passwords (read when a session opens).
   * Values shorter than 8 characters are ignored.
   */
  secrets?: readonly string[] | undefined;
  /**
   * Hooks of the agent loop, asked in order before the built-in features' (see
   * `AgentHook`): e.g. one that ends an episode once its cost passes a limit, or one
   * that logs each step. Default: none.
   */
  hooks?: readonly AgentHook[] | undefined;
}

/** The flat option names of the previous release; each says where it moved. */
export interface DeprecatedAgentOptions {
  /** @deprecated Use `context.budget`. */
  budget?: number | undefined;
  /** @deprecated Use `context.retention`. */
  retention?: Retention | undefined;
  /** @deprecated Use `context.native`. */
  nativeContext?: NativeContextOptions | undefined;
  /** @deprecated Use `context.pack`. */
  pack?: PackTuning | undefined;
  /** @deprecated Use `context.cutResults`. */
  cutResults?: CutResults | undefined;
  /** @deprecated Use `context.summarizer`. */
  summarizer?: SummarizerOptions | undefined;
  /** @deprecated Use `context.tokenizer`. */
  tokenizer?: TokenCounter | undefined;
  /** @deprecated Use `reasoning.handoff`. */
  handoff?: boolean | HandoffOptions | undefined;
  /** @deprecated Use `reasoning.persist`. */
  persistReasoning?: PersistReasoning | undefined;
  /** @deprecated Use `reasoning.output`. */
  reasoningOutput?: ReasoningOutputOptions | undefined;
  /** @deprecated Use `reasoning.replayCache`. */
  replayCache?: ReplayCache | undefined;
  /** @deprecated Use `toolCalls.maxConcurrency`. */
  maxConcurrency?: number | undefined;
  /** @deprecated Use `toolCalls.timeoutMs`. */
  toolTimeoutMs?: number | undefined;
  /** @deprecated Use `toolCalls.approvalPolicy`. */
  approvalPolicy?: ApprovalPolicy | undefined;
  /** @deprecated Use `modelCalls.maxOutputTokens`. */
  maxOutputTokens?: number | undefined;
  /** @deprecated Use `modelCalls.retry`. */
  retry?: RetryOptions | undefined;
  /** @deprecated Use `modelCalls.providerOptions`. */
  providerOptions?: Record<string, unknown> | undefined;
  /** @deprecated Use `modelCalls.fallback`. */
  fallback?: readonly (ModelAdapter | FallbackModel)[] | FallbackOptions | undefined;
}

/** Options of {@link Agent.session}. */
export interface SessionOptions {
  /** Loads the session if the store has it. Default: a new random id. */
  id?: string | undefined;
  store?: SessionStore | undefined;
  /**
   * The conversation so far, for a new session whose history the application keeps
   * (e.g. a chat UI that stores only visible messages). It is persisted as the
   * session's start; the agent's replay cache restores reasoning it lacks.
   */
  history?: readonly Message[] | undefined;
  /**
   * Cross-model hand-off: when a call goes to another model than the one that
   * reasoned earlier in the current episode, that reasoning (the last `maxTraces`
   * traces, within `maxTokens`) is quoted as a framed note in the call's system
   * prompt. `true` uses the defaults (3 traces, 2,000 tokens). Default: the agent's
   * `reasoning.handoff`, else off.
   */
  handoff?: boolean | HandoffOptions | undefined;
  /**
   * `always` (default): reasoning is persisted in the transcript. `current-episode`:
   * only the current episode's reasoning is persisted, in a sidecar the store deletes
   * when the episode ends (the transcript never holds reasoning). Models that need
   * past reasoning back (`tool-episodes` retention) then warn on load. Default: the
   * agent's `reasoning.persist`, else `always`.
   */
  persistReasoning?: PersistReasoning | undefined;
}
