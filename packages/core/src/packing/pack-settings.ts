/**
 * The packer's settings and the per-message work behind them: defaults resolved
 * and checked once per pack, tool-result caps, the counting done when a message is
 * appended, and the check that a new message can be packed at all.
 */
import { ContextOverflowError, InvalidArgumentError } from '../errors/input-errors.js';
import type { Message, ToolSpec } from '../message/message.js';
import { type EpisodeContext, type PackedEpisode, packEpisode } from './pack-episode.js';
import type { PackOptions } from './pack-types.js';
import { packedFormsFor } from './packed-forms.js';
import { boundsOf, createTokenCounter, FRAMING, type TokenCounter } from '../tokens/token-counter.js';

let defaultCounter: TokenCounter | undefined;

/** The counter used when none is given: o200k_base, created on first use. */
export function defaultTokenCounter(): TokenCounter {
  defaultCounter ??= createTokenCounter();
  return defaultCounter;
}

/** Counts a context exactly as the packer does: system + tools + messages + reply priming. */
export function countContext(
  counter: TokenCounter,
  context: { system?: string | undefined; tools?: readonly ToolSpec[] | undefined; messages: readonly Message[] },
): number {
  let total = counter.calibration.apply(FRAMING.reply);
  if (context.system) total += counter.countSystem(context.system);
  if (context.tools && context.tools.length > 0) total += counter.countTools(context.tools);
  for (const message of context.messages) total += counter.countMessage(message);
  return total;
}

/** Share of the budget a head may take (see `pack-layout.ts`); tuned on the packer benchmark. */
const DEFAULT_HEAD_SHARE = 0.35;

/**
 * Share of the budget an eviction (or a cut of an overlong current episode) brings the
 * context down to, so the next calls grow without evicting again (hysteresis). Chosen with
 * the tool-result caps on the session family (see {@link toolResultCaps} and
 * bench/results/packer-family.md); a lower mark keeps less of the recent history after each
 * eviction.
 */
export const DEFAULT_LOW_WATER = 0.5;

/** Settings of one pack, resolved and checked. */
export interface Settings {
  budget: number;
  lowWater: number;
  headShare: number;
  context: EpisodeContext;
  /** Identifies everything a past episode's packed form depends on. */
  pastKey: string;
}

/** Options that decide the packed form of a single message. */
export type MessageFormOptions = Pick<
  PackOptions,
  'budget' | 'tokenizer' | 'toolResultCap' | 'currentToolResultCap' | 'resultReader'
>;

/**
 * {@link MessageFormOptions} with every field named (undefined where unset): a copy made
 * field by field (cheaper than a spread on a hot path) typed so that it compiles only
 * when it passes every option, so one added to `MessageFormOptions` is not dropped there.
 */
export type EveryFormOption = MessageFormOptions & {
  [Option in keyof Required<MessageFormOptions>]: MessageFormOptions[Option] | undefined;
};

/**
 * The default past-episode tool-result cap (see {@link toolResultCaps}): 1% of the budget,
 * at most 900 tokens, but at least 512 (a small source file, read whole) where 512 is at
 * most 4% of the budget, and never under 64.
 */
function defaultPastCap(budget: number): number {
  const floor = Math.min(512, Math.floor(budget * 0.04));
  return Math.max(64, floor, Math.min(900, Math.floor(budget * 0.01)));
}

/**
 * Largest tool result of the current episode by default, in tokens: in the range of the
 * agents users know (Claude Code reads at most 25,000 tokens of a file).
 */
const CURRENT_CAP_LIMIT = 25_000;

/** Share of the budget a current-episode result may take by default: room is left for the rest of the call. */
const CURRENT_CAP_SHARE = 0.25;

/**
 * The default current-episode cap: a quarter of the budget, at most {@link CURRENT_CAP_LIMIT}
 * tokens, never under the past-episode cap.
 */
function defaultCurrentCap(budget: number, pastCap: number): number {
  return Math.max(pastCap, Math.min(CURRENT_CAP_LIMIT, Math.floor(budget * CURRENT_CAP_SHARE)));
}

/** The tool-result caps in force for these options: past episodes' and the current one's, in tokens. */
export function toolResultCaps(options: MessageFormOptions): { pastCap: number; currentCap: number } {
  // The current episode is what the model works on: its results go whole unless they are
  // genuinely large, and are shortened (oldest first, to the past cap) only when room runs
  // out, after every past episode is evicted (see `reduceCurrent` in pack-context.ts). A
  // result cut when it is first sent is read back with the reader of cut results, a model
  // call per slice; the benches and `episodic budget` count those calls (`modelledReads`),
  // and with them a small current cap costs more than it saves (bench/results/packer-family.md).
  // Past episodes keep small results, so evictions are rare and the cached prefix lives
  // longer; a result over the past cap is cut again when its episode ends, a prefix change
  // at the boundary (the benches count it too).
  const pastCap = options.toolResultCap ?? defaultPastCap(options.budget);
  const currentCap = Math.max(options.currentToolResultCap ?? defaultCurrentCap(options.budget, pastCap), pastCap);
  return { pastCap, currentCap };
}

/** Resolves and checks a pack's options; throws {@link InvalidArgumentError}. */
export function resolveSettings(options: PackOptions, counter: TokenCounter): Settings {
  const { budget } = options;
  if (!Number.isFinite(budget) || budget <= 0)
    throw new InvalidArgumentError(`budget must be a positive number of tokens (got ${budget})`);
  const lowWater = options.lowWater ?? DEFAULT_LOW_WATER;
  if (!(lowWater > 0 && lowWater <= 1)) throw new InvalidArgumentError(`lowWater must be in (0, 1] (got ${lowWater})`);
  const headShare = options.headShare ?? DEFAULT_HEAD_SHARE;
  if (!(headShare >= 0 && headShare < lowWater)) {
    throw new InvalidArgumentError(`headShare must be in [0, lowWater) (got ${headShare} with lowWater ${lowWater})`);
  }
  const { pastCap, currentCap } = toolResultCaps(options);
  const retention = options.retention ?? 'episode';
  if (!['episode', 'tool-episodes', 'all', 'none'].includes(retention)) {
    throw new InvalidArgumentError(`retention must be one of episode, tool-episodes, all, none (got ${retention})`);
  }
  return {
    budget: Math.floor(budget),
    lowWater,
    headShare,
    context: {
      messages: options.messages,
      forms: packedFormsFor(counter, options.resultReader),
      counter,
      retention,
      pastCap,
      currentCap,
    },
    pastKey: `${retention}|${pastCap}|${counter.calibration.factor}`,
  };
}

/**
 * Does the tokenizing work for one message ahead of time: its count and the packed
 * forms a later `packContext` with the same options will need (shortened tool
 * results, reasoning-free assistant message). Call it when a message is appended,
 * so the packing call itself only adds up cached numbers.
 */
export function prepareForPacking(message: Message, options: MessageFormOptions): void {
  const counter = options.tokenizer ?? defaultTokenCounter();
  // Ahead-of-time work only: before the tokenizer is loaded it would load it, which the
  // first pack may not need (see pack-bounds.ts); a pack that needs the counts makes them.
  if (boundsOf(counter)) return;
  const forms = packedFormsFor(counter, options.resultReader);
  if (message.role === 'tool') {
    // The larger cap first: its count goes further, and the smaller cap's head and
    // tail come out of the same chunks. A result that is cut is never counted whole.
    const { pastCap, currentCap } = toolResultCaps(options);
    counter.countMessage(forms.tool(message, currentCap));
    counter.countMessage(forms.tool(message, pastCap));
    return;
  }
  counter.countMessage(message);
  if (message.role === 'assistant') {
    forms.reasoningTokens(message);
    const stripped = forms.assistant(message, false);
    if (stripped) counter.countMessage(stripped);
  }
}

/**
 * Leading system messages are folded into the system prompt. System and developer
 * lines further on stay where they are, in the episode they stand in (evicted with
 * it, never cut from the current one), and each adapter places them on its wire.
 */
export function foldSystem(
  messages: readonly Message[],
  system: string | undefined,
): { system: string | undefined; start: number } {
  let start = 0;
  const parts = system ? [system] : [];
  while (start < messages.length && messages[start]?.role === 'system') {
    parts.push(messages[start]?.content as string);
    start += 1;
  }
  return { system: parts.length > 0 ? parts.join('\n\n') : undefined, start };
}

/** A past episode's packed form, packed once per settings (and per reasoning kept hidden or not). */
export function packPast(settings: Settings, start: number, end: number, hiddenReasoning = false): PackedEpisode {
  const { context } = settings;
  const key = hiddenReasoning ? `${settings.pastKey}|hidden` : settings.pastKey;
  return context.forms.pastEpisode(context.messages, start, end, key, () =>
    packEpisode(context, start, end, undefined, hiddenReasoning),
  );
}

/**
 * Throws {@link ContextOverflowError} when `message`, with the system prompt, the
 * tools and the reply priming, does not fit in the budget: a user message that no
 * pack of its episode could hold. The agent loop checks a new user message with it
 * before saving it, so such a message never reaches the transcript.
 */
export function checkMessageFits(
  message: Message,
  options: Pick<PackOptions, 'messages' | 'system' | 'tools' | 'budget' | 'tokenizer'>,
): void {
  const counter = options.tokenizer ?? defaultTokenCounter();
  const { system } = foldSystem(options.messages, options.system);
  const context = { system, tools: options.tools, messages: [message] };
  // Fits by the byte bound (never under the count): no need to load the tokenizer for it.
  const bounds = boundsOf(counter);
  if (bounds && countContext(bounds, context) <= options.budget) return;
  const tokens = countContext(counter, context);
  if (tokens <= options.budget) return;
  const own = counter.countMessage(message);
  throw new ContextOverflowError(
    tokens,
    Math.floor(options.budget),
    `The new ${message.role} message alone takes ${own} tokens, so no call could send it; it was not saved. ` +
      'Send it in smaller parts, or raise the budget.',
  );
}
