/**
 * What one run of the loop works with, built once when the run starts and only read
 * after: the run's settings, the session it runs on, and what the run adds to them
 * (the durable episode, the approvals it waits on, the offer of the reader of cut
 * results). The loop never assigns to the session or settings it is handed; what
 * differs per run lives here instead.
 */
import type { LoopApprovals } from './approvals.js';
import type { UserMessage } from '../message/message.js';
import type { LoopSession, LoopSettings, ReaderOffer } from './loop-types.js';
import { DurableEpisode } from './durable/durable-episode.js';
import { cutResultOffer } from './cut-results/cut-result-offer.js';

/** One run's context (see the module comment). */
export interface RunContext {
  /** The run's settings: the caller's, with durable tools run one at a time under a durable run. */
  readonly settings: LoopSettings;
  readonly session: LoopSession;
  /** The episode a durable run replays against what the store holds; undefined outside one. */
  readonly durable: DurableEpisode | undefined;
  /** Decisions on calls that need approval (durable waits under a durable run); none when undefined. */
  readonly approvals: LoopApprovals | undefined;
  /** Offers the reader of cut results to the calls that need it; undefined when the run has no reader. */
  readonly reader: ReaderOffer | undefined;
}

/**
 * The context of a run of `session` for `input` (undefined: a resumed episode). A
 * durable run rewinds the session to the episode's start, makes tools steps (one at a
 * time, so a replay meets its steps in recorded order) and approvals durable waits.
 */
export function startRun(settings: LoopSettings, session: LoopSession, input: UserMessage | undefined): RunContext {
  const messages = () => session.writer.messages;
  if (!settings.durable) {
    const reader = cutResultOffer(settings, messages);
    return { settings, session, durable: undefined, approvals: session.approvals, reader };
  }
  const durable = new DurableEpisode(settings.durable, session.id, session.writer.messages, input);
  const { secrets } = settings;
  const redact = secrets ? (text: string) => secrets.redact(text) : undefined;
  const approvals = durable.approvals(session.approvals);
  const run: LoopSettings = { ...settings, tools: durable.tools(settings.tools, redact), maxConcurrency: 1 };
  // The reader of cut results reads this session's transcript, a durable step of the run.
  const reader = cutResultOffer(run, messages, durable);
  return { settings: run, session, durable, approvals, reader };
}

/** The settings of a call or tool batch: the run's, with the reader of cut results among the tools once it is offered. */
export function offeredSettings(run: RunContext): LoopSettings {
  return run.reader?.offer(run.settings, run.session.writer.messages) ?? run.settings;
}
