/**
 * `@episodic/dbos`: Episodic agents as DBOS workflows (see dbos-episodes.ts).
 */
export { DbosEpisodes } from './dbos-episodes.js';
export type { DbosEpisodesOptions, EpisodeSummary } from './dbos-episodes.js';
export { EpisodesClient } from './dbos-client.js';
export type { EpisodesClientOptions, EpisodeStatus } from './dbos-client.js';
export { APPLICATION_VERSION, DEFAULT_QUEUE, EPISODE_WORKFLOW, episodeWorkflowId } from './episode-names.js';
export type { EpisodeRequest } from './episode-names.js';
export { dbosRuntime, sendTo } from './dbos-runtime.js';
export { ExecutorHeartbeats } from './executor-heartbeats.js';
export type { HeartbeatOptions, RecoveredExecutor } from './executor-heartbeats.js';
