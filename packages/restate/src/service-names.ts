/**
 * The Restate services' names, which workers and clients share. The episode request,
 * summary and key are the durable port's (`@episodic/core`).
 */

/** The virtual object keyed by session id: the session's single writer. */
export const SESSION_OBJECT = 'EpisodicSession';
/** The workflow keyed by `<session>/<episode>` (`episodeKey`): one episode, run once. */
export const EPISODE_WORKFLOW = 'EpisodicEpisode';
