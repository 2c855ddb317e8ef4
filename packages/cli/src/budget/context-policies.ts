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
 * - On-demand compaction (`compaction: 'on-demand'`, Anthropic `compact-2026-09-04`, what
 *   `native` and `hybrid` use on the models whose profile says `onDemand`): in place of the
 *   threshold pass, a compaction request of its own at a user boundary, swapped in at a
 *   later one; on-demand-replay.ts states how it is triggered, billed and cached.
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
import { boundaryBetween, compactionMessages, OnDemandReplay } from './on-demand-replay.js';
import type { CheckpointKind, PolicyModel, PolicyRun } from './policy-run.js';

export type { CheckpointKind, CompactionKind, OnDemandRun, PolicyModel, PolicyRun } from './policy-run.js';

/** When a recorded message was made (ms since the epoch), if its session recorded it. */
function timeOf(message: Message): number | undefined {
  const stamp = (message as { timestamp?: unknown }).timestamp;
  const at = typeof stamp === 'number' ? stamp : typeof stamp === 'string' ? Date.parse(stamp) : Number.NaN;
  return Number.isFinite(at) ? at : undefined;
}

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

/** What every request of one replay is packed and billed with. */
interface ReplayContext {
  model: PolicyModel;
  policy: ContextPolicy;
  counter: TokenCounter;
  system: string | undefined;
  tools: readonly ToolSpec[] | undefined;
  /** Tokens of the system prompt and tools: the stable prefix, cached with what follows. */
  fixed: number;
  billing: BilledView;
}

/** The packer's options for a request of this replay (the policy's retention, caps and packing). */
function packOptions(
  context: ReplayContext,
  messages: readonly Message[],
  state: PackState | undefined,
  now: number | undefined,
): PackOptions {
  const { model, policy, counter, system, tools } = context;
  const native = policy === 'native';
  return {
    messages,
    system,
    ...(tools ? { tools } : {}),
    budget: model.budget,
    tokenizer: counter,
    retention: native ? 'all' : 'episode',
    state,
    ...(native ? {} : (model.packing ?? {})),
    // What an agent sends: a cut result's marker names the reader tool (cutResults: 'readable').
    ...(native ? {} : packingWithReader('readable', model.budget, {})),
    ...(now === undefined ? {} : { now }),
    ...(native ? { toolResultCap: model.budget, currentToolResultCap: model.budget } : {}),
  };
}

/**
 * A packed request as billed: its messages as sent (`sent`, after the binding check), the
 * input tokens and of those the ones read from the cache (the messages it shares from the
 * start with `previous`, with the system prompt and tools; none once the cache lapsed).
 */
function billRequest(
  context: ReplayContext,
  packed: ReturnType<typeof packContext>,
  sending: readonly Message[],
  previous: readonly string[],
  lapsed: boolean,
): { sent: string[]; input: number; hit: number } {
  const { model, counter, billing, fixed } = context;
  const billed = billing.of(sending);
  const sent = billed.messages.map((message) => JSON.stringify(message));
  let same = 0;
  while (same < sent.length && same < previous.length && sent[same] === previous[same]) same += 1;
  const reused = fixed + billed.tokens.slice(0, same).reduce((sum, tokens) => sum + tokens, 0);
  const packedTokens = packed.messages.reduce((sum, message) => sum + counter.countMessage(message), 0);
  const input = packed.stats.tokens.total - packedTokens + billed.messageTokens;
  return { sent, input, hit: lapsed ? 0 : Math.min(input, cached(model, reused)) };
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
  const tools = session.tools && session.tools.length > 0 ? session.tools : undefined;
  const fixed = (session.system ? counter.countSystem(session.system) : 0) + (tools ? counter.countTools(tools) : 0);
  const billing = new BilledView(counter, model.pastReasoning ?? 'billed', model.boundReasoning);
  const context: ReplayContext = { model, policy, counter, system: session.system, tools, fixed, billing };
  const compactAt = Math.floor(model.budget * DEFAULT_COMPACTION_SHARE);
  const run = emptyRun(model, policy, checkpoints);
  // On demand (where the model has it) in place of the threshold pass; text checkpoints keep the threshold's model.
  const onDemand =
    policy !== 'packer' && checkpoints === 'native' && model.compaction === 'on-demand' ? new OnDemandReplay(model.model, model.onDemand) : undefined;
  if (onDemand) {
    const requestCost = model.pricing ? 0 : undefined;
    run.onDemand = { requestTokens: 0, requestCachedTokens: 0, requestCost, lateSwaps: 0, swapWriteTokens: 0 };
  }
  let state: PackState | undefined;
  let previous: string[] = [];
  let previousAt: number | undefined;
  // Input plus output of the last call (what the next one sends, the compactor's trigger), and where it was.
  let lastCall = 0;
  let lastIndex: number | undefined;
  let swapped = false;
  const bound = billing.boundReasoning ? new BoundReplay() : undefined;
  for (let index = 1; index < messages.length; index += 1) {
    if ((messages[index] as Message).role !== 'assistant') continue;
    const at = onDemand && lastIndex !== undefined ? boundaryBetween(messages, lastIndex, index) : undefined;
    if (onDemand && at !== undefined) {
      const block = onDemand.atBoundary(
        {
          transcript: messages.slice(0, at),
          last: lastCall,
          threshold: compactAt,
          budget: model.budget,
          endedAt: timeOf(messages[at - 1] as Message),
          userAt: timeOf(messages[at] as Message),
        },
        (cut) => billOnDemand(run, context, { transcript: messages.slice(0, at), cut, previous }),
      );
      if (block) {
        // The swap: the block joins the transcript at the boundary; every later call sends it first.
        messages.splice(at, 0, block);
        index += 1;
        lastCall = 0;
        swapped = true;
        bound?.reset();
      }
    }
    const produced = messages[index] as Message;
    lastIndex = index;
    const { messages: view } = messagesAfterCompaction(messages.slice(0, index), model.model);
    let packed: ReturnType<typeof packContext>;
    const now = timeOf(produced);
    const ttl = model.packing?.cacheTtlMs;
    const lapsed = ttl !== undefined && now !== undefined && previousAt !== undefined && now - previousAt >= ttl;
    if (now !== undefined) previousAt = now;
    try {
      packed = packContext(packOptions(context, view, state, now));
    } catch {
      run.skipped += 1;
      continue;
    }
    state = packed.state;
    if (packed.stats.evictedNow) run.evictingCalls += 1;
    // As billed: reasoning the provider strips is neither counted nor part of the cached prefix.
    const { sent, input, hit } = billRequest(context, packed, bound ? bound.apply(packed.messages) : packed.messages, previous, lapsed);
    run.calls += 1;
    run.inputTokens += input;
    run.cachedTokens += hit;
    run.cost = addCost(run.cost, price(model, input, hit));
    if (swapped && run.onDemand) run.onDemand.swapWriteTokens += input - hit;
    swapped = false;
    previous = sent;
    lastCall = input + counter.countMessage(produced);
    if (policy === 'packer' || onDemand || input <= compactAt) continue;
    if (checkpoints === 'text') {
      // The compacting message, then the checkpoint line beside it (the loop passes over the line).
      messages.splice(index, 1, ...textCheckpoint(run, { model, counter, produced, input, index }));
      // A compaction starts a new prefix, whichever checkpoint the calls after it continue from.
      bound?.reset();
      continue;
    }
    thresholdCompaction(run, context, { messages, index, produced, input });
    previous = [];
    bound?.reset();
  }
  run.boundDropped = bound?.dropped ?? 0;
  if (run.onDemand && onDemand) run.onDemand.lateSwaps = onDemand.lateSwaps;
  return run;
}

/** A run with nothing replayed yet. */
function emptyRun(model: PolicyModel, policy: ContextPolicy, checkpoints: CheckpointKind): PolicyRun {
  return {
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
}

/**
 * The provider's threshold pass on the call at `index`: the call above wrote the summary,
 * a second pass answers from the system prompt and the summary, uncached; the message
 * then carries the compaction part, which cuts the history of every later call.
 */
function thresholdCompaction(
  run: PolicyRun,
  context: ReplayContext,
  { messages, index, produced, input }: { messages: Message[]; index: number; produced: Message; input: number },
): void {
  const { model, fixed } = context;
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
  if (produced.role === 'assistant') messages[index] = { ...produced, content: [part, ...produced.content] };
}

/**
 * An on-demand compaction request (on-demand-replay.ts): the messages before `cut` as a
 * call sends them (an earlier block first), packed as the calls are, billed as a request
 * of its own (the prefix it shares with the call before it read from the cache, the rest
 * written) plus its summary as output. Returns the summary's size.
 */
function billOnDemand(
  run: PolicyRun,
  context: ReplayContext,
  { transcript, cut, previous }: { transcript: readonly Message[]; cut: number; previous: readonly string[] },
): number {
  const { model } = context;
  // As core's compactionRequest: the summarized messages packed before the first kept user message (so
  // they go as the conversation's calls sent them), which is then taken off.
  const { messages, opener } = compactionMessages(transcript, cut, model.model);
  const packed = packContext(packOptions(context, [...messages, ...opener], undefined, undefined));
  const sent = packed.messages.slice(0, packed.messages.length - opener.length);
  // Sent right after the call before it: the cache is warm.
  const { input, hit } = billRequest(context, packed, sent, previous, false);
  const summary = summaryTokens(input);
  const output = model.pricing ? (summary * model.pricing.output) / 1e6 : undefined;
  const cost = addCost(price(model, input, hit), output);
  run.compactions += 1;
  run.compactedTokens += input - summary;
  run.inputTokens += input;
  run.cachedTokens += hit;
  run.cost = addCost(run.cost, cost);
  if (run.checkpointCost !== undefined) run.checkpointCost = addCost(run.checkpointCost, summarizerCost(model, input));
  if (run.onDemand) {
    run.onDemand.requestTokens += input;
    run.onDemand.requestCachedTokens += hit;
    run.onDemand.requestCost = addCost(run.onDemand.requestCost, cost);
  }
  return summary;
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
