/**
 * The names workers and clients share: the session object, the episode workflow,
 * and how an episode's workflow key is made.
 */
import type { SessionOptions } from '@episodic/core';

/** The virtual object keyed by session id: the session's single writer. */
export const SESSION_OBJECT = 'EpisodicSession';
/** The workflow keyed by `<session>/<episode>`: one episode, run once. */
export const EPISODE_WORKFLOW = 'EpisodicEpisode';

/** What is asked of a session: run one episode. */
export interface EpisodeRequest {
  sessionId: string;
  /** The episode's number in its session, from 0 (episodes are sent in this order). */
  episode: number;
  input: string;
  /** Options the session is opened with (JSON: they are the workflow's journaled input). */
  session?: Pick<SessionOptions, 'persistReasoning'>;
}

/** What a finished episode returns. */
export interface EpisodeSummary {
  reason: string;
  /** The last answer's text. */
  text: string;
}

/** The key of an episode's workflow: `<session>/<episode>`. */
export function episodeKey(sessionId: string, episode: number): string {
  return `${sessionId}/${episode}`;
}
