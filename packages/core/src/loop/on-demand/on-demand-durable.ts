/**
 * On-demand compaction under a durable runtime (DBOS, Restate, a journal of your own):
 * each compaction request is a step of the episode, so a replay gets the recorded answer
 * and the model is not asked (or billed) again, and nothing about the swap is decided
 * from what only one attempt saw.
 *
 * An episode has two user boundaries, its start (before its user message is saved) and
 * its end. At the start, one step (`stepIds.compaction(…, 'start')`) is taken after every
 * finished episode, whatever the transcript holds (a swap written there before a crash
 * included), so the journal has the same steps on every replay; inside it the
 * compactor decides, from the messages before the episode, whether to ask and where to
 * cut, and records `null` or the answer. In the foreground that step is awaited and its
 * answer swapped in at once; at the end a second step asks again if the episode passed
 * the threshold, and swaps its answer in after the episode's last answer.
 *
 * In the background the start's step runs beside the episode's own steps (a runtime that
 * can, `concurrentSteps`) and is joined at the episode's end, where its answer is swapped
 * in: a step cannot outlive the run that started it, so the next compaction is asked for
 * at the next episode's start rather than at this one's end. A runtime that cannot run
 * steps side by side gets the foreground, and a `compaction-in-foreground` warning says so.
 *
 * A swap writes a recorded answer once: at the start, an answer the store already holds
 * there (written before a crash) is not written again; at the end the replay tail
 * matches it (replay-tail.ts). A crash before a step is recorded asks again on replay
 * (an answer cut off by the crash was never recorded).
 */
import type { AssistantMessage, Message } from '../../message/message.js';
import { onDemandPartOf } from '../../packing/on-demand-cut.js';
import type { WarningEvent } from '../../reasoning/reasoning-events.js';
import type { AgentEventHandler } from '../agent-events.js';
import { type DurableRun, stepIds } from '../durable/durable-runtime.js';
import { asModelError } from '../model-call.js';
import {
  type CompactionCallSettings,
  compactionFailure,
  compactionWarning,
  finished,
  lastCallTokens,
  type OnDemandCompactionSettings,
  requestCompaction,
} from './on-demand-compaction.js';
import { chooseCut, coveredMessages } from './on-demand-request.js';

/** What a compaction step records (JSON): nothing asked (`null`), or the cut with the answer or why there is none. */
export type RecordedCompaction = {
  cut: number;
  message?: AssistantMessage;
  warning?: string;
  /** The cut is not asked for again in this episode (a failed summary, a failure that is not transient). */
  failed?: boolean;
} | null;

/** Where the loop's append and events go at a boundary. */
interface BoundaryIo {
  append: (messages: Message[]) => Promise<void>;
  emit: AgentEventHandler;
}

/** One durable episode's on-demand compactions (see the module comment). */
export class DurableCompactions {
  private pending: Promise<RecordedCompaction> | undefined;
  private failedCut: number | undefined;

  constructor(
    private readonly options: OnDemandCompactionSettings,
    private readonly run: DurableRun,
    private readonly sessionId: string,
  ) {}

  /** Before the episode's user message is saved: the start's step, awaited unless it runs in the background. */
  async atStart(settings: CompactionCallSettings, messages: readonly Message[], io: BoundaryIo): Promise<void> {
    if (!settings.model.compact || !finished(messages)) return;
    const background = this.options.background && this.run.runtime.concurrentSteps === true;
    if (this.options.background && !background) io.emit(foregroundWarning());
    const step = this.step('start', settings, messages);
    // A full budget cannot wait for the episode's end: the next pack would evict what the summary covers.
    if (background && lastCallTokens(messages, settings) < settings.budget) {
      this.pending = step;
      // Joined at the end; a failure of the run itself is raised there (or dies with the episode).
      step.catch(() => {});
      return;
    }
    await this.swap(await step, settings, messages, io);
  }

  /** At the episode's end: the background answer swapped in, or (in the foreground) the end's own step. */
  async atEnd(settings: CompactionCallSettings, messages: readonly Message[], io: BoundaryIo): Promise<void> {
    const pending = this.pending;
    this.pending = undefined;
    if (pending) {
      await this.swap(await pending, settings, messages, io);
      return;
    }
    if (this.options.background && this.run.runtime.concurrentSteps === true) return;
    if (!settings.model.compact || !finished(messages)) return;
    await this.swap(await this.step('end', settings, messages), settings, messages, io);
  }

  /** The compaction step at `at`: whether to ask is decided inside it, so a replay takes the recorded decision. */
  private step(at: 'start' | 'end', settings: CompactionCallSettings, transcript: readonly Message[]): Promise<RecordedCompaction> {
    const { runtime, episode } = this.run;
    // The transcript as it is at the boundary: an engine may run the step after awaits of its
    // own, by when the episode has appended to the loop's array.
    const messages = transcript.slice();
    const ask = async (): Promise<RecordedCompaction> => {
      if (lastCallTokens(messages, settings) < this.options.threshold) return null;
      const cut = chooseCut(messages, this.options.keepTurns, settings.model.model);
      if (cut === undefined || cut === this.failedCut || cut === failedCutOf(messages, settings)) return null;
      try {
        const { message, failure } = await requestCompaction(settings, this.options, messages, cut);
        // JSON, as every step's result is.
        const recorded = JSON.parse(JSON.stringify(message)) as AssistantMessage;
        return failure === undefined ? { cut, message: recorded } : { cut, message: recorded, warning: failure, failed: true };
      } catch (error) {
        // Recorded, not thrown: an engine would run a failed step again and again.
        return { cut, warning: compactionFailure(settings, cut, error), ...(asModelError(error)?.retryable ? {} : { failed: true }) };
      }
    };
    return runtime.step(stepIds.compaction(this.sessionId, episode, at), ask);
  }

  /** Swaps a recorded answer in, once; warns of a recorded failure. */
  private async swap(
    recorded: RecordedCompaction,
    settings: CompactionCallSettings,
    messages: readonly Message[],
    { append, emit }: BoundaryIo,
  ): Promise<void> {
    if (!recorded) return;
    if (recorded.failed) this.failedCut = recorded.cut;
    if (recorded.warning !== undefined) emit(compactionWarning(recorded.warning));
    const { message, cut } = recorded;
    if (!message) return;
    // Stale (a newer compaction is stored, or this very answer, stored before a crash)...
    if (onDemandPartOf(message)?.failed !== true && cut <= coveredMessages(messages, settings.model.model)) return;
    // ...or a failed answer stored at the start before a crash.
    const last = messages.at(-1);
    if (last && JSON.stringify(last.role === 'assistant' ? last.content : undefined) === JSON.stringify(message.content)) return;
    await append([message]);
  }
}

/**
 * The cut of the newest on-demand compaction of the model when it failed (stored for its
 * cost): asked for again only once the cut moved on. Read from the transcript, which a
 * replay has too.
 */
function failedCutOf(messages: readonly Message[], settings: CompactionCallSettings): number | undefined {
  const { provider, id } = settings.model.model;
  for (let index = messages.length - 1; index >= 0; index -= 1) {
    const part = onDemandPartOf(messages[index] as Message);
    if (!part || part.providerData?.provider !== provider || part.providerData?.model !== id) continue;
    return part.failed === true ? part.summarizedMessages : undefined;
  }
  return undefined;
}

/** The warning of a background compaction run in the foreground (the runtime cannot run steps side by side). */
function foregroundWarning(): WarningEvent {
  return {
    type: 'warning',
    step: 0,
    code: 'compaction-in-foreground',
    message:
      'This durable runtime runs one step at a time (it does not say concurrentSteps), so the on-demand compaction asked for in the background runs in the foreground: the episode waits for it.',
  };
}
