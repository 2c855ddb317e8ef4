/**
 * `Agent`: a model adapter, a system prompt, tools, packing settings and stop
 * conditions. It holds no conversation; `agent.session()` opens one, and `agent.run()`
 * answers one input in a session of its own.
 */
import { MemorySessionStore } from '../store/memory-session-store.js';
import type { StandardSchemaV1 } from '../support/standard-schema.js';
import { type AgentToolOptions, agentTool, type DEFAULT_AGENT_TOOL_INPUT } from './agent-tool.js';
import type { ModelAdapter } from '../model/model-adapter.js';
import type { ContextPolicy } from '../model/native-context.js';
import type { LoopSettings } from '../loop/loop-types.js';
import { AgentSession } from './session.js';
import type { OutputOf, RunOptions, Session, SessionInput } from './session-contract.js';
import type { EpisodeResult } from '../loop/episode-result.js';
import { SessionApprovals } from './session-approvals.js';
import { openSession } from './session-open.js';
import { SessionSettings } from './session-settings.js';
import { agentSecrets, markSubAgent, registerAgent } from './agent-secrets.js';
import type { TokenCounter } from '../tokens/token-counter.js';
import { deprecationWarnings, type OptionWarning, optionWarnings } from './agent-warnings.js';
import type { AgentOptions, SessionOptions } from './agent-options.js';
import type { AgentTool } from '../loop/tool.js';
import { type GroupedAgentOptions, groupOptions } from './agent-options-deprecated.js';
import { checkToolLimits, checkToolNames, loopSettings, resolve } from './agent-settings.js';

// The options' home is agent-options.ts; re-exported for the modules that import them beside the agent.
export type { AgentOptions, SessionOptions } from './agent-options.js';

/** An agent definition; cheap to keep, and shared by all its sessions. */
export class Agent {
  readonly model: ModelAdapter;
  /** The packer's counter; its calibration is shared by every session of this agent. */
  readonly tokenizer: TokenCounter;
  readonly budget: number;
  /**
   * Warnings about the options as given (codes `budget-above-context-window`,
   * `hybrid-without-compaction`, `hybrid-fallback-without-compaction`, `native-option-not-sent`, `deprecated-option`). Every session of this agent
   * also has them in `session.warnings` and emits them at its first run, except the
   * deprecation warnings: only the agent's first session has and emits those, once.
   */
  readonly warnings: readonly string[];
  /** The warnings with their codes; deprecations are taken by the first session. */
  private readonly optionWarnings: readonly OptionWarning[];
  private deprecations: OptionWarning[];
  /** The context policy in force (`context.policy` of {@link AgentOptions}, else the profile's). */
  readonly context: ContextPolicy;
  private readonly settings: LoopSettings;
  private readonly sessionSettings: SessionSettings;
  private readonly options: GroupedAgentOptions;

  constructor(options: AgentOptions) {
    const { grouped, deprecations } = groupOptions(options);
    checkToolLimits(grouped.toolCalls);
    const resolved = resolve(grouped, deprecations);
    this.context = resolved.policy;
    this.model = grouped.model;
    this.budget = resolved.budget;
    this.tokenizer = resolved.tokenizer;
    this.options = grouped;
    registerAgent(this, {
      model: grouped.model,
      tools: grouped.tools,
      secrets: grouped.secrets,
      fallback: grouped.modelCalls.fallback,
      summarizer: grouped.context.summarizer,
    });
    this.settings = loopSettings(grouped, resolved);
    const fallbacks = this.settings.fallback?.fallbackContext ?? [];
    const requested = { ...resolved, nativeContext: resolved.requested, givenNative: grouped.context.native };
    this.optionWarnings = optionWarnings(grouped.context.budget, grouped.model, requested, fallbacks);
    this.deprecations = deprecationWarnings(deprecations);
    this.warnings = [...this.optionWarnings, ...this.deprecations].map((warning) => warning.message);
    this.sessionSettings = new SessionSettings(this.settings);
    checkToolNames(grouped.tools ?? [], this.settings);
  }

  /**
   * This agent as a tool for another agent: each call runs it in a session of its
   * own (own episodes, packer state and budget) and answers with its final text; the
   * sub-session's id and usage are kept on the result (and count in the caller's
   * totals); its approvals and the caller's abort propagate. See {@link AgentToolOptions}.
   */
  asTool<Input extends StandardSchemaV1 = typeof DEFAULT_AGENT_TOOL_INPUT>(options: AgentToolOptions<Input>): AgentTool {
    const { toolCalls, store } = this.options;
    return markSubAgent(agentTool({ agent: this, approvalPolicy: toolCalls.approvalPolicy, store }, options), this);
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
    const store = options.store ?? this.options.store ?? new MemorySessionStore();
    const id = options.id ?? globalThis.crypto.randomUUID();
    const { reasoning } = this.options;
    const settings = this.sessionSettings.forSession(options.handoff ?? reasoning.handoff, agentSecrets(this));
    const opened = await openSession({
      store,
      id,
      target: this.model.model,
      retention: this.settings.retention ?? 'episode',
      replayCache: reasoning.replayCache,
      persistReasoning: options.persistReasoning ?? reasoning.persist ?? 'always',
      history: options.history,
      handoff: settings.handoff !== undefined || settings.fallback !== undefined,
    });
    // Deprecations are said once per agent, by its first session; the other warnings by every session.
    for (const { code, message } of [...this.optionWarnings, ...this.deprecations.splice(0)]) {
      opened.warnings.push(message);
      opened.notices.push({ type: 'warning', step: 0, code, message });
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
