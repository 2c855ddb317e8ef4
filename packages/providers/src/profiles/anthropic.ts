/**
 * Claude model profiles (data, first match wins). Facts from docs/providers.md and
 * https://docs.claude.com/en/docs/build-with-claude/extended-thinking,
 * https://docs.claude.com/en/docs/build-with-claude/prompt-caching and
 * https://docs.claude.com/en/docs/about-claude/pricing (prices: see `prices-collected.ts`;
 * cache writes are the 5-minute TTL's, 1.25x input). Context windows are the
 * standard (non-beta) sizes; override `contextWindow` for the 1M-token betas.
 */
import type { ModelProfile } from '@episodic/core';
import { anthropicToolCallIdRule, type ToolCallIdRule } from '../shared/tool-call-id.js';

/** How Claude thinks: manual budget (older models), adaptive with an effort (newer), or off. */
export type AnthropicThinkingSetting =
  | { type: 'enabled'; budgetTokens: number; display?: 'summarized' | 'omitted' }
  | { type: 'adaptive'; effort?: 'low' | 'medium' | 'high' | 'xhigh' | 'max'; display?: 'summarized' | 'omitted' }
  | { type: 'disabled' };

/** The Anthropic-specific fields of a profile. */
export interface AnthropicProfileFields {
  thinking: AnthropicThinkingSetting;
  /** `anthropic-beta` values to send (interleaved thinking on 4.x manual mode). */
  betaHeaders: readonly string[];
  /**
   * Preserved thinking (Fable 5.1 and the models `boundThinkingModels` lists): a
   * thinking signature is bound to its prefix; a changed prefix means the block must go.
   */
  signatureBoundToPrefix: boolean;
  toolCallId: ToolCallIdRule;
  /** Cache breakpoint TTL. */
  cacheTtl: '5m' | '1h';
  /**
   * The model takes `role: "system"` messages inside `messages` (no beta header), so a
   * mid-session instruction goes in place instead of changing the top-level `system`.
   * The resolver sets it from the models the docs name (`midConversationSystemModels`, docs/providers.md) unless a row says otherwise.
   */
  midConversationSystem?: boolean;
}

/** A profile of a Claude model: the common fields plus the Anthropic ones. */
export type AnthropicModelProfile = ModelProfile & AnthropicProfileFields;

const interleaved = 'interleaved-thinking-2025-05-14';

const base = {
  provider: 'anthropic',
  retention: 'episode',
  cacheStyle: 'anthropic-breakpoints',
  tokenizerFactor: 1.2,
  // Older models strip earlier turns' thinking; rows of newer ones say they bill it.
  pastReasoning: 'stripped',
  toolCallId: anthropicToolCallIdRule,
  cacheTtl: '5m',
  cacheTtlSeconds: 300,
} as const;

/**
 * What Anthropic fixes for every model: the fallback's provider fields for a model
 * without a row (the shortest cache minimum of the current models).
 */
export const anthropicDefaults: Partial<AnthropicModelProfile> = { ...base, minCacheableTokens: 1024 };

const manual = (budgetTokens: number) =>
  ({
    thinking: { type: 'enabled', budgetTokens },
    betaHeaders: [interleaved],
    signatureBoundToPrefix: false,
  }) as const;

const adaptive = { thinking: { type: 'adaptive' }, betaHeaders: [], signatureBoundToPrefix: false } as const;

// Structured outputs (`output_config.format`) exist from the 4.5 models on.
// https://docs.claude.com/en/docs/build-with-claude/structured-outputs
const jsonAnswers = { structuredOutput: 'native' } as const;
/**
 * Models with server-side compaction (`compact_20260112`, https://platform.claude.com/docs/en/build-with-claude/compaction:
 * Opus 4.6+, Sonnet 4.6, Mythos Preview; trigger at least 50,000 tokens) pack with the
 * `hybrid` policy by default: it cost less than `episodic` on `npm run bench -- context-policies`
 * (README, "Episodic packing or the provider's own?"). Models whose compaction is not
 * documented (the 5.x rows) keep `episodic` (docs/providers.md, "Claude models, fact by fact").
 */
const serverCompaction = { contextPolicy: 'hybrid', nativeContext: { compaction: { minThreshold: 50_000 } } } as const;

/**
 * The models with on-demand compaction (beta `compact-2026-09-04`): the `supportedModels` of
 * https://platform.claude.com/docs/en/build-with-claude/compaction-on-demand (read 2026-12-05):
 * Fable 5.1, Mythos 5.1, Fable 5, Mythos 5, Mythos Preview, Opus 5.5, Opus 5, Opus 4.8, 4.7
 * and 4.6, Sonnet 5 and Sonnet 4.6. The compaction overview says to use it wherever it is
 * available, so where a policy compacts, these models compact on demand (the agent's
 * `OnDemandCompactor`) instead of sending `compact_20260112`. It sets no policy: the 5.x
 * rows keep `episodic` unless the agent asks for `hybrid` or `native`.
 */
const onDemand = { nativeContext: { compaction: { onDemand: true } } } as const;
const serverAndOnDemand = { contextPolicy: 'hybrid', nativeContext: { compaction: { minThreshold: 50_000, onDemand: true } } } as const;

const sonnet4Pricing = { input: 3, cachedInput: 0.3, cacheWrite: 3.75, output: 15 };
const opusNewPricing = { input: 5, cachedInput: 0.5, cacheWrite: 6.25, output: 25 };

/**
 * The models whose thinking blocks are bound to their prefix (preserved thinking), as
 * the docs list them: the `supportedModels` of the prefix-check pages
 * (https://platform.claude.com/docs/en/build-with-claude/preserved-thinking/prefix-checks,
 * read 2026-12-04). Opus 5, Sonnet 5, Fable 5 and Mythos 5 keep earlier thinking but
 * run no prefix check ("Starting with Claude Fable 5.1"). A Claude model with no row
 * falls to the last row, which assumes binding (later models enforce it everywhere).
 */
export const boundThinkingModels = 'claude-(?:fable|mythos)-5-[12]|claude-(?:opus|sonnet|haiku)-5-5';

/**
 * The models that take mid-conversation `role: "system"` messages, as Anthropic's docs name
 * them (read 2026-12-05): Opus 4.8, where the feature came ("What's new in Claude Opus 4.8",
 * no beta header), and the preserved-thinking models, whose "Change tools or instructions"
 * page (supportedModels Fable 5.2, Mythos 5.2, Fable 5.1, Mythos 5.1, Opus 5.5, Sonnet 5.5,
 * Haiku 5.5) tells to put a changed instruction in such a message. Opus 5, Fable 5, Mythos 5
 * and Sonnet 5 are left out: no Anthropic page found says they take it (docs/providers.md).
 */
export const midConversationSystemModels = 'claude-opus-4-8|claude-(?:fable|mythos)-5-[12]|claude-(?:opus|sonnet|haiku)-5-5';

/** The fields of the bound-thinking rows (preserved thinking with a prefix check). */
const boundRow = {
  ...base,
  ...adaptive,
  ...jsonAnswers,
  pastReasoning: 'billed',
  signatureBoundToPrefix: true,
  contextWindow: 1_000_000,
  maxOutputTokens: 128_000,
  minCacheableTokens: 4096,
} as const;

/** The fields of the Opus 4.6+ and Mythos Preview rows. */
const opusNewRow = {
  ...base,
  ...adaptive,
  ...jsonAnswers,
  pastReasoning: 'billed',
  contextWindow: 200_000,
  maxOutputTokens: 128_000,
  minCacheableTokens: 4096,
  pricing: opusNewPricing,
} as const;

/** The fields of the Sonnet 4.6+ rows. */
const sonnetNewRow = {
  ...base,
  ...adaptive,
  ...jsonAnswers,
  pastReasoning: 'billed',
  contextWindow: 200_000,
  maxOutputTokens: 64_000,
  minCacheableTokens: 2048,
  pricing: sonnet4Pricing,
} as const;

/** Built-in Claude profiles. */
export const anthropicProfiles: readonly AnthropicModelProfile[] = [
  // Preserved thinking: the models the prefix-check pages list (docs/providers.md, "Bound thinking"),
  // split by on-demand compaction (Fable 5.1, Mythos 5.1 and Opus 5.5 have it).
  { ...boundRow, pattern: 'claude-(?:fable|mythos)-5-1|claude-opus-5-5', ...onDemand },
  // Sonnet 5.5: bound thinking as the next row, and its list prices (model page
  // https://platform.claude.com/docs/en/models/sonnet-5-5/overview, read 2026-12-05:
  // $2 / $10, 5-minute cache write $2.50, cache read $0.20).
  { ...boundRow, pattern: 'claude-sonnet-5-5', pricing: { input: 2, cachedInput: 0.2, cacheWrite: 2.5, output: 10 } },
  { ...boundRow, pattern: boundThinkingModels },
  {
    ...base,
    ...adaptive,
    // The 5.x models before Fable 5.1: adaptive, earlier thinking kept, no prefix check (docs/providers.md).
    pattern: 'claude-(?:opus|sonnet|fable|mythos)-5',
    ...jsonAnswers,
    ...onDemand,
    pastReasoning: 'billed',
    contextWindow: 1_000_000,
    maxOutputTokens: 128_000,
    minCacheableTokens: 4096,
  },
  { ...opusNewRow, pattern: 'claude-opus-4-[6-8](?:-\\d{8})?|claude-mythos-preview', ...serverAndOnDemand },
  { ...opusNewRow, pattern: 'claude-opus-4-9(?:-\\d{8})?', ...serverCompaction },
  { ...sonnetNewRow, pattern: 'claude-sonnet-4-6(?:-\\d{8})?', ...serverAndOnDemand },
  { ...sonnetNewRow, pattern: 'claude-sonnet-4-[7-9](?:-\\d{8})?', ...serverCompaction },
  {
    ...base,
    ...manual(8192),
    pattern: 'claude-opus-4-5(?:-\\d{8})?',
    ...jsonAnswers,
    pastReasoning: 'billed',
    contextWindow: 200_000,
    maxOutputTokens: 64_000,
    minCacheableTokens: 4096,
    pricing: opusNewPricing,
  },
  {
    ...base,
    ...manual(8192),
    pattern: 'claude-sonnet-4-5(?:-\\d{8})?',
    ...jsonAnswers,
    contextWindow: 200_000,
    maxOutputTokens: 64_000,
    minCacheableTokens: 1024,
    pricing: sonnet4Pricing,
  },
  {
    ...base,
    ...manual(8192),
    // Also the `claude-sonnet-4-0` alias: an unmatched id would fall to the adaptive row, which 4.x refuses.
    pattern: 'claude-sonnet-4(?:-0)?(?:-\\d{8})?',
    contextWindow: 200_000,
    maxOutputTokens: 64_000,
    minCacheableTokens: 1024,
    pricing: sonnet4Pricing,
  },
  {
    ...base,
    ...manual(4096),
    pattern: 'claude-haiku-4-5(?:-\\d{8})?',
    ...jsonAnswers,
    contextWindow: 200_000,
    maxOutputTokens: 64_000,
    minCacheableTokens: 4096,
    pricing: { input: 1, cachedInput: 0.1, cacheWrite: 1.25, output: 5 },
  },
  {
    ...base,
    ...manual(8192),
    pattern: 'claude-opus-4(?:-[01])?(?:-\\d{8})?',
    contextWindow: 200_000,
    maxOutputTokens: 32_000,
    minCacheableTokens: 1024,
    pricing: { input: 15, cachedInput: 1.5, cacheWrite: 18.75, output: 75 },
  },
  {
    // Manual thinking without the interleaved-thinking beta (a Claude 4 feature).
    ...base,
    ...manual(8192),
    pattern: 'claude-3-7-sonnet.*',
    betaHeaders: [],
    contextWindow: 200_000,
    maxOutputTokens: 64_000,
    minCacheableTokens: 1024,
    pricing: sonnet4Pricing,
  },
  {
    // No extended thinking on this model.
    ...base,
    pattern: 'claude-3-5-haiku.*',
    thinking: { type: 'disabled' },
    betaHeaders: [],
    signatureBoundToPrefix: false,
    contextWindow: 200_000,
    maxOutputTokens: 8192,
    minCacheableTokens: 2048,
    pricing: { input: 0.8, cachedInput: 0.08, cacheWrite: 1, output: 4 },
  },
  {
    // Unknown Claude models: assume a newer one (adaptive thinking, bound signatures).
    ...base,
    ...adaptive,
    pattern: 'claude-.*',
    ...jsonAnswers,
    pastReasoning: 'billed',
    signatureBoundToPrefix: true,
    contextWindow: 200_000,
    maxOutputTokens: 32_000,
    minCacheableTokens: 4096,
  },
];
