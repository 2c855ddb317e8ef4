/**
 * The providers' own context management, as neutral options an adapter maps to its
 * wire API, and the context policy that decides who manages the context: the packer,
 * the provider, or both. Adapters that cannot do an option warn and leave it out.
 *
 * Wire mappings (checked against the vendor docs and SDK types, Nov 2026):
 * - Anthropic context editing, beta `context-management-2025-06-27`
 *   (https://platform.claude.com/docs/en/build-with-claude/context-editing):
 *   `clear_tool_uses_20250919` {trigger, keep, clear_at_least, exclude_tools, clear_tool_inputs},
 *   `clear_thinking_20251015` {keep: {type: 'thinking_turns', value} | 'all'}.
 * - Anthropic compaction, beta `compact-2026-01-12`
 *   (https://platform.claude.com/docs/en/build-with-claude/compaction): `compact_20260112`
 *   {trigger (default 150,000, at least 50,000 input tokens), instructions}.
 * - Anthropic on-demand compaction, beta `compact-2026-09-04`
 *   (https://platform.claude.com/docs/en/build-with-claude/compaction-on-demand, read 2026-12-05):
 *   a separate request with `compaction: {type: 'summarize', instructions}` whose answer is one
 *   signed `compaction` block that later requests send first, in place of the messages it
 *   summarizes. Chosen over `compact_20260112` where the profile says `onDemand` (see
 *   `loop/on-demand-compaction.ts`).
 * - OpenAI Responses: `reasoning.context` ('auto' | 'current_turn' | 'all_turns', GPT-5.6 and
 *   later) and `context_management: [{type: 'compaction', compact_threshold}]`
 *   (https://developers.openai.com/api/docs/guides/compaction).
 */

/**
 * Who manages what the model reads:
 * - `packer`: the packer alone (episode retention, eviction, cache breakpoints); no
 *   native option is sent.
 * - `native`: the provider's own management alone (`NativeContextOptions`); the packer
 *   sends every reasoning part back (retention `all`: the provider decides what the
 *   model reads) and only guarantees the hard budget and tool-call pairing.
 * - `hybrid`: the packer as in `packer`, and the provider compacts past its threshold
 *   (only `compaction` of the native options is sent).
 *
 * The names say who does the work; `packer` was called `episodic` (the product's name,
 * which said nothing about the policy) until this release.
 */
export type ContextPolicy = 'packer' | 'native' | 'hybrid';

/**
 * The previous name of the `packer` policy, still accepted (with a deprecation warning)
 * by `AgentOptions.context.policy` and `ModelProfile.contextPolicy` for one release.
 * @deprecated Use `'packer'`.
 */
export type DeprecatedContextPolicy = 'episodic';

/** Anthropic `clear_tool_uses_20250919`: clears the oldest tool results once the input passes `trigger`. */
export interface ClearToolUsesOptions {
  /** Input tokens above which results are cleared. Provider default 100,000. */
  trigger?: number;
  /** Most recent tool uses kept. Provider default 3. */
  keep?: number;
  /** Fewest input tokens one clearing removes (so the cache miss it causes pays off). */
  clearAtLeast?: number;
  /** Tools whose results are never cleared. */
  excludeTools?: readonly string[];
  /** Also clear the calls' inputs. Default false. */
  clearInputs?: boolean;
}

/** Neutral options for the providers' own context management (see the file comment for the wire). */
export interface NativeContextOptions {
  /** OpenAI `reasoning.context`: which past reasoning the model reads. */
  reasoningContext?: 'auto' | 'current-turn' | 'all-turns';
  /** Anthropic: clear old tool results. */
  clearToolUses?: ClearToolUsesOptions;
  /** Anthropic `clear_thinking_20251015`: thinking turns kept (`all` keeps the cached prefix intact). */
  clearThinking?: { keep: number | 'all' };
  /**
   * Server-side compaction once the input passes `threshold` tokens (Anthropic
   * `compact_20260112`, OpenAI `context_management` compaction). The summary comes back
   * as a `compaction` part; from then on the packer sends nothing older than it.
   */
  compaction?: {
    /** Input tokens past which the provider compacts. Default (set by the agent): 80% of the agent's budget. */
    threshold?: number;
    /** Summarization instructions (Anthropic only). */
    instructions?: string;
    /**
     * Anthropic `pause_after_compaction`: the provider returns the compaction alone
     * (stop reason `compaction`) and the loop records it, then continues the step with
     * a call that sends it back.
     */
    pauseAfter?: boolean;
    /**
     * The provider's lowest threshold (profile data, never sent): when the default
     * threshold would be below it, the agent sends no compaction (the packer's
     * eviction comes first at such budgets anyway). Not used by on-demand compaction.
     */
    minThreshold?: number;
    /**
     * The model compacts on request (profile data: Anthropic on-demand compaction): the
     * agent then asks for the summary itself, in a separate call, once the last call's
     * input and output pass `threshold`, keeps the last `keepTurns` episodes verbatim after
     * it, and swaps it in at a user boundary; no threshold compaction is sent. `false`
     * sends the server-side threshold compaction instead.
     */
    onDemand?: boolean;
    /** On-demand: the most recent episodes kept word for word after the summary. Default 2. */
    keepTurns?: number;
    /**
     * On-demand: the compaction runs while the conversation goes on, and is swapped in at
     * the next user boundary after it arrives (a step waits for it only when the last call
     * filled the budget). `false` compacts at the user boundary and waits. Default true.
     */
    background?: boolean;
  };
}

/** Share of the budget at which the provider compacts when no threshold is given (see the bench `context-policies`). */
export const DEFAULT_COMPACTION_SHARE = 0.8;

/** On-demand compaction: episodes kept verbatim after the summary by default (the docs' own example keeps two turns). */
export const DEFAULT_KEEP_TURNS = 2;

/** The native options a policy sends: all of them for `native`, compaction only for `hybrid`, none for `packer`. */
export function nativeOptionsFor(
  policy: ContextPolicy,
  options: NativeContextOptions | undefined,
  budget: number,
): NativeContextOptions | undefined {
  if (policy === 'packer' || options === undefined) return undefined;
  const { compaction, ...rest } = options;
  const resolved = compaction ? resolvedCompaction(compaction, budget) : undefined;
  const chosen = policy === 'native' ? rest : {};
  const result = { ...chosen, ...(resolved ? { compaction: resolved } : {}) };
  return Object.keys(result).length > 0 ? result : undefined;
}

/** The compaction settings to send: the threshold defaulted from the budget, none below the provider's floor. */
function resolvedCompaction(
  compaction: NonNullable<NativeContextOptions['compaction']>,
  budget: number,
): NativeContextOptions['compaction'] {
  const { minThreshold, ...sent } = compaction;
  if (sent.threshold !== undefined) return sent;
  const threshold = Math.floor(budget * DEFAULT_COMPACTION_SHARE);
  // The floor is the server-side trigger's; an on-demand compaction is asked for at any size.
  const floor = sent.onDemand ? undefined : minThreshold;
  return floor !== undefined && threshold < floor ? undefined : { ...sent, threshold };
}
