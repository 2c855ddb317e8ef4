/**
 * Running one job exactly once, whatever happened to earlier attempts. The user
 * message carries the job id (`[job 17] ...`), so a worker that takes over can tell:
 * - the message is not in the session: send it (a new episode);
 * - it is, and its episode is unfinished (the previous worker died mid-episode):
 *   resume it, which takes the session over once the dead worker's lease lapsed;
 * - it is, and its episode is finished (the worker died before marking the job
 *   done): nothing to run.
 * A busy session (another worker holds it) or a stale one raises the store's typed
 * error; the worker puts the job back.
 */
import type { Agent } from '@episodic/core';
import type { Job } from './pool-jobs.js';
import { jobOfMessage } from './pool-agent.js';

/** What the attempt did, and when the episode started (the lease was taken), for takeover times. */
export interface JobOutcome {
  kind: 'sent' | 'resumed' | 'already-finished';
  startedMs?: number;
}

/** The user message of a job. */
export function jobMessage(job: Pick<Job, 'id' | 'text'>): string {
  return `[job ${job.id}] ${job.text}`;
}

/** Runs `job` on its session (see above). */
export async function handleJob(agent: Agent, job: Job): Promise<JobOutcome> {
  const session = await agent.session({ id: job.sessionId, persistReasoning: job.persistReasoning });
  const delivered = session.messages.some((message) => jobOfMessage(message) === job.id);
  let startedMs: number | undefined;
  const onEvent = (event: { type: string }) => {
    if (event.type === 'episode-start') startedMs = Date.now();
  };
  if (delivered) {
    if (!session.unfinished) return { kind: 'already-finished' };
    await session.resume({ onEvent });
    return { kind: 'resumed', startedMs };
  }
  if (session.unfinished) {
    throw new Error(`session ${job.sessionId} has an unfinished episode that is not job ${job.id}'s: jobs ran out of order`);
  }
  await session.send(jobMessage(job), { onEvent });
  return { kind: 'sent', startedMs };
}
