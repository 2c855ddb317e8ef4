/**
 * Sending episodes and deciding approvals from any process, through the Restate
 * server's HTTP ingress (no SDK needed there): a web server, a CLI, the process
 * that fills the queue.
 */
import { type ApprovalDecision, type EpisodeRequest, type EpisodeSummary, episodeKey, stepIds } from '@episodic/core';
import { RestateEpisodeError } from './restate-episode-error.js';
import { EPISODE_WORKFLOW, SESSION_OBJECT } from './service-names.js';
import type { ApprovalMessage } from './restate-episodes.js';

/** An episode that has finished, is still running or queued, or is unknown to the server. */
export type EpisodeState = { state: 'done'; summary: EpisodeSummary } | { state: 'pending' };

/** See the module comment. */
export class EpisodesClient {
  /** `ingressUrl`: the Restate server's ingress, such as `http://127.0.0.1:8080`. */
  constructor(private readonly ingressUrl: string) {}

  /**
   * Sends an episode to its session (queued behind the session's earlier ones).
   * Sent once per `<session>/<episode>`: a repeat is the same invocation (its
   * idempotency key), so a retried send never runs an episode twice.
   */
  async send(request: EpisodeRequest): Promise<void> {
    const key = episodeKey(request.sessionId, request.episode);
    await this.post(`/${SESSION_OBJECT}/${encodeURIComponent(request.sessionId)}/send/send`, request, { 'idempotency-key': key });
  }

  /** Waits for the episode's workflow to finish (attached to it, once the session object started it) and returns its summary. */
  async result(sessionId: string, episode: number): Promise<EpisodeSummary> {
    const path = `/restate/workflow/${EPISODE_WORKFLOW}/${encodeURIComponent(episodeKey(sessionId, episode))}/attach`;
    for (;;) {
      const response = await this.fetch(path, { method: 'GET' });
      if (response.ok) return (await response.json()) as EpisodeSummary;
      // Not started yet: the session object runs its earlier episodes first.
      if (response.status !== 404) throw await failure(`GET ${path}`, response);
      await response.arrayBuffer();
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
  }

  /** Whether the episode finished (its workflow's output), without waiting. */
  async state(sessionId: string, episode: number): Promise<EpisodeState> {
    const path = `/restate/workflow/${EPISODE_WORKFLOW}/${encodeURIComponent(episodeKey(sessionId, episode))}/output`;
    const response = await this.fetch(path, { method: 'GET' });
    if (response.ok) return { state: 'done', summary: (await response.json()) as EpisodeSummary };
    // Not started yet (404) or still running (470): both are "not done".
    if (response.status === 404 || response.status === 470) return { state: 'pending' };
    throw await failure(`GET ${path}`, response);
  }

  /** Decides a call an episode waits on; the episode goes on in whichever process runs it. */
  async approve(target: { sessionId: string; episode: number; callId: string }, decision: ApprovalDecision): Promise<void> {
    const message: ApprovalMessage = { name: stepIds.approval(target.sessionId, target.callId), decision };
    await this.post(`/${EPISODE_WORKFLOW}/${encodeURIComponent(episodeKey(target.sessionId, target.episode))}/approve`, message);
  }

  private async post(path: string, body: unknown, headers: Record<string, string> = {}): Promise<void> {
    const response = await this.fetch(path, { method: 'POST', headers: { 'content-type': 'application/json', ...headers }, body: JSON.stringify(body) });
    if (!response.ok) throw await failure(`POST ${path}`, response);
    await response.arrayBuffer();
  }

  private async fetch(path: string, init: RequestInit): Promise<Response> {
    try {
      return await fetch(`${this.ingressUrl}${path}`, init);
    } catch (error) {
      const reason = error instanceof Error ? (error.cause instanceof Error ? error.cause.message : error.message) : String(error);
      throw new RestateEpisodeError('restate_request_failed', `${init.method} ${this.ingressUrl}${path}: the Restate ingress cannot be reached (${reason})`, {
        cause: error,
      });
    }
  }
}

async function failure(what: string, response: Response): Promise<RestateEpisodeError> {
  const text = (await response.text()).slice(0, 500);
  return new RestateEpisodeError('restate_request_failed', `${what}: the Restate ingress answered ${response.status}: ${text}`);
}
