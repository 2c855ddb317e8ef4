/**
 * `Agent`: a model adapter, a system prompt, tools, packing settings and stop
 * conditions. It holds no conversation; `agent.session()` opens one, and `agent.run()`
 * answers one input in a session of its own.
 */
import { Calibration } from '../tokens/calibration.js';
import { InvalidArgumentError } from '../errors/input-errors.js';
import { MemorySessionStore } from '../store/memory-session-store.js';
import type { StandardSchemaV1 } from '../support/standard-schema.js';
import { type AgentToolOptions, agentTool, type DEFAULT_AGENT_TOOL_INPUT } from './agent-tool.js';
import type { ApprovalPolicy } from '../loop/approvals.js';
import type { Message } from '../message/message.js';
import type { ModelAdapter } from '../model/model-adapter.js';
import { type ContextPolicy, type NativeContextOptions, nativeOptionsFor } from '../model/native-context.js';
import { defaultPackingForProfile } from '../packing/profile-packing.js';
import type { SummarizerOptions } from '../loop/summarizer/background-summarizer.js';
import type { RetryOptions } from '../loop/model-call.js';
import type { PackTuning } from '../packing/pack-types.js';
import type { Retention } from '../message/retention.js';
import type { HandoffOptions } from '../reasoning/handoff/handoff-note.js';
import type { ReplayCache } from '../reasoning/replay-cache/replay-cache.js';
import type { PersistReasoning } from '../store/reasoning-sidecar.js';
import type { LoopSettings } from '../loop/loop-types.js';
import type { AgentHook } from '../loop/hooks/agent-hook.js';
import { AgentSession } from './session.js';
import type { OutputOf, RunOptions, Session, SessionInput } from './session-contract.js';
import type { EpisodeResult } from '../loop/episode-result.js';
import { SessionApprovals } from './session-approvals.js';
import { openSession } from './session-open.js';
import { SessionSettings } from './session-settings.js';
import type { SessionStore } from '../store/session-store.js';
import { agentSecrets, markSubAgent, registerAgent } from './agent-secrets.js';
import { anyOf, maxSteps, type StopCondition } from '../loop/stop-conditions.js';
import { createTokenCounter, type TokenCounter } from '../tokens/token-counter.js';
import type { AgentTool } from '../loop/tool.js';
import { toolsByName } from '../loop/tool-executor.js';
import { checkReaderName, type CutResults, packingWithReader } from './agent-cut-results.js';
import { FallbackChain, type FallbackModel, type FallbackOptions } from '../loop/fallback/model-fallback.js';
import { budgetWarnings, hybridWarnings } from './agent-warnings.js';
import { checkReasoningOutput, type ReasoningOutputOptions } from '../reasoning/output/reasoning-output.js';

/** Steps per episode when no `stopWhen` is given: a guard against a model that never stops calling tools. */
const DEFAULT_MAX_STEPS = 50;

/** Options of {@link Agent}: the model, its prompt and tools, and how the loop packs, stops, retries and persists. */
export interface AgentOptions {
  model: ModelAdapter;
  system?: string | undefined;
  tools?: readonly AgentTool[] | undefined;
  /**
   * Max input tokens per model call. Default: the profile's context window minus
   * its max output tokens (or `maxOutputTokens` when given).
   */
  budget?: number | undefined;
  /**
   * Which reasoning goes back to the model. Default: `all` under the `native` context
   * policy (the provider decides what the model reads), else the profile's retention,
   * else `episode`.
   */
  retention?: Retention | undefined;
  /**
   * Who manages the context: the packer (`episodic`), the provider's own context
   * management (`native`), or both (`hybrid`: the packer packs, the provider compacts
   * past its threshold). See `ContextPolicy`. Default: the profile's `contextPolicy`, else `episodic`.
   */
  context?: ContextPolicy | undefined;
  /**
   * Settings of the provider's own context management (reasoning context, context
   * editing, compaction), merged over the profile's `nativeContext`; sent as the
   * `context` policy allows.
   */
  nativeContext?: NativeContextOptions | undefined;
  /** When to stop an episode that keeps calling tools. An array means any of them. Default `maxSteps(50)`. */
  stopWhen?: StopCondition | readonly StopCondition[] | undefined;
  /** Tool calls running at the same time. Default 4. */
  maxConcurrency?: number | undefined;
  /** Timeout of a tool call when the tool sets none, in ms (`Infinity` for none). Default 120,000. */
  toolTimeoutMs?: number | undefined;
  /** Sent with every call; default the profile's. */
  maxOutputTokens?: number | undefined;
  retry?: RetryOptions | undefined;
  /**
   * Counter for the packer. Its calibration learns this model's tokenizer from the
   * reported usage; default o200k_base, calibrated from the profile's `tokenizerFactor`.
   */
  tokenizer?: TokenCounter | undefined;
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
  /** Passed to the adapter with every call. */
  providerOptions?: Record<string, unknown> | undefined;
  /** Where sessions are kept when `session()` is not given a store. Default: in memory. */
  store?: SessionStore | undefined;
  /**
   * Captures the reasoning of every answer, and restores it into histories that lack
   * it (a `history` passed to `session()`, or a stored transcript). Default: none.
   */
  replayCache?: ReplayCache | undefined;
  /** Default of {@link SessionOptions.handoff} for this agent's sessions. Default off. */
  handoff?: boolean | HandoffOptions | undefined;
  /** Default of {@link SessionOptions.persistReasoning} for this agent's sessions. Default `always`. */
  persistReasoning?: PersistReasoning | undefined;
  /**
   * Decides calls of tools that need approval before a person is asked (e.g.
   * `autoApprove` in tests); when it returns undefined the episode pauses. Default:
   * every such call waits for `session.approve()` / `reject()`.
   */
  approvalPolicy?: ApprovalPolicy | undefined;
  /**
   * Secret values to keep out of tool results and error messages (replaced with
   * `[redacted]` before anything is saved or emitted), besides the two sets always
   * kept out: the API keys of every model the agent holds (`model`, the `fallback`
   * models, the `summarizer`'s model, the models of agents it calls through `asTool()`
   * tools and of agents that call it), and the values of environment variables whose
   * names look like keys, tokens, secrets or passwords (read when a session opens).
   * Values shorter than 8 characters are ignored.
   */
  secrets?: readonly string[] | undefined;
  /**
   * Models to fail over to when `model` fails a step with an error worth it (overload,
   * server error or dropped connection after the retries, a rate limit waiting past
   * `maxRetryWaitMs`, model not found): the step is retried on the next one, the
   * switch is recorded on the step (`AssistantMessage.fallback`), and the model taking
   * over gets the current episode's reasoning as a hand-off note. An array is the
   * models in order. See `FallbackOptions`. Default: none.
   */
  fallback?: readonly (ModelAdapter | FallbackModel)[] | FallbackOptions | undefined;
  /**
   * Controls on what the model streams (see `ReasoningOutputOptions`): a reasoning cap
   * for models without a native thinking budget (the stream is stopped and the answer
   * asked for), echo suppression for servers that repeat deltas, and the leak check's
   * settings. Applies to the fallback models too. Default: no cap, no suppression,
   * the leak check with its defaults.
   */
  reasoningOutput?: ReasoningOutputOptions | undefined;
  /**
   * Hooks of the agent loop, asked in order before the built-in features' (see
   * `AgentHook`): e.g. one that ends an episode once its cost passes a limit, or one
   * that logs each step. Default: none.
   */
  hooks?: readonly AgentHook[] | undefined;
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
   * prompt. `true` uses the defaults (3 traces, 2,000 tokens). Default: the agent's, else off.
   */
  handoff?: boolean | HandoffOptions | undefined;
  /**
   * `always` (default): reasoning is persisted in the transcript. `current-episode`:
   * only the current episode's reasoning is persisted, in a sidecar the store deletes
   * when the episode ends (the transcript never holds reasoning). Models that need
   * past reasoning back (`tool-episodes` retention) then warn on load.
   */
  persistReasoning?: PersistReasoning | undefined;
}

/** NaN (a setting that did not parse) would run no tool at all and leave calls without results. */
function checkToolLimits(options: AgentOptions): void {
  const { maxConcurrency, toolTimeoutMs } = options;
  if (maxConcurrency !== undefined && !(maxConcurrency >= 1)) {
    throw new InvalidArgumentError(
      `maxConcurrency must be a number of at least 1 (got ${maxConcurrency}); leave it out for the default of 4.`,
    );
  }
  if (toolTimeoutMs !== undefined && !(toolTimeoutMs > 0)) {
    throw new InvalidArgumentError(
      `toolTimeoutMs must be a positive number of milliseconds, or Infinity for none (got ${toolTimeoutMs}).`,
    );
  }
}

/** The profile's native settings with the agent's over them, option by option. */
function mergeNative(
  profile: NativeContextOptions | undefined,
  agent: NativeContextOptions | undefined,
): NativeContextOptions | undefined {
  return profile || agent ? { ...profile, ...agent } : undefined;
}

/** The agent's fallback chain, or undefined without fallback models. */
function fallbackChain(options: AgentOptions, policy: ContextPolicy): FallbackChain | undefined {
  const fallback = options.fallback;
  if (!fallback) return undefined;
  const given: FallbackOptions = Array.isArray(fallback) ? { models: fallback } : (fallback as FallbackOptions);
  if (given.models.length === 0) return undefined;
  const { budget, maxOutputTokens, retention } = options;
  return new FallbackChain(options.model, given, { budget, maxOutputTokens, retention, policy });
}

/** An agent definition; cheap to keep, and shared by all its sessions. */
export class Agent {
  readonly model: ModelAdapter;
  /** The packer's counter; its calibration is shared by every session of this agent. */
  readonly tokenizer: TokenCounter;
  readonly budget: number;
  /**
   * Warnings about the options as given (codes `budget-above-context-window`,
   * `hybrid-without-compaction`); every session of this agent also has them in
   * `session.warnings` and emits them at its first run.
   */
  readonly warnings: readonly string[];
  /** The code of each of `warnings`, in the same order. */
  private readonly warningCodes: readonly string[];
  /** The context policy in force (see {@link AgentOptions.context}). */
  readonly context: ContextPolicy;
  private readonly settings: LoopSettings;
  private readonly sessionSettings: SessionSettings;
  private readonly store: SessionStore | undefined;
  private readonly options: AgentOptions;

  constructor(options: AgentOptions) {
    const profile = options.model.profile;
    const maxOutputTokens = options.maxOutputTokens ?? profile?.maxOutputTokens;
    const budget = options.budget ?? (profile ? profile.contextWindow - (maxOutputTokens ?? 0) : undefined);
    if (budget === undefined || !(budget > 0)) {
      throw new InvalidArgumentError(
        `Agent needs a positive budget: pass { budget } (max input tokens per call) or use a model adapter with a profile (got ${budget}).`,
      );
    }
    checkToolLimits(options);
    const policy = options.context ?? profile?.contextPolicy ?? 'episodic';
    this.context = policy;
    this.model = options.model;
    this.budget = budget;
    const nativeContext = nativeOptionsFor(policy, mergeNative(profile?.nativeContext, options.nativeContext), budget);
    const budgetWarned = budgetWarnings(options.budget, options.model, maxOutputTokens);
    const hybridWarned = hybridWarnings(policy, nativeContext, options.model);
    this.warnings = [...budgetWarned, ...hybridWarned];
    this.warningCodes = [
      ...budgetWarned.map(() => 'budget-above-context-window'),
      ...hybridWarned.map(() => 'hybrid-without-compaction'),
    ];
    this.tokenizer =
      options.tokenizer ??
      createTokenCounter({ calibration: new Calibration({ initial: profile?.tokenizerFactor ?? 1 }) });
    this.store = options.store;
    this.options = options;
    registerAgent(this, options);
    const tools = options.tools ?? [];
    const stopWhen = options.stopWhen ?? maxSteps(DEFAULT_MAX_STEPS);
    this.settings = {
      model: options.model,
      system: options.system,
      tools: toolsByName(tools),
      toolSpecs: tools.map((tool) => tool.spec),
      budget,
      retention: options.retention ?? (policy === 'native' ? 'all' : profile?.retention),
      nativeContext,
      tokenizer: this.tokenizer,
      // Under `native` the provider trims (clears, compacts) what the model reads: the packer
      // shortens no tool result, it only keeps the hard budget and the pairs.
      // The cache lifetime from the profile: TTL-aware eviction costs less than the naive window on
      // the real sessions with a 5-minute cache. The priced boundary drop is opt-in
      // (`pack.reasoningBoundary`): on the session family it raised reuse but cost more where the kept
      // bytes are billed. Figures: bench/results/packer-family.md.
      pack: packingWithReader(options.cutResults, budget, {
        ...defaultPackingForProfile(profile),
        ...(policy === 'native' ? { toolResultCap: budget, currentToolResultCap: budget } : {}),
        ...options.pack,
      }),
      maxOutputTokens,
      providerOptions: options.providerOptions,
      retry: options.retry,
      stopWhen: typeof stopWhen === 'function' ? stopWhen : anyOf(...(stopWhen as readonly StopCondition[])),
      maxConcurrency: options.maxConcurrency,
      toolTimeoutMs: options.toolTimeoutMs,
      pricing: profile?.pricing,
      replayCache: options.replayCache,
      approvalPolicy: options.approvalPolicy,
      summarizer: options.summarizer,
      fallback: fallbackChain(options, policy),
      reasoningOutput: checkReasoningOutput(options.reasoningOutput),
      hooks: options.hooks,
    };
    this.sessionSettings = new SessionSettings(this.settings);
    if (this.settings.tools.size !== tools.length) {
      const names = tools.map((tool) => tool.spec.name);
      const twice = names.find((name, index) => names.indexOf(name) !== index);
      throw new InvalidArgumentError(
        `two tools share the name "${twice}": every tool needs its own spec.name (rename one of them).`,
      );
    }
    checkReaderName(tools, this.settings.pack?.resultReader);
  }

  /**
   * This agent as a tool for another agent: each call runs it in a session of its
   * own (own episodes, packer state and budget) and answers with its final text; the
   * sub-session's id and usage are kept on the result (and count in the caller's
   * totals); its approvals and the caller's abort propagate. See {@link AgentToolOptions}.
   */
  asTool<Input extends StandardSchemaV1 = typeof DEFAULT_AGENT_TOOL_INPUT>(options: AgentToolOptions<Input>): AgentTool {
    return markSubAgent(agentTool({ agent: this, approvalPolicy: this.options.approvalPolicy, store: this.store }, options), this);
  }

  /**
   * Answers one input, with no session to open or keep: runs one episode in a new
   * session held in memory (never in the agent's `store`) and returns its result, whose
   * `text` is the answer. For a conversation, or to persist it, use {@link Agent.session}.
   * Rejects as {@link Session.send} does.
   */
  async run<Schema extends StandardSchemaV1 | undefined = undefined>(
    input: SessionInput,
    options?: RunOptions<Schema>,
  ): Promise<AgentRunResult<OutputOf<Schema>>> {
    const session = await this.session({ store: new MemorySessionStore() });
    const result = await session.send(input, options);
    return { ...result, session };
  }

  /**
   * Opens a session: loads it from the store when `id` is stored there, else starts
   * one (empty, or from `history`).
   */
  async session(options: SessionOptions = {}): Promise<Session> {
    const store = options.store ?? this.store ?? new MemorySessionStore();
    const id = options.id ?? globalThis.crypto.randomUUID();
    const settings = this.sessionSettings.forSession(options.handoff ?? this.options.handoff, agentSecrets(this));
    const opened = await openSession({
      store,
      id,
      target: this.model.model,
      retention: this.settings.retention ?? 'episode',
      replayCache: this.options.replayCache,
      persistReasoning: options.persistReasoning ?? this.options.persistReasoning ?? 'always',
      history: options.history,
      handoff: settings.handoff !== undefined || settings.fallback !== undefined,
    });
    for (const [index, message] of this.warnings.entries()) {
      opened.warnings.push(message);
      opened.notices.push({ type: 'warning', step: 0, code: this.warningCodes[index] ?? 'agent-options', message });
    }
    const approvals = new SessionApprovals(store, id, settings.tools, opened.approvals);
    await approvals.refresh(opened.messages);
    return new AgentSession(settings, store, id, opened, approvals);
  }
}

/**
 * The outcome of {@link Agent.run}: the episode's result (`text` is the answer) and the
 * in-memory session it ran in, to go on with (or to approve and resume a paused run).
 */
export type AgentRunResult<Output = undefined> = EpisodeResult<Output> & {
  /** The session the run opened: in memory, unless you keep it nothing of it is stored. */
  readonly session: Session;
};

/** Only the cache lifetime of a profile's packing options. */
