/**
 * `@episodic/dbos`: Episodic agents as DBOS workflows (see dbos-episodes.ts).
 */
export { DbosEpisodes } from './dbos-episodes.js';
export type { DbosEpisodesObserver, DbosEpisodesOptions } from './dbos-episodes.js';
export { EpisodesClient } from './dbos-client.js';
export type { EpisodesClientOptions, EpisodeStatus } from './dbos-client.js';
export type { DbosApprovalTarget } from './dbos-approvals.js';
export { DbosEpisodeError } from './episode-state.js';
export type { EpisodeState } from './episode-state.js';
export { migrateOnce } from './migrate-once.js';
export { APPLICATION_VERSION, DEFAULT_QUEUE, EPISODE_WORKFLOW } from './workflow-names.js';
// The durable port's, re-exported: what a DBOS client starts and gets back (the workflow id is `episodeKey`).
export { episodeKey } from '@episodic/core';
export type { EpisodeRequest, EpisodeSummary, PendingDurableApproval } from '@episodic/core';
export { DurableApprovalError } from '@episodic/core';
export { dbosRuntime, sendTo } from './dbos-runtime.js';
export { ExecutorHeartbeats } from './executor-heartbeats.js';
export type { HeartbeatOptions, RecoveredExecutor } from './executor-heartbeats.js';
