/**
 * `episodic budget` and `npm run bench -- context-policies`: a session replayed call by
 * call under each context policy its provider supports (`packer`, and `native` /
 * `hybrid` where the provider compacts), priced. The providers' own management is
 * modelled from their documented rules, not measured; the report states the model:
 *
 * - Prompt cache: a call reuses the messages at its start that are identical to the
 *   previous call's (message granularity), with the system prompt. OpenAI-style caches
 *   read a reused prefix from their minimum in 128-token steps and write nothing;
 *   Anthropic reads from its minimum cacheable prefix and writes the rest at the
 *   write price (the packer's last breakpoint sits at the end of each request).
 * - Server-side compaction (`native`, `hybrid`): once a call's input passes the
 *   threshold (80% of the budget) the provider's compaction pass reads that input
 *   (billed as the call would have been), writes a summary of 1% of it (500 to 4,000
 *   tokens: the Anthropic recording in vercel/ai compacted 60,385 tokens into 522, its
 *   `usage.iterations` bill the two passes) and a second pass answers from the system
 *   prompt and the summary, uncached. From then on the call's message carries a
 *   compaction part and `messagesAfterCompaction`, as in the agent loop, cuts the history.
 * - Reasoning as each model generation bills it (`pastReasoning`, see `BilledView`):
 *   where the provider strips earlier turns' reasoning (OpenAI before GPT-5.6, older
 *   Claude models) it is neither billed nor part of the cached prefix; where it renders
 *   it (GPT-5.6 and later by default, newer Claude models) it is billed and cached.
 * - Bound reasoning (`boundReasoning`, Anthropic preserved thinking): a thinking block
 *   goes back only while nothing before it changed since it was produced; otherwise it is
 *   left out (not billed, `boundDropped`), and every later block with it (`BoundReplay`).
 * - `native` sends all reasoning back and caps no tool result; `packer` and
 *   `hybrid` pack with episode retention and the packing the agent takes from the profile
 *   (`packing`: the boundary drop priced, TTL-aware eviction).
 * - Cache lifetime: with `packing.cacheTtlMs`, a call more than that after the previous
 *   one (by the messages' recorded times) reads nothing from the cache.
 * - Compaction checkpoints (`checkpoints`): `native` continues from the provider's item as
 *   above; `text` from Episodic's own text summary of the same range (what a fallback or
 *   another provider gets, see checkpoint-summaries.ts in core): no second pass, but a
 *   summarizer call that reads the compacted input uncached and writes a summary of at
 *   most 1,000 tokens (its default), sent from then on as a user message in the item's
 *   place; that cut keeps no opening user message, so it may compact less often. Keeping
 *   the text beside the item costs a summarizer call per native compaction on top of
 *   `native` (`checkpointCost`).
 * Output tokens of the answers are the same under every policy and left out.
 */
import {
  type ContextPolicy,
  type Message,
  type ModelRef,
  type PastReasoning,
  type Pricing,
  type TokenCounter,
  type ToolSpec,
} from '@episodic/core';
import {
  DEFAULT_COMPACTION_SHARE,
  messagesAfterCompaction,
  type PackOptions,
  type PackState,
  packContext,
} from '@episodic/core/packing';
import { packingWithReader } from '@episodic/core/internal';
import { BilledView } from './billed-view.js';
import { BoundReplay } from './bound-replay.js';

/** What the model replays with: who answers, the cache and the prices. */
export interface PolicyModel {
  model: ModelRef;
  budget: number;
  cache: 'openai' | 'anthropic' | 'none';
  minCacheableTokens: number;
  pricing: Pricing | undefined;
  /** What the agent takes from the model's profile (`packingForProfile`); none when absent. */
  packing?: Pick<PackOptions, 'reasoningBoundary' | 'cacheTtlMs' | 'boundReasoning'>;
  /** How the provider treats earlier turns' reasoning that is sent (the profile's); default `billed`. */
  pastReasoning?: PastReasoning;
  /** The provider binds reasoning to its prefix (the profile's `signatureBoundToPrefix`); default false. */
  boundReasoning?: boolean;
}

/** When a recorded message was made (ms since the epoch), if its session recorded it. */
function timeOf(message: Message): number | undefined {
  const stamp = (message as { timestamp?: unknown }).timestamp;
  const at = typeof stamp === 'number' ? stamp : typeof stamp === 'string' ? Date.parse(stamp) : Number.NaN;
  return Number.isFinite(at) ? at : undefined;
}

/** One policy's replay of a session. */
export interface PolicyRun {
  policy: ContextPolicy;
  calls: number;
  /** Input tokens of all calls, compaction passes included. */
  inputTokens: number;
  cachedTokens: number;
  /** USD of the input (and the compaction summaries' output); undefined without prices. */
  cost: number | undefined;
  compactions: number;
  /** Input tokens replaced by summaries: what the model lost to compaction. */
  compactedTokens: number;
  /** Calls that evicted episodes. */
  evictingCalls: number;
  /** Calls whose minimum context did not fit the budget. */
  skipped: number;
  /** Reasoning parts left out because their bound prefix changed (each counted once; 0 where nothing is bound). */
  boundDropped: number;
  /** What the calls after a compaction continue from (`native` unless set). */
  checkpoints?: CheckpointKind;
  /** Summarizer calls that wrote text checkpoints: their input tokens (in `inputTokens`) and USD (in `cost`). */
  summarizerTokens?: number;
  summarizerCost?: number;
  /** Native checkpoints with a price: USD of a text summary of each compaction kept beside its item (not in `cost`). */
  checkpointCost?: number;
}

/** What the calls after a compaction continue from: the provider's item, or Episodic's text summary of it. */
export type CheckpointKind = 'native' | 'text';

/** Most tokens of a text checkpoint (the summarizer's default `maxOutputTokens`). */
export const TEXT_CHECKPOINT_MAX_TOKENS = 1_000;

/** The tag of a modelled text checkpoint: no model reads it as its own, so the packer sends its text. */
const TEXT_CHECKPOINT_PRODUCER = { provider: 'episodic', model: 'text-checkpoint' };

/** Summary size of a compaction of `tokens` input tokens (see the file comment). */
export function summaryTokens(tokens: number): number {
  return Math.max(500, Math.min(4000, Math.round(tokens * 0.01)));
}

/** The policies a provider supports: native ones where it compacts server-side (Anthropic, OpenAI Responses). */
export function supportedPolicies(provider: string | undefined): ContextPolicy[] {
  return provider === 'anthropic' || provider === 'openai' ? ['packer', 'native', 'hybrid'] : ['packer'];
}

function cached(model: PolicyModel, reused: number): number {
  if (model.cache === 'none' || reused < model.minCacheableTokens) return 0;
  return model.cache === 'openai' ? Math.floor(reused / 128) * 128 : reused;
}

function price(model: PolicyModel, input: number, cachedTokens: number): number | undefined {
  const pricing = model.pricing;
  if (!pricing) return undefined;
  const fresh = input - cachedTokens;
  const write = model.cache === 'anthropic' ? fresh * ((pricing.cacheWrite ?? pricing.input) - pricing.input) : 0;
  return (fresh * pricing.input + cachedTokens * pricing.cachedInput + write) / 1e6;
}

function addCost(total: number | undefined, more: number | undefined): number | undefined {
  return total === undefined || more === undefined ? undefined : total + more;
}

/** Replays `messages` (no system lines) under `policy`; see the file comment for the model. */
export function replayPolicy(
  session: { messages: readonly Message[]; system?: string | undefined; tools?: readonly ToolSpec[] | undefined },
  model: PolicyModel,
  policy: ContextPolicy,
  counter: TokenCounter,
  checkpoints: CheckpointKind = 'native',
): PolicyRun {
  const messages = [...session.messages];
  const native = policy === 'native';
  const tools = session.tools && session.tools.length > 0 ? session.tools : undefined;
  // The stable prefix every call starts with, cached with the messages that follow it.
  const fixed = (session.system ? counter.countSystem(session.system) : 0) + (tools ? counter.countTools(tools) : 0);
  const compactAt = Math.floor(model.budget * DEFAULT_COMPACTION_SHARE);
  const run: PolicyRun = {
    policy,
    calls: 0,
    inputTokens: 0,
    cachedTokens: 0,
    cost: model.pricing ? 0 : undefined,
    compactions: 0,
    compactedTokens: 0,
    evictingCalls: 0,
    skipped: 0,
    boundDropped: 0,
    ...(checkpoints === 'text' ? { checkpoints, summarizerTokens: 0, ...(model.pricing ? { summarizerCost: 0 } : {}) } : {}),
    ...(checkpoints === 'native' && policy !== 'packer' && model.pricing ? { checkpointCost: 0 } : {}),
  };
  let state: PackState | undefined;
  let previous: string[] = [];
  let previousAt: number | undefined;
  const packing = native ? {} : (model.packing ?? {});
  const billing = new BilledView(counter, model.pastReasoning ?? 'billed', model.boundReasoning);
  const bound = billing.boundReasoning ? new BoundReplay() : undefined;
  for (let index = 1; index < messages.length; index += 1) {
    const produced = messages[index] as Message;
    if (produced.role !== 'assistant') continue;
    const { messages: view } = messagesAfterCompaction(messages.slice(0, index), model.model);
    let packed: ReturnType<typeof packContext>;
    const now = timeOf(produced);
    const ttl = model.packing?.cacheTtlMs;
    const lapsed = ttl !== undefined && now !== undefined && previousAt !== undefined && now - previousAt >= ttl;
    if (now !== undefined) previousAt = now;
    try {
      packed = packContext({
        messages: view,
        system: session.system,
        ...(tools ? { tools } : {}),
        budget: model.budget,
        tokenizer: counter,
        retention: native ? 'all' : 'episode',
        state,
        ...packing,
        // What an agent sends: a cut result's marker names the reader tool (cutResults: 'readable').
        ...(native ? {} : packingWithReader('readable', model.budget, {})),
        ...(now === undefined ? {} : { now }),
        ...(native ? { toolResultCap: model.budget, currentToolResultCap: model.budget } : {}),
      });
    } catch {
      run.skipped += 1;
      continue;
    }
    state = packed.state;
    if (packed.stats.evictedNow) run.evictingCalls += 1;
    // As billed: reasoning the provider strips is neither counted nor part of the cached prefix.
    const billed = billing.of(bound ? bound.apply(packed.messages) : packed.messages);
    const sent = billed.messages.map((message) => JSON.stringify(message));
    let same = 0;
    while (same < sent.length && same < previous.length && sent[same] === previous[same]) same += 1;
    const reused = fixed + billed.tokens.slice(0, same).reduce((sum, tokens) => sum + tokens, 0);
    const packedTokens = packed.messages.reduce((sum, message) => sum + counter.countMessage(message), 0);
    const input = packed.stats.tokens.total - packedTokens + billed.messageTokens;
    const hit = lapsed ? 0 : Math.min(input, cached(model, reused));
    run.calls += 1;
    run.inputTokens += input;
    run.cachedTokens += hit;
    run.cost = addCost(run.cost, price(model, input, hit));
    previous = sent;
    if (policy === 'packer' || input <= compactAt) continue;
    if (checkpoints === 'text') {
      // The compacting message, then the checkpoint line beside it (the loop passes over the line).
      messages.splice(index, 1, ...textCheckpoint(run, { model, counter, produced, input, index }));
      // A compaction starts a new prefix, whichever checkpoint the calls after it continue from.
      bound?.reset();
      continue;
    }
    // The provider compacts: the pass above wrote the summary, a second one answers from it.
    const summary = summaryTokens(input);
    run.compactions += 1;
    run.compactedTokens += input - summary;
    run.inputTokens += fixed + summary;
    const output = model.pricing ? (summary * model.pricing.output) / 1e6 : undefined;
    run.cost = addCost(addCost(run.cost, price(model, fixed + summary, 0)), output);
    // What a text summary of this compaction would cost, kept beside the item for other models.
    if (run.checkpointCost !== undefined) run.checkpointCost = addCost(run.checkpointCost, summarizerCost(model, input));
    const part = {
      type: 'compaction' as const,
      tokens: summary,
      text: `summary of ${input} tokens`,
      providerData: { provider: model.model.provider, model: model.model.id, block: { type: 'compaction' } },
    };
    messages[index] = { ...produced, content: [part, ...produced.content] };
    previous = [];
    bound?.reset();
  }
  run.boundDropped = bound?.dropped ?? 0;
  return run;
}

/**
 * The call that passed the threshold answered as sent; a summarizer call read what it
 * sent (uncached) and wrote a text checkpoint, which later calls send in place of the
 * history before `produced` (see the file comment). Returns `produced` holding an opaque
 * compaction no replayed model reads as its own, and the checkpoint line that stands for it,
 * as the agent loop stores them.
 */
function textCheckpoint(
  run: PolicyRun,
  context: { model: PolicyModel; counter: TokenCounter; produced: Message; input: number; index: number },
): Message[] {
  const { model, counter, produced, input, index } = context;
  const summary = Math.min(TEXT_CHECKPOINT_MAX_TOKENS, summaryTokens(input));
  const cost = summarizerCost(model, input);
  run.compactions += 1;
  run.compactedTokens += input - summary;
  run.inputTokens += input;
  run.summarizerTokens = (run.summarizerTokens ?? 0) + input;
  run.cost = addCost(run.cost, cost);
  if (run.summarizerCost !== undefined) run.summarizerCost = addCost(run.summarizerCost, cost);
  if (produced.role !== 'assistant') return [produced];
  const part = { type: 'compaction' as const, providerData: TEXT_CHECKPOINT_PRODUCER };
  const line: Message = { role: 'summary', content: fillerOf(summary, counter), episodes: { from: 0, to: 1 }, checkpoint: { message: index } };
  return [{ ...produced, content: [part, ...produced.content] }, line];
}

/** Text of about `tokens` tokens by `counter`: the size of the summary, whose words do not matter here. */
function fillerOf(tokens: number, counter: TokenCounter): string {
  const unit = 'fact noted; ';
  const per = Math.max(1, counter.countText(unit.repeat(100)) / 100);
  return unit.repeat(Math.max(1, Math.round(tokens / per)));
}

/** USD of a summarizer call that reads `input` tokens uncached and writes a text checkpoint, priced as `model`. */
function summarizerCost(model: PolicyModel, input: number): number | undefined {
  const pricing = model.pricing;
  const summary = Math.min(TEXT_CHECKPOINT_MAX_TOKENS, summaryTokens(input));
  return pricing ? (input * pricing.input + summary * pricing.output) / 1e6 : undefined;
}
