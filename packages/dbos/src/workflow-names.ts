/**
 * The DBOS names workers and clients share: the workflow's registered name, the
 * queue, and the application version. The episode request and its workflow id
 * (`episodeKey`) are the durable port's (`@episodic/core`).
 */

/** The registered name of the episode workflow. */
export const EPISODE_WORKFLOW = 'episodic.episode';
/** The default queue's name. */
export const DEFAULT_QUEUE = 'episodic-episodes';
/** Every worker runs the same code: recovery across processes needs one application version. */
export const APPLICATION_VERSION = 'episodic-1';
/** The workflow event an episode sets as it finishes, with its summary: waiting on it is pushed (LISTEN/NOTIFY), not polled. */
export const FINISHED_EVENT = 'episodic.finished';
