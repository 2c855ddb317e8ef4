/**
 * Opening a session: its transcript comes from the store (with the current
 * episode's reasoning sidecar merged back) or from a history the application
 * brings; a configured replay cache then restores reasoning the transcript lacks;
 * whatever the model's retention would send but is still missing becomes a warning.
 */
import type { AgentEvent } from '../loop/agent-events.js';
import { InvalidArgumentError } from '../errors/input-errors.js';
import type { Message, ModelRef } from '../message/message.js';
import type { Retention } from '../message/retention.js';
import type { PackState } from '../packing/pack-types.js';
import type { ApprovalRecord } from '../store/approval-record.js';
import type { ReplayCache } from '../reasoning/replay-cache/replay-cache.js';
import { countMissingReasoning, restoreReasoning } from '../reasoning/replay-cache/replay-restore.js';
import { restoreForeignTraces } from '../reasoning/handoff/handoff-restore.js';
import { ReasoningAtRest } from '../store/reasoning-at-rest.js';
import { mergeSidecar, type PersistReasoning } from '../store/reasoning-sidecar.js';
import { SessionBusyError } from '../errors/session-errors.js';
import type { SessionStore, TornLine } from '../store/session-store.js';
import { copyMessage } from '../message/transcript.js';
import { loadZod } from '../support/zod-loader.js';
import { checkConsistency } from '../message/transcript-consistency.js';

/** What a session starts from. */
export interface OpenedSession {
  messages: Message[];
  packState: PackState | undefined;
  torn: TornLine | undefined;
  /** Events to emit at the start of the next run (load warnings, restored reasoning). */
  notices: AgentEvent[];
  /** Warnings about the session as loaded (also in `notices`). */
  warnings: string[];
  /** Set with `persistReasoning: 'current-episode'`. */
  atRest: ReasoningAtRest | undefined;
  /** Approval decisions stored and not yet acted on. */
  approvals: ApprovalRecord | undefined;
}

/** Everything {@link openSession} needs. */
interface OpenSessionInput {
  store: SessionStore;
  id: string;
  target: ModelRef;
  retention: Retention;
  replayCache: ReplayCache | undefined;
  persistReasoning: PersistReasoning;
  history: readonly Message[] | undefined;
  /** Hand-off or fallback is on: other models' current-episode traces are restored for the note too. */
  handoff?: boolean;
}

/** Loads or starts a session as described above; a given history is persisted at once. */
export async function openSession(input: OpenSessionInput): Promise<OpenedSession> {
  const { store, id } = input;
  const stored = await store.load(id);
  if (stored && input.history) {
    throw new InvalidArgumentError(
      `session "${id}" is already stored: pass { history } only for a new session, or open it without history to continue it.`,
    );
  }
  if (stored) checkConsistency(stored.messages, `session "${id}"`);
  // zod's ES module before a given history is checked (see support/zod-loader.ts).
  if (!stored && input.history?.length) await loadZod();
  const merged = mergeSidecar(stored?.messages ?? validHistory(input.history), stored?.reasoningSidecar);
  if (merged.stale) await deleteStaleSidecar(store, id);
  const opened: OpenedSession = {
    messages: merged.messages,
    packState: stored?.packState,
    torn: stored?.torn,
    notices: [],
    warnings: [],
    atRest: undefined,
    approvals: stored?.approvals,
  };
  if (input.replayCache && opened.messages.length > 0) await restore(opened, input, input.replayCache);
  warnMissing(opened, input);
  if (input.persistReasoning === 'current-episode') {
    opened.atRest = new ReasoningAtRest(store, id, stored ? opened.messages : []);
  }
  if (input.history && input.history.length > 0) {
    // Expecting an empty transcript: of two openers racing with a history, one writes it.
    if (opened.atRest) await opened.atRest.persist(opened.messages, 0);
    else await store.append(id, opened.messages, { expectedLength: 0 });
  }
  return opened;
}

/**
 * Deletes a sidecar older than the current episode. Loading ignores it anyway, so a
 * writer holding the session (busy) is left to replace it: opening must not fail for it.
 */
async function deleteStaleSidecar(store: SessionStore, id: string): Promise<void> {
  try {
    await store.saveReasoningSidecar?.(id, undefined);
  } catch (error) {
    if (!(error instanceof SessionBusyError)) throw error;
  }
}

/**
 * The application's history checked like a stored transcript, each message and across
 * them (message N is "line N" in errors), as copies: later changes to the caller's
 * objects do not reach the session.
 */
function validHistory(history: readonly Message[] | undefined): Message[] {
  const messages = (history ?? []).map((message, index) => copyMessage(message, index + 1, 'history'));
  checkConsistency(messages, 'history');
  return messages;
}

/**
 * Completes the transcript from the replay cache. The cache is an aid: when it
 * fails (its database is down), the session still opens, with a warning, and the
 * missing-reasoning check below says what the next call lacks.
 */
async function restore(opened: OpenedSession, input: OpenSessionInput, cache: ReplayCache): Promise<void> {
  let result;
  try {
    result = await restoreReasoning(opened.messages, { cache, target: input.target, retention: input.retention });
    if (input.handoff) {
      const foreign = await restoreForeignTraces(result.messages, { cache, target: input.target });
      const { restored, tokens } = result;
      result = { ...result, messages: foreign.messages, restored: restored + foreign.restored, tokens: tokens + foreign.tokens };
    }
  } catch (error) {
    const message = `replay cache: reasoning could not be restored (${(error as Error).message}); the session opens without it.`;
    opened.warnings.push(message);
    opened.notices.push({ type: 'warning', step: 0, code: 'replay-cache-failed', message });
    return;
  }
  opened.messages = result.messages;
  if (result.restored > 0 || result.missing > 0) {
    opened.notices.push({
      type: 'reasoning-restored',
      messages: result.restored,
      tokens: result.tokens,
      missing: result.missing,
    });
  }
}

function warnMissing(opened: OpenedSession, input: OpenSessionInput): void {
  const missing = countMissingReasoning(opened.messages, input.target, input.retention);
  if (missing === 0) return;
  const message =
    `${missing} assistant message(s) with tool calls have no reasoning, but ${input.target.provider}/${input.target.id} ` +
    `(retention "${input.retention}") expects it back; the provider may reject the next call. Reasoning is missing ` +
    "when it was kept out of the stored transcript (persistReasoning 'current-episode') or the history came without it: " +
    "configure a replay cache, or use persistReasoning 'always' for this model.";
  opened.warnings.push(message);
  opened.notices.push({ type: 'warning', step: 0, code: 'reasoning-missing', message });
}
