/**
 * The figures of the bound-thinking property (bound-thinking.property.test.ts): each lost
 * last-step thinking with what says whether a plan could have kept it, and what the plan
 * cost the model (history kept at user turns, results as first sent).
 *
 * A step's least form is what appending it takes at the least: its assistant message as it
 * came (thinking and calls cannot be shortened) and each result at the floor cap. Counted
 * here with a fresh counter (no calibration), independently of the packer's own counts.
 */
import { createTokenCounter, type Message } from '@episodic/core';
import type { PackStats } from '@episodic/core/packing';
import type { RecordedRequest } from '../servers/scripted-server.js';

const counter = createTokenCounter();

/** A result at the floor cap (96 tokens) with its message framing: at most this. */
const FLOOR_RESULT_TOKENS = 100;

/**
 * Above the packer's calibration factor on the strict server (which counts a request's
 * JSON characters over 4; the factor stays between 0.9 and 1.6 in these sessions), so a
 * step's results at the floor cap take at most this many times their local count.
 */
const FACTOR_BOUND = 2;

/** One pack of a session: the episode it was made in, its call within it, its stats. */
export interface PackEvent {
  episode: number;
  call: number;
  stats: PackStats;
}

/** An episode's least form: its user message, then each step's. */
interface EpisodeLeast {
  question: number;
  steps: { assistant: number; reasoning: number; results: number[]; least: number; readable: number }[];
}

/**
 * Tokens of a result cut to the reader's marker alone (no line of it kept), the least form
 * in which it stays readable: the marker as shorten.ts writes it, with the result's id.
 */
function markerTokens(toolCallId: string, length: number): number {
  const call = JSON.stringify({ toolCallId, offset: 0 });
  return counter.countText(
    `[... ${length} characters cut from the middle of this tool result (characters 0 to ${length}); to read them call read_cut_result with ${call} ...]`,
  );
}

function leastForms(messages: readonly Message[]): EpisodeLeast[] {
  const episodes: EpisodeLeast[] = [];
  for (const message of messages) {
    if (message.role === 'user') episodes.push({ question: counter.countMessage(message), steps: [] });
    const steps = episodes.at(-1)?.steps;
    if (!steps) continue;
    if (message.role === 'assistant') {
      const reasoning = message.content.reduce((total, part) => total + (part.type === 'reasoning' ? counter.countText(part.text) : 0), 0);
      const assistant = counter.countMessage(message);
      steps.push({ assistant, reasoning, results: [], least: assistant, readable: 0 });
    } else if (message.role === 'tool') {
      const step = steps.at(-1);
      const tokens = counter.countMessage(message);
      step?.results.push(tokens);
      if (step) step.least += Math.min(tokens, FLOOR_RESULT_TOKENS);
      // What cutting it from the floor cap to its marker alone would free.
      const length = typeof message.content === 'string' ? message.content.length : 0;
      if (step) step.readable += Math.max(0, Math.min(tokens, FLOOR_RESULT_TOKENS) - markerTokens(message.toolCallId, length));
    }
  }
  return episodes;
}

/** The least form of an episode's user message and its first `steps` steps. */
const leastUpTo = (episode: EpisodeLeast | undefined, steps: number) =>
  (episode?.question ?? 0) + (episode?.steps.slice(0, steps).reduce((total, step) => total + step.least, 0) ?? 0);

/** A lost last-step thinking and what it tells. */
export interface Loss {
  cause: PackStats['boundCutCause'];
  /**
   * The episode's least form up to the step is larger than every earlier episode's whole
   * least form: nothing this session showed foresaw it.
   */
  unforeseen: boolean;
  budget: number;
  lowWater: number;
  episode: string;
  step: string;
  /** Past episodes and summary sent at the episode's user turn (packer's counts). */
  historyAtTurn: number;
  /** The episode's least form at the user turn (its question) and up to the lost step. */
  leastAtTurn: number;
  leastAtLoss: number;
  /** The largest least form of the session's earlier episodes. */
  earlierLargest: number;
  lostStep: { reasoning: number; assistant: number; results: number[] } | undefined;
  appendTokens: number | undefined;
  /** How far appending, the step's new results at the floor cap, was over the budget (packer's counts). */
  overBy: number;
  /**
   * The most any choice at the lost step itself could have freed and left its results
   * readable: everything before its thinking is bound, so only its new results can change,
   * and cut from the floor cap to the reader's marker alone they free at most this
   * (packer's counts, bounded with {@link FACTOR_BOUND}).
   */
  stepCouldFree: number;
  /** The call before the loss: the packer's total and the server's count of the same request. */
  before: { counted: number; served: number } | undefined;
}

/** The losses of one session: each pack that changed what its bound step's thinking was bound to. */
export function losses(messages: readonly Message[], packs: readonly PackEvent[], requests: readonly RecordedRequest[]): Loss[] {
  const episodes = leastForms(messages);
  const out: Loss[] = [];
  for (const [index, pack] of packs.entries()) {
    if (!pack.stats.boundReasoningCut) continue;
    const episode = episodes[pack.episode];
    const atTurn = packs.find((other) => other.episode === pack.episode && other.call === 0)?.stats;
    const leastAtLoss = leastUpTo(episode, pack.call);
    const earlierLargest = Math.max(0, ...episodes.slice(0, pack.episode).map((earlier) => leastUpTo(earlier, earlier.steps.length)));
    const lost = episode?.steps[pack.call - 1];
    out.push({
      cause: pack.stats.boundCutCause,
      unforeseen: leastAtLoss > earlierLargest,
      budget: pack.stats.budget,
      lowWater: Math.floor(pack.stats.budget / 2),
      episode: `${pack.episode + 1} of ${episodes.length}`,
      step: `${pack.call} of ${episode?.steps.length ?? 0}`,
      historyAtTurn: atTurn ? atTurn.tokens.history + atTurn.tokens.summary : 0,
      leastAtTurn: episode?.question ?? 0,
      leastAtLoss,
      earlierLargest,
      lostStep: lost && { reasoning: lost.reasoning, assistant: lost.assistant, results: lost.results },
      appendTokens: pack.stats.boundAppendTokens,
      overBy: (pack.stats.boundAppendTokens ?? 0) - pack.stats.budget,
      stepCouldFree: (lost?.readable ?? 0) * FACTOR_BOUND,
      // One request per pack: these sessions neither retry nor send anything else to the server.
      before: index > 0 ? { counted: (packs[index - 1] as PackEvent).stats.tokens.total, served: served(requests[index - 1]) } : undefined,
    });
  }
  return out;
}

/** The strict server's count of a request: its system, tools and messages as JSON, characters over 4 (anthropic-server.ts). */
function served(request: RecordedRequest | undefined): number {
  const body = request?.body as { system?: unknown; tools?: unknown; messages?: unknown } | undefined;
  if (!body) return 0;
  const json = JSON.stringify({ s: body.system, t: body.tools, m: body.messages }, (key, item: unknown) => (key === 'cache_control' ? undefined : item));
  return Math.ceil(json.length / 4);
}

/** What the plan left the model: history at user turns, and the newest results as first sent against whole. */
export interface Kept {
  userTurns: number;
  historyAtTurns: number;
  resultsFirstSent: number;
  resultTokensSent: number;
  resultTokensWhole: number;
}

export const newKept = (): Kept => ({ userTurns: 0, historyAtTurns: 0, resultsFirstSent: 0, resultTokensSent: 0, resultTokensWhole: 0 });

/** Adds a session's figures to `kept`: results whole means at the current-episode cap (a quarter of the budget). */
export function addKept(
  kept: Kept,
  budget: number,
  packs: readonly PackEvent[],
  requests: readonly RecordedRequest[],
  messages: readonly Message[],
): void {
  for (const pack of packs) {
    if (pack.call !== 0) continue;
    kept.userTurns += 1;
    kept.historyAtTurns += pack.stats.tokens.history + pack.stats.tokens.summary;
  }
  const whole = new Map<string, number>();
  for (const message of messages)
    if (message.role === 'tool' && typeof message.content === 'string') whole.set(message.toolCallId, counter.countText(message.content));
  const cap = Math.min(25_000, Math.floor(budget / 4));
  const seen = new Set<string>();
  for (const request of requests) {
    const sent = (request.body as { messages: { content: unknown }[] }).messages.at(-1)?.content;
    if (!Array.isArray(sent)) continue;
    for (const block of sent as { type: string; tool_use_id?: string; content?: unknown }[]) {
      if (block.type !== 'tool_result' || !block.tool_use_id || seen.has(block.tool_use_id)) continue;
      seen.add(block.tool_use_id);
      const text = typeof block.content === 'string' ? block.content : JSON.stringify(block.content);
      kept.resultsFirstSent += 1;
      kept.resultTokensSent += counter.countText(text);
      kept.resultTokensWhole += Math.min(whole.get(block.tool_use_id) ?? 0, cap);
    }
  }
}
