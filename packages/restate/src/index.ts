/**
 * `@episodic/restate`: Episodic agents on Restate (see restate-episodes.ts). On
 * Node 20 importing it installs `Promise.withResolvers`, which the Restate SDK
 * needs (with-resolvers.ts).
 */
import './with-resolvers.js';

export { restateEpisodes } from './restate-episodes.js';
export type { ApprovalMessage, RestateEpisodesObserver, RestateEpisodesOptions } from './restate-episodes.js';
export { serveEpisodes } from './serve-episodes.js';
export type { EpisodesEndpoint, ServeEpisodesOptions } from './serve-episodes.js';
export { EpisodesClient } from './episodes-client.js';
export type { ApprovalTarget, EpisodeState } from './episodes-client.js';
export { EPISODE_WORKFLOW, SESSION_OBJECT } from './service-names.js';
// The durable port's, re-exported: what a Restate client sends and gets back.
export { episodeKey } from '@episodic/core';
export type { EpisodeRequest, EpisodeSummary, PendingDurableApproval } from '@episodic/core';
export { DurableApprovalError } from '@episodic/core';
export { restateRuntime } from './restate-runtime.js';
export { RestateEpisodeError } from './restate-episode-error.js';
export type { RestateEpisodeErrorCode } from './restate-episode-error.js';
export { installWithResolvers } from './with-resolvers.js';
