/**
 * The names workers and clients share: the workflow's registered name, the queue,
 * the application version, and how an episode's workflow id is made.
 */
import type { SessionOptions } from '@episodic/core';

/** The registered name of the episode workflow. */
export const EPISODE_WORKFLOW = 'episodic.episode';
/** The default queue's name. */
export const DEFAULT_QUEUE = 'episodic-episodes';
/** Every worker runs the same code: recovery across processes needs one application version. */
export const APPLICATION_VERSION = 'episodic-1';

/** What a workflow is asked to run: one episode of one session. */
export interface EpisodeRequest {
  sessionId: string;
  /** The episode's number in its session, from 0. */
  episode: number;
  input: string;
  /** Options the session is opened with (JSON: they are the workflow's recorded input). */
  session?: Pick<SessionOptions, 'persistReasoning'>;
}

/** The workflow id of an episode: `<session>/<episode>`. */
export function episodeWorkflowId(sessionId: string, episode: number): string {
  return `${sessionId}/${episode}`;
}
