/**
 * The summary of evicted episodes, as the packer sends it. Summaries are summary
 * lines of the transcript (written by the agent loop when a background summarizer
 * is done), so a pack stays a pure function of the transcript and its state. The
 * text sent for an evicted middle chains the lines that cover it from its start,
 * in order; it only grows when a new line arrives (the text before is kept), and a
 * line that covers the same episodes as an earlier one does not replace it.
 */
import type { Message, SummaryMessage, UserMessage } from '../message/message.js';
import type { TokenCounter } from '../tokens/token-counter.js';

/** Episodes the packer evicted that no summary line covers yet: what to summarize next. */
export interface SummaryRequest {
  /** `from` inclusive, `to` exclusive, numbered as `splitEpisodes` numbers them. */
  episodes: { from: number; to: number };
  /** The summary of the evicted episodes just before `from`, for context. */
  previousSummary: string | undefined;
}

/** A chain of summary lines from an evicted middle's first episode. */
export interface SummaryChain {
  /** The first episode the chain does not cover. */
  to: number;
  text: string;
}

const SUMMARY_HEADING = '[Summary of earlier episodes that are left out here]';

/** Summary messages by text, least recently used first; one per live session is enough. */
const summaryMessages = new Map<string, UserMessage>();
const MAX_SUMMARY_MESSAGES = 256;

/** The user message that carries a summary: the same object for the same text, so its count and fingerprint stay cached. */
export function summaryMessage(text: string): UserMessage {
  let message = summaryMessages.get(text);
  if (message) summaryMessages.delete(text);
  else message = { role: 'user', content: `${SUMMARY_HEADING}\n${text}`, summary: true };
  summaryMessages.set(text, message);
  if (summaryMessages.size > MAX_SUMMARY_MESSAGES) summaryMessages.delete(summaryMessages.keys().next().value as string);
  return message;
}

/** Summary lookups for one pack: the transcript's summary lines, chains memoized. */
export class Summaries {
  private readonly records: SummaryMessage[] = [];
  private readonly chains = new Map<string, SummaryChain | undefined>();

  constructor(
    messages: readonly Message[],
    private readonly counter: TokenCounter,
  ) {
    // A checkpoint summary stands for a compaction (compaction-cut.ts), not for evicted episodes.
    for (const message of messages) if (message.role === 'summary' && message.checkpoint === undefined) this.records.push(message);
  }

  /** The chain that starts at episode `from` and ends at or before `limit`. */
  chain(from: number, limit: number): SummaryChain | undefined {
    const key = `${from}:${limit}`;
    if (this.chains.has(key)) return this.chains.get(key);
    const texts: string[] = [];
    let to = from;
    for (;;) {
      let best: SummaryMessage | undefined;
      for (const record of this.records) {
        const range = record.episodes;
        if (range.from === to && range.to <= limit && range.to > (best?.episodes.to ?? to)) best = record;
      }
      if (!best) break;
      texts.push(best.content);
      to = best.episodes.to;
    }
    const chain = texts.length > 0 ? { to, text: texts.join('\n\n') } : undefined;
    this.chains.set(key, chain);
    return chain;
  }

  /** Tokens of the summary message for the middle `[from, limit)`, 0 when no line covers its start. */
  tokens(from: number, limit: number): number {
    if (limit <= from) return 0;
    const chain = this.chain(from, limit);
    return chain ? this.counter.countMessage(summaryMessage(chain.text)) : 0;
  }

  /** What to summarize when the middle `[from, limit)` is evicted, or undefined when it is covered. */
  request(from: number, limit: number): SummaryRequest | undefined {
    if (limit <= from) return undefined;
    const chain = this.chain(from, limit);
    const covered = chain?.to ?? from;
    return covered < limit ? { episodes: { from: covered, to: limit }, previousSummary: chain?.text } : undefined;
  }
}
