/**
 * The loop settings an agent builds once from its (grouped) options and its model's
 * profile: the budget, policy, retention, native settings and counter in force, the
 * packing, the fallback chain, and the checks of the tool limits and names. The loop
 * keeps its own flat `LoopSettings`; this file is where the groups map onto it.
 */
import { InvalidArgumentError } from '../errors/input-errors.js';
import type { LoopSettings } from '../loop/loop-types.js';
import { FallbackChain, type FallbackOptions } from '../loop/fallback/model-fallback.js';
import { anyOf, maxSteps, type StopCondition } from '../loop/stop-conditions.js';
import type { AgentTool } from '../loop/tool.js';
import { toolsByName } from '../loop/tool-executor.js';
import type { Retention } from '../message/retention.js';
import { type ContextPolicy, type NativeContextOptions, nativeOptionsFor } from '../model/native-context.js';
import type { PackTuning } from '../packing/pack-types.js';
import { defaultPackingForProfile } from '../packing/profile-packing.js';
import { checkReasoningOutput } from '../reasoning/output/reasoning-output.js';
import { chooseOnDemand, type OnDemandCompactionSettings } from '../loop/on-demand/on-demand-compaction.js';
import { Calibration } from '../tokens/calibration.js';
import { createTokenCounter, type TokenCounter } from '../tokens/token-counter.js';
import { checkReaderName, packingWithReader } from './agent-cut-results.js';
import type { ToolCallOptions } from './agent-options.js';
import { currentPolicy, type GroupedAgentOptions } from './agent-options-deprecated.js';

/** Steps per episode when no `stopWhen` is given: a guard against a model that never stops calling tools. */
const DEFAULT_MAX_STEPS = 50;

/** NaN (a setting that did not parse) would run no tool at all and leave calls without results. */
export function checkToolLimits({ maxConcurrency, timeoutMs }: ToolCallOptions): void {
  if (maxConcurrency !== undefined && !(maxConcurrency >= 1)) {
    throw new InvalidArgumentError(
      `toolCalls.maxConcurrency must be a number of at least 1 (got ${maxConcurrency}); leave it out for the default of 4.`,
    );
  }
  if (timeoutMs !== undefined && !(timeoutMs > 0)) {
    throw new InvalidArgumentError(
      `toolCalls.timeoutMs must be a positive number of milliseconds, or Infinity for none (got ${timeoutMs}).`,
    );
  }
}

/** The profile's native settings with the agent's over them, option by option. */
function mergeNative(
  profile: NativeContextOptions | undefined,
  agent: NativeContextOptions | undefined,
): NativeContextOptions | undefined {
  if (!profile && !agent) return undefined;
  // The profile's facts about its compaction (floor, on demand) stay under the agent's settings.
  const compaction = profile?.compaction || agent?.compaction ? { ...profile?.compaction, ...agent?.compaction } : undefined;
  return { ...profile, ...agent, ...(compaction ? { compaction } : {}) };
}

/** What the agent resolves from its options and the model's profile before it builds its loop settings. */
export interface Resolved {
  policy: ContextPolicy;
  budget: number;
  maxOutputTokens: number | undefined;
  retention: Retention | undefined;
  /** What the policy sends; with on-demand compaction, no threshold compaction. */
  nativeContext: NativeContextOptions | undefined;
  /** What the policy asks for before on-demand compaction takes the threshold's place (for the warnings). */
  requested: NativeContextOptions | undefined;
  /** On-demand compaction's settings, where the model has it and the policy compacts. */
  onDemand: OnDemandCompactionSettings | undefined;
  tokenizer: TokenCounter;
}

/** The budget, policy, retention, native settings and counter in force: the options', else the profile's. */
export function resolve(options: GroupedAgentOptions, warnings: string[]): Resolved {
  const profile = options.model.profile;
  const maxOutputTokens = options.modelCalls.maxOutputTokens ?? profile?.maxOutputTokens;
  const budget = options.context.budget ?? (profile ? profile.contextWindow - (maxOutputTokens ?? 0) : undefined);
  if (budget === undefined || !(budget > 0)) {
    throw new InvalidArgumentError(
      `Agent needs a positive budget: pass { context: { budget } } (max input tokens per call) or use a model adapter with a profile (got ${budget}).`,
    );
  }
  const policy =
    options.context.policy ?? currentPolicy(profile?.contextPolicy, 'the model profile\'s contextPolicy', warnings) ?? 'packer';
  const tokenizer =
    options.context.tokenizer ??
    createTokenCounter({ calibration: new Calibration({ initial: profile?.tokenizerFactor ?? 1 }) });
  const requested = nativeOptionsFor(policy, mergeNative(profile?.nativeContext, options.context.native), budget);
  // On-demand compaction, where the model has it, in place of the server-side threshold.
  const { nativeContext, onDemand } = chooseOnDemand(requested, options.model, budget);
  return {
    policy,
    budget,
    maxOutputTokens,
    retention: options.context.retention ?? (policy === 'native' ? 'all' : profile?.retention),
    nativeContext,
    requested,
    onDemand,
    tokenizer,
  };
}

/** The agent's fallback chain, or undefined without fallback models. */
function fallbackChain(options: GroupedAgentOptions, resolved: Resolved): FallbackChain | undefined {
  const fallback = options.modelCalls.fallback;
  if (!fallback) return undefined;
  const given: FallbackOptions = Array.isArray(fallback) ? { models: fallback } : (fallback as FallbackOptions);
  if (given.models.length === 0) return undefined;
  // The models go unwrapped: the reasoning-output hook puts the stream controls around each call.
  const { budget, maxOutputTokens, retention, policy } = resolved;
  return new FallbackChain(options.model, given, { budget, maxOutputTokens, retention, policy });
}

/** The agent's packing: the profile's defaults, the policy's caps, the caller's knobs, and the reader's name. */
function agentPacking(options: GroupedAgentOptions, { policy, budget }: Resolved): PackTuning | undefined {
  // Under `native` the provider trims (clears, compacts) what the model reads: the packer
  // shortens no tool result, it only keeps the hard budget and the pairs.
  // The cache lifetime from the profile: TTL-aware eviction costs less than the naive window on
  // the real sessions with a 5-minute cache. The priced boundary drop is opt-in
  // (`pack.reasoningBoundary`): on the session family it raised reuse but cost more where the kept
  // bytes are billed. Figures: bench/results/packer-family.md.
  return packingWithReader(options.context.cutResults, budget, {
    ...defaultPackingForProfile(options.model.profile),
    ...(policy === 'native' ? { toolResultCap: budget, currentToolResultCap: budget } : {}),
    ...options.context.pack,
  });
}

/** The loop settings every session of the agent starts from (the loop's own shape, flat). */
export function loopSettings(options: GroupedAgentOptions, resolved: Resolved): LoopSettings {
  const tools = options.tools ?? [];
  const stopWhen = options.stopWhen ?? maxSteps(DEFAULT_MAX_STEPS);
  const { context, reasoning, toolCalls, modelCalls } = options;
  return {
    model: options.model,
    system: options.system,
    tools: toolsByName(tools),
    toolSpecs: tools.map((tool) => tool.spec),
    budget: resolved.budget,
    retention: resolved.retention,
    nativeContext: resolved.nativeContext,
    tokenizer: resolved.tokenizer,
    pack: agentPacking(options, resolved),
    maxOutputTokens: resolved.maxOutputTokens,
    providerOptions: modelCalls.providerOptions,
    retry: modelCalls.retry,
    stopWhen: typeof stopWhen === 'function' ? stopWhen : anyOf(...(stopWhen as readonly StopCondition[])),
    maxConcurrency: toolCalls.maxConcurrency,
    toolTimeoutMs: toolCalls.timeoutMs,
    pricing: options.model.profile?.pricing,
    replayCache: reasoning.replayCache,
    approvalPolicy: toolCalls.approvalPolicy,
    summarizer: context.summarizer,
    ...(resolved.onDemand ? { onDemandCompaction: resolved.onDemand } : {}),
    fallback: fallbackChain(options, resolved),
    reasoningOutput: checkReasoningOutput(reasoning.output),
    hooks: options.hooks,
  };
}

/** Throws when two tools share a name (the loop finds tools by name), or one takes the cut-result reader's. */
export function checkToolNames(tools: readonly AgentTool[], settings: LoopSettings): void {
  if (settings.tools.size !== tools.length) {
    const names = tools.map((tool) => tool.spec.name);
    const twice = names.find((name, index) => names.indexOf(name) !== index);
    throw new InvalidArgumentError(
      `two tools share the name "${twice}": every tool needs its own spec.name (rename one of them).`,
    );
  }
  checkReaderName(tools, settings.pack?.resultReader);
}
