/**
 * What every engine's episode runner shares (`@episodic/dbos`, `@episodic/restate`):
 * the request to run one episode of one session, what a finished episode returns,
 * and the key that names an episode on the engine (a DBOS workflow id, a Restate
 * workflow key). The engines' own names (registered workflows, queues) stay in
 * their packages.
 */
import type { PersistReasoning } from '../../store/reasoning-sidecar.js';
import type { EpisodeResult } from '../episode-result.js';

/** What an engine is asked to run: one episode of one session. */
export interface EpisodeRequest {
  /** The session the episode runs in (an engine runs one episode per session at a time). */
  sessionId: string;
  /** The episode's number in its session, from 0 (episodes run in this order). */
  episode: number;
  /** The user message that opens the episode. */
  input: string;
  /** Options the session is opened with (JSON: they are the engine's recorded input). */
  session?: { persistReasoning?: PersistReasoning };
}

/** What a finished episode returns. */
export interface EpisodeSummary {
  /**
   * `finished`, as `send()` says it (`paused` only when a sub-agent's call waits, which
   * an engine cannot wait for). Summaries recorded before this field existed lack it.
   */
  status?: EpisodeResult<unknown>['status'];
  /** Why the episode ended. */
  reason: EpisodeResult<unknown>['reason'];
  /** The last answer's text. */
  text: string;
}

/** The key of an episode on an engine: `<session>/<episode>`. */
export function episodeKey(sessionId: string, episode: number): string {
  return `${sessionId}/${episode}`;
}
