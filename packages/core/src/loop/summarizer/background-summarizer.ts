/**
 * Summaries of evicted episodes, written off the call path. When a pack evicts
 * episodes that no summary line covers, the loop hands the request to the session's
 * summarizer, which asks a model in the background; the loop appends the finished
 * summary as a summary line before its next model call, and the packer sends it from
 * then on. A call never waits for a summary. A summary lost to a crash is asked for
 * again: the next pack of the reopened session requests the same episodes.
 */
import { EpisodicError } from '../../errors/episodic-error.js';
import {
  assistantText,
  type ModelMessage,
  type ModelRef,
  type SummaryMessage,
} from '../../message/message.js';
import type { ModelAdapter } from '../../model/model-adapter.js';
import { generate } from '../../model/model-response.js';
import type { AgentEventHandler } from '../agent-events.js';
import type { Message } from '../../message/message.js';
import { estimateCost } from '../../model/usage-totals.js';
import type { ModelCallSettings } from '../model-call.js';
import { summaryInput } from '../../packing/pack-context.js';
import type { SummaryRequest } from '../../packing/pack-summary.js';
import type { WarningEvent } from '../../reasoning/reasoning-events.js';
import { cutMiddle, renderForSummary } from './summary-text.js';

export { renderForSummary } from './summary-text.js';

/** `summarizer` of an agent: who writes the summaries of evicted episodes. */
export interface SummarizerOptions {
  /** The model that writes summaries. Default: the agent's own; a cheaper one does fine. */
  model?: ModelAdapter;
  /** Most output tokens of one summary. Default 1,000. */
  maxOutputTokens?: number;
  /** The summarizer's system prompt. Default: {@link DEFAULT_SUMMARY_INSTRUCTIONS}. */
  instructions?: string;
  /** Most characters of conversation sent in one request (its middle is cut beyond). Default 400,000. */
  maxInputCharacters?: number;
  /**
   * Text summaries of the provider's opaque compactions (OpenAI's `compaction` item),
   * written in the background beside them so that another model can go on from them
   * (portable checkpoints, see the README). Default true; without `summarizer` they are
   * written in the background only when the agent has a fallback chain, and on demand.
   */
  checkpoints?: boolean;
}

/** The default system prompt of the summarizer. */
export const DEFAULT_SUMMARY_INSTRUCTIONS =
  'You summarize part of a conversation between a user and an AI agent that uses tools, for the agent ' +
  'itself: the earlier episodes no longer fit its context. Keep what the agent will need later: the ' +
  "user's goals and decisions, facts found (file names, commands, errors, numbers), what was done and " +
  'what is still open. Be dense and factual, no preamble. Write only the summary of the new episodes: ' +
  'it is appended to the earlier summary.';

const rangeKey = (request: SummaryRequest) => `${request.episodes.from}:${request.episodes.to}`;

/** One session's summarizer: at most one summary in flight, results kept until the loop appends them. */
export class BackgroundSummarizer {
  private inFlight: Promise<void> | undefined;
  private readonly done: SummaryMessage[] = [];
  private readonly warnings: WarningEvent[] = [];
  /** Ranges whose summary failed: not asked for again by this session object. */
  private readonly failed = new Set<string>();

  constructor(
    private readonly options: SummarizerOptions,
    private readonly model: ModelAdapter,
  ) {}

  /**
   * Starts summarizing `request` in the background, unless a summary is in flight or
   * this range failed before. `context` is what the pack that made the request got
   * (the evicted episodes go to the summarizer in their packed form). Never throws.
   */
  request(request: SummaryRequest, context: ModelCallSettings & { messages: readonly Message[] }): void {
    const key = rangeKey(request);
    if (this.inFlight || this.failed.has(key)) return;
    const { messages, system, budget, retention, tokenizer } = context;
    const input = () => summaryInput({ ...context.pack, messages, system, budget, retention, tokenizer }, request);
    this.inFlight = this.summarize(request, input)
      .catch((error: unknown) => {
        this.failed.add(key);
        const raw = EpisodicError.isInstance(error) || error instanceof Error ? error.message : String(error);
        // The warning is emitted and may be logged: without the agent's secrets (the adapter took out only its own key).
        const reason = context.secrets ? context.secrets.redact(raw) : raw;
        this.warnings.push({
          type: 'warning',
          step: 0,
          code: 'summary-failed',
          message: `The summary of episodes ${request.episodes.from} to ${request.episodes.to - 1} failed (${reason}); those episodes stay left out without one. A reopened session asks again.`,
        });
      })
      .finally(() => {
        this.inFlight = undefined;
      });
  }

  /** Finished summary lines (to append to the transcript) and warnings, each handed out once. */
  take(): { lines: SummaryMessage[]; warnings: WarningEvent[] } {
    return { lines: this.done.splice(0), warnings: this.warnings.splice(0) };
  }

  /** Waits for the summary in flight, if any (for tests and shutdown; the loop never waits). */
  async settle(): Promise<void> {
    await this.inFlight;
  }

  private async summarize(request: SummaryRequest, input: () => readonly ModelMessage[]): Promise<void> {
    const previous = request.previousSummary ? `Summary so far:\n${request.previousSummary}\n\n` : '';
    const conversation = cutMiddle(renderForSummary(input()), this.options.maxInputCharacters ?? 400_000);
    const response = await generate(this.model, {
      system: this.options.instructions ?? DEFAULT_SUMMARY_INSTRUCTIONS,
      messages: [{ role: 'user', content: `${previous}Episodes to summarize:\n${conversation}` }],
      maxOutputTokens: this.options.maxOutputTokens ?? 1_000,
    });
    const text = assistantText(response.message).trim();
    if (!text) throw new EpisodicError('summary_empty', 'the summarizer answered with no text');
    const model: ModelRef = response.message.model ?? this.model.model;
    // Priced with the summarizer's own model, which is often cheaper than the agent's.
    const pricing = this.model.profile?.pricing;
    const usage = pricing ? { ...response.usage, costUsd: estimateCost(response.usage, pricing) } : response.usage;
    this.done.push({ role: 'summary', content: text, episodes: { ...request.episodes }, model, usage });
  }
}

/**
 * At a safe point of the loop (before a model call, at the end of an episode): hands
 * the finished summary lines to `append` and emits the summarizer's warnings.
 */
export async function appendFinishedSummaries(
  session: {
    summarizer?: FinishedSummaries | undefined;
    checkpoints?: (FinishedSummaries & { request(messages: readonly Message[]): void }) | undefined;
    emit: AgentEventHandler;
    writer?: { readonly messages: readonly Message[] };
  },
  append: (lines: SummaryMessage[]) => Promise<void>,
): Promise<void> {
  // A compaction just saved gets its text summary started here, off the call path (checkpoint-summaries.ts).
  if (session.writer) session.checkpoints?.request(session.writer.messages);
  const lines: SummaryMessage[] = [];
  // Summaries of evicted episodes, then the text summaries of compactions (checkpoint-summaries.ts).
  for (const source of [session.summarizer, session.checkpoints]) {
    if (!source) continue;
    const taken = source.take();
    for (const warning of taken.warnings) session.emit(warning);
    lines.push(...taken.lines);
  }
  if (lines.length > 0) await append(lines);
}

/** Summaries written off the call path, handed out once for the loop to append. */
export interface FinishedSummaries {
  take(): { lines: SummaryMessage[]; warnings: WarningEvent[] };
}
