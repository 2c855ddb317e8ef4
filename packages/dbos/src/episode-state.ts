/**
 * An episode's workflow as a client sees it: finished (with its summary, `status:
 * 'finished'` as `send()` says it), not finished yet, or failed for good (a typed error).
 */
import { EpisodicError, type EpisodeSummary } from '@episodic/core';

/** An episode that has finished, or is still queued, running or unknown. */
export type EpisodeState = { status: 'finished'; summary: EpisodeSummary } | { status: 'pending' };

/** An episode whose workflow ended without a summary (an error, or cancelled); code `dbos_episode_failed`. */
export class DbosEpisodeError extends EpisodicError<'dbos_episode_failed'> {
  constructor(message: string, options?: { cause?: unknown }) {
    super('dbos_episode_failed', message, options);
  }
}

/** Statuses after which a workflow runs no more without a summary. */
const FAILED = new Set(['ERROR', 'CANCELLED', 'MAX_RECOVERY_ATTEMPTS_EXCEEDED', 'RETRIES_EXCEEDED']);

/** The state of workflow `workflowId` from its DBOS status (undefined: not enqueued yet). */
export function episodeOutcome(workflowId: string, found: { status: string; output?: unknown; error?: unknown } | undefined): EpisodeState {
  if (found?.status === 'SUCCESS') return { status: 'finished', summary: found.output as EpisodeSummary };
  if (found && FAILED.has(found.status)) {
    const reason = found.error instanceof Error ? found.error.message : String(found.error ?? 'no error recorded');
    throw new DbosEpisodeError(`episode workflow "${workflowId}" ended ${found.status}: ${reason}`, { cause: found.error });
  }
  return { status: 'pending' };
}
