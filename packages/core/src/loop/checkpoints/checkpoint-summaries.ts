/**
 * Portable compaction checkpoints. A provider's native compaction (OpenAI's Responses
 * `compaction` item, `encrypted_content`) is readable only by the model and backend
 * that made it. So that a fallback model, a hand-off or another provider can go on
 * from it, Episodic keeps its own text summary of the same compacted range beside it:
 * a summary line whose `checkpoint` names the message that holds the item. The packer
 * sends that text in the item's place to every model that cannot read it
 * (`messagesAfterCompaction`); the model that made it still gets the item.
 *
 * Summaries are written off the call path, like those of evicted episodes, by the
 * agent's summarizer model (or its own), and appended at the loop's next safe point;
 * a call that needs one before it is done gets one made on the spot (checkpoint-call.ts).
 * Anthropic's compaction block carries readable text and needs none.
 */
import { EpisodicError } from '../../errors/episodic-error.js';
import {
  assistantText,
  type CompactionPart,
  type Message,
  type ModelMessage,
  type ModelRef,
  type SummaryMessage,
} from '../../message/message.js';
import { splitEpisodes } from '../../message/episodes.js';
import type { ModelAdapter } from '../../model/model-adapter.js';
import { generate } from '../../model/model-response.js';
import { estimateCost } from '../../model/usage-totals.js';
import { checkpointSummaries } from '../../packing/compaction-cut.js';
import type { WarningEvent } from '../../reasoning/reasoning-events.js';
import type { SecretRedactor } from '../../support/secret-redactor.js';
import { cutMiddle, renderForSummary } from '../summarizer/summary-text.js';

/** What a checkpoint summary takes from the agent's `summarizer` options. */
interface CheckpointSummaryOptions {
  maxOutputTokens?: number | undefined;
  maxInputCharacters?: number | undefined;
}

/** The default system prompt of a checkpoint summary. */
export const DEFAULT_CHECKPOINT_INSTRUCTIONS =
  'You summarize a conversation between a user and an AI agent that uses tools, so that the agent, or another ' +
  'model taking over from it, can go on from your summary alone: everything it covers is no longer sent. Keep ' +
  "what is needed to continue: the user's goals and decisions, facts found (file names, commands, errors, " +
  'numbers), what was done, what is under way and what is still open. Be dense and factual, no preamble. When ' +
  'an earlier summary is given, your summary replaces it: carry over what still matters.';

/** A compaction part whose content only its provider can read: no readable text, and it did not fail. */
export function isOpaqueCompaction(part: { type: string }): part is CompactionPart {
  if (part.type !== 'compaction') return false;
  const compaction = part as CompactionPart;
  return compaction.failed !== true && !(typeof compaction.text === 'string' && compaction.text.length > 0);
}

/** Index of the latest message holding an opaque compaction (see {@link isOpaqueCompaction}), or -1. */
function latestOpaque(messages: readonly Message[], below = messages.length): number {
  for (let index = Math.min(below, messages.length) - 1; index >= 0; index -= 1) {
    const message = messages[index] as Message;
    if (message.role === 'assistant' && message.content.some(isOpaqueCompaction)) return index;
  }
  return -1;
}

/** What one checkpoint summary covers: the messages since the previous checkpoint, and its text. */
interface CheckpointRange {
  at: number;
  previous: string | undefined;
  messages: ModelMessage[];
}

/**
 * The range the compaction in message `at` replaced: everything before it, or, when an
 * earlier compaction has readable text (its own or a checkpoint line), that text and the
 * messages after it (a provider compacts its previous compaction with the rest).
 */
export function checkpointRange(messages: readonly Message[], at: number): CheckpointRange {
  const checkpoints = checkpointSummaries(messages);
  for (let index = at - 1; index >= 0; index -= 1) {
    const message = messages[index] as Message;
    if (message.role !== 'assistant') continue;
    const readable = message.content.find(
      (part): part is CompactionPart => part.type === 'compaction' && part.failed !== true && !isOpaqueCompaction(part),
    );
    const previous = readable?.text ?? checkpoints.get(index);
    if (previous !== undefined) return { at, previous, messages: modelMessages(messages.slice(index, at)) };
  }
  return { at, previous: undefined, messages: modelMessages(messages.slice(0, at)) };
}

function modelMessages(messages: readonly Message[]): ModelMessage[] {
  return messages.filter((message): message is ModelMessage => message.role !== 'summary');
}

/** The episodes a checkpoint line names: from the first up to the one that holds the compaction. */
function episodesUpTo(messages: readonly Message[], at: number): { from: number; to: number } {
  return { from: 0, to: Math.max(1, splitEpisodes(messages.slice(0, at + 1)).length) };
}

/** The provider's id of the item in message `at`, when it has one (checked again on read). */
function itemIdAt(messages: readonly Message[], at: number): string | undefined {
  const message = messages[at];
  if (message?.role !== 'assistant') return undefined;
  const item = message.content.find(isOpaqueCompaction)?.providerData.item as { id?: unknown } | undefined;
  return typeof item?.id === 'string' ? item.id : undefined;
}

/**
 * One session's checkpoint summaries: at most one in the background at a time, finished
 * lines kept until the loop appends them. `background` off writes them only on demand.
 */
export class CheckpointSummarizer {
  private inFlight: { at: number; done: Promise<SummaryMessage | undefined> } | undefined;
  private readonly done: SummaryMessage[] = [];
  private readonly warnings: WarningEvent[] = [];
  /** Compactions whose summary failed in the background: not asked for again by this object. */
  private readonly failed = new Set<number>();
  /** What calls sent in place of a compaction without a summary, already warned about. */
  private readonly warned = new Set<string>();

  constructor(
    private readonly options: CheckpointSummaryOptions,
    private readonly model: ModelAdapter,
    private readonly background: boolean,
    private readonly secrets?: SecretRedactor | undefined,
  ) {}

  /** The latest opaque compaction of `messages` that has no checkpoint line yet (nor one on its way), or undefined. */
  missing(messages: readonly Message[]): number | undefined {
    const at = latestOpaque(messages);
    if (at === -1 || checkpointSummaries(messages).has(at)) return undefined;
    if (this.done.some((line) => line.checkpoint?.message === at)) return undefined;
    return at;
  }

  /** Starts the summary of the latest opaque compaction without one, in the background (when on). Never throws. */
  request(messages: readonly Message[]): void {
    if (!this.background || this.inFlight) return;
    const at = this.missing(messages);
    if (at === undefined || this.failed.has(at)) return;
    const done = this.summarize(messages, at).then(
      (line) => {
        this.done.push(line);
        return line;
      },
      (error: unknown) => {
        this.failed.add(at);
        this.warnings.push({ type: 'warning', step: 0, code: 'checkpoint-summary-failed', message: this.failure(at, error) });
        return undefined;
      },
    );
    this.inFlight = { at, done: done.finally(() => (this.inFlight = undefined)) };
  }

  /**
   * The checkpoint line of the compaction in message `at`, now: the one in flight when
   * it is that one, else a new summary (the caller waits). Kept for the loop to append.
   * Throws when the summarizer fails.
   */
  async summarizeNow(messages: readonly Message[], at: number, signal?: AbortSignal): Promise<SummaryMessage> {
    const kept = this.done.find((line) => line.checkpoint?.message === at);
    if (kept) return kept;
    if (this.inFlight?.at === at) {
      const line = await this.inFlight.done;
      if (line) return line;
    }
    const line = await this.summarize(messages, at, signal);
    this.done.push(line);
    return line;
  }

  /** True the first time this session object sends `sent` in place of the compaction in message `at`: warned once. */
  firstTime(at: number, sent: string): boolean {
    const key = `${at}:${sent}`;
    if (this.warned.has(key)) return false;
    this.warned.add(key);
    return true;
  }

  /** Finished lines (to append to the transcript) and warnings, each handed out once. */
  take(): { lines: SummaryMessage[]; warnings: WarningEvent[] } {
    return { lines: this.done.splice(0), warnings: this.warnings.splice(0) };
  }

  /** Waits for the summary in flight, if any (for tests and shutdown; the loop never waits). */
  async settle(): Promise<void> {
    await this.inFlight?.done;
  }

  /** Why the summary of message `at` failed, without the agent's secrets. */
  failure(at: number, error: unknown): string {
    const raw = EpisodicError.isInstance(error) || error instanceof Error ? error.message : String(error);
    const reason = this.secrets ? this.secrets.redact(raw) : raw;
    return `The text summary of the compaction in message ${at} failed (${reason}); a model that cannot read the compaction gets the messages it replaced instead.`;
  }

  private async summarize(messages: readonly Message[], at: number, signal?: AbortSignal): Promise<SummaryMessage> {
    const range = checkpointRange(messages, at);
    const previous = range.previous ? `Earlier summary:\n${range.previous}\n\n` : '';
    const conversation = cutMiddle(renderForSummary(range.messages), this.options.maxInputCharacters ?? 400_000);
    const response = await generate(this.model, {
      system: DEFAULT_CHECKPOINT_INSTRUCTIONS,
      messages: [{ role: 'user', content: `${previous}Conversation to summarize:\n${conversation}` }],
      maxOutputTokens: this.options.maxOutputTokens ?? 1_000,
    }, signal ? { signal } : {});
    const text = assistantText(response.message).trim();
    if (!text) throw new EpisodicError('summary_empty', 'the summarizer answered with no text');
    const model: ModelRef = response.message.model ?? this.model.model;
    const pricing = this.model.profile?.pricing;
    const usage = pricing ? { ...response.usage, costUsd: estimateCost(response.usage, pricing) } : response.usage;
    const id = itemIdAt(messages, at);
    const checkpoint = id === undefined ? { message: at } : { message: at, id };
    return { role: 'summary', content: text, episodes: episodesUpTo(messages, at), model, usage, checkpoint };
  }
}
