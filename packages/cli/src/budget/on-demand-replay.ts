/**
 * On-demand compaction in the context-policy replay (`context-policies.ts`), as the agent
 * runs it (`OnDemandCompactor` in core) and as Anthropic bills it. Facts from
 * docs/providers.md, "On-demand compaction" (the *Compaction on demand*, *Compaction that
 * keeps recent turns* and *Compaction in the background* pages, read 2026-12-05):
 *
 * - Trigger: at a user boundary (an episode finished, before the next user message),
 *   once the last call's input plus output passed the threshold (80% of the budget), the
 *   agent asks for a summary of everything before the last `keepTurns` episodes (default
 *   2), cut after a finished answer (core's `chooseCut`).
 * - The compaction request is a request of its own, "billed and rate-limited like any
 *   other request": it sends the conversation up to the cut, packed as the calls are, with
 *   the same system prompt and tools and cache breakpoints, so it reads from the cache
 *   the prefix it shares with the call before it and writes the rest (Anthropic); its
 *   output is the summary (1% of its input, 500 to 4,000 tokens, as the threshold kind).
 *   The summarizer's own thinking is not modelled (unknown), nor is a failed compaction.
 * - Background (default): the request runs while the conversation goes on on its full
 *   history; the block is swapped in at the first user boundary after it arrived. A
 *   compaction is modelled to take {@link ON_DEMAND_REPLAY_SECONDS} (an assumption, not a
 *   measurement); by the recorded times, a user who answers sooner gets one more episode on
 *   the full history, and the swap lands at the boundary after it. Without recorded times
 *   the answer is there at the next user message. When the last call filled the budget,
 *   the boundary waits for the answer; `background: false` always waits.
 * - The swap: an assistant message holding the block (it names how many transcript
 *   messages it stands for) joins the transcript at the boundary; every later call sends
 *   the block first, then the kept turns and the new ones word for word. That changes the
 *   prefix right after the system prompt and tools: the next call writes everything after
 *   them to the cache again. Sending the block back costs nothing beyond its tokens.
 */
import {
  type AssistantMessage,
  isEpisodeStart,
  type Message,
  type ModelRef,
} from '@episodic/core';
import { chooseCut, DEFAULT_KEEP_TURNS } from '@episodic/core/internal';
import { messagesAfterCompaction } from '@episodic/core/packing';

/** How long a compaction request is modelled to take, in seconds (an assumption: see the module comment). */
export const ON_DEMAND_REPLAY_SECONDS = 60;

/** On-demand compaction as an agent configures it (`nativeContext.compaction`). */
export interface OnDemandOptions {
  /** Episodes kept word for word after the summary; default 2. */
  keepTurns?: number;
  /** The request runs while the conversation goes on; default true. */
  background?: boolean;
  /** How long a compaction request takes, for the background swap; default {@link ON_DEMAND_REPLAY_SECONDS}. */
  seconds?: number;
}

/** What the replay asks at a user boundary. */
export interface Boundary {
  /** The transcript at the boundary (ends with a finished episode). */
  transcript: readonly Message[];
  /** Input plus output tokens of the last call (0 right after a swap). */
  last: number;
  threshold: number;
  budget: number;
  /** When the episode ended and when the next user message came (ms), if recorded. */
  endedAt: number | undefined;
  userAt: number | undefined;
}

/** A compaction request the boundary sends: billed by the replay, which returns the summary's size. */
export type CompactionBill = (cut: number) => number;

interface Pending {
  cut: number;
  summary: number;
  startedAt: number | undefined;
  /** Started at an earlier boundary than the one it is swapped in at. */
  late: boolean;
}

/** One replay's on-demand compactions: at most one in flight, swapped in at user boundaries. */
export class OnDemandReplay {
  private pending: Pending | undefined;
  private readonly keepTurns: number;
  private readonly background: boolean;
  private readonly waitMs: number;
  /** Swaps that landed one or more episodes after their request (background only). */
  lateSwaps = 0;

  constructor(
    private readonly model: ModelRef,
    options: OnDemandOptions = {},
  ) {
    this.keepTurns = Math.max(0, Math.floor(options.keepTurns ?? DEFAULT_KEEP_TURNS));
    this.background = options.background ?? true;
    this.waitMs = (options.seconds ?? ON_DEMAND_REPLAY_SECONDS) * 1000;
  }

  /**
   * The compactor's turn at a user boundary: starts a compaction when the last call passed
   * the threshold (billed through `bill`), and returns the message to append at the
   * boundary when an answer is swapped in here.
   */
  atBoundary(boundary: Boundary, bill: CompactionBill): AssistantMessage | undefined {
    const { transcript, last, threshold, budget, endedAt, userAt } = boundary;
    if (this.pending) this.pending.late = true;
    else if (last >= threshold) {
      const cut = chooseCut(transcript, this.keepTurns, this.model);
      if (cut !== undefined) this.pending = { cut, summary: bill(cut), startedAt: endedAt, late: false };
    }
    const pending = this.pending;
    if (!pending) return undefined;
    // Without recorded times the answer is modelled as there by the next user message.
    const at = userAt ?? endedAt;
    const elapsed = pending.startedAt === undefined || at === undefined ? Number.POSITIVE_INFINITY : at - pending.startedAt;
    const waits = !this.background || last >= budget;
    if (!waits && elapsed < this.waitMs) return undefined;
    this.pending = undefined;
    if (pending.late) this.lateSwaps += 1;
    return this.block(pending);
  }

  /** The stored answer: an assistant message holding the signed block, naming the messages it stands for. */
  private block(pending: Pending): AssistantMessage {
    return {
      role: 'assistant',
      content: [
        {
          type: 'compaction',
          tokens: pending.summary,
          text: `summary of the first ${pending.cut} messages`,
          summarizedMessages: pending.cut,
          providerData: { provider: this.model.provider, model: this.model.id, block: { type: 'compaction' } },
        },
      ],
    };
  }
}

/**
 * Where a user boundary lies between the call that produced `messages[from]` and the one
 * that produces `messages[to]`: the index of the first person-typed user message between
 * them, or undefined when the calls belong to one episode.
 */
export function boundaryBetween(messages: readonly Message[], from: number, to: number): number | undefined {
  for (let index = from + 1; index < to; index += 1) if (isEpisodeStart(messages[index] as Message)) return index;
  return undefined;
}

/** True when `message` holds an on-demand compaction (it names the messages it stands for). */
function holdsOnDemand(message: Message): boolean {
  return message.role === 'assistant' && message.content.some((part) => part.type === 'compaction' && typeof part.summarizedMessages === 'number');
}

/**
 * What the compaction request for the messages before `cut` packs (core's
 * `compactionRequest`): the transcript as a call to `model` sends it (an earlier block
 * first, in place of what it stands for) without the kept messages, and the first kept
 * user message (`opener`, none when nothing is kept), packed after them so they go as past
 * episodes, then taken off what is sent.
 */
export function compactionMessages(
  transcript: readonly Message[],
  cut: number,
  model: ModelRef,
): { messages: Message[]; opener: Message[] } {
  const kept = new Set(transcript.slice(cut));
  const { messages: view } = messagesAfterCompaction(transcript, model);
  const next = transcript[cut];
  return {
    messages: view.filter((message) => !kept.has(message) || holdsOnDemand(message)),
    opener: next !== undefined && isEpisodeStart(next) ? [next] : [],
  };
}
