/**
 * Sending episodes and deciding approvals from any process, through the Restate
 * server's HTTP ingress (no SDK needed there): a web server, a CLI, the process
 * that fills the queue.
 */
import { createHash } from 'node:crypto';
import {
  type ApprovalDecision,
  approvalFor,
  checkApprovalDecision,
  type DurableApproval,
  DurableApprovalError,
  type EpisodeRequest,
  type EpisodeSummary,
  episodeKey,
  InvalidArgumentError,
  type PendingDurableApproval,
  stillWaits,
} from '@episodic/core';
import type { ApprovalMessage } from './approval-handlers.js';
import { RestateEpisodeError } from './restate-episode-error.js';
import { EPISODE_WORKFLOW, SESSION_OBJECT } from './service-names.js';

/**
 * An episode that has finished (`status: 'finished'`, as `send()` says it), or is
 * still running, queued or unknown to the server (`status: 'pending'`). `state`
 * is the older name of the same thing (`'done'` for finished), kept for existing callers.
 */
export type EpisodeState =
  | { status: 'finished'; /** @deprecated Use `status`. */ state: 'done'; summary: EpisodeSummary }
  | { status: 'pending'; /** @deprecated Use `status`. */ state: 'pending' };

/** Which call a decision is for; `episode` may be left out while the call waits (it is looked up). */
export interface ApprovalTarget {
  sessionId: string;
  /** The waiting tool call's id (as `pending()` lists it). */
  callId: string;
  /** The episode that waits; looked up among the session's pending calls when left out. */
  episode?: number;
}

/** How many sends a client remembers the invocations of (see `EpisodesClient.sent`). */
const MAX_REMEMBERED_SENDS = 10_000;

/** See the module comment. */
export class EpisodesClient {
  /**
   * The invocation ids of the sends this client made whose result it has not yet
   * returned (by episode key): `result()` attaches to the session's invocation at once,
   * where the episode's workflow can only be attached once the session has started it.
   */
  private readonly sent = new Map<string, string>();

  /** `ingressUrl`: the Restate server's ingress, such as `http://127.0.0.1:8080`. */
  constructor(private readonly ingressUrl: string) {}

  /**
   * Sends an episode to its session (queued behind the session's earlier ones).
   * Sent once per `<session>/<episode>`: a repeat is the same invocation (its
   * idempotency key), so a retried send never runs an episode twice.
   */
  async send(request: EpisodeRequest): Promise<void> {
    const key = episodeKey(request.sessionId, request.episode);
    const accepted = await this.post(`/${SESSION_OBJECT}/${encodeURIComponent(request.sessionId)}/send/send`, request, { 'idempotency-key': key });
    const invocationId = (accepted as { invocationId?: unknown } | undefined)?.invocationId;
    if (typeof invocationId !== 'string') return;
    // Episodes sent but never awaited must not grow the map without end: the oldest go first.
    if (this.sent.size >= MAX_REMEMBERED_SENDS) this.sent.delete(this.sent.keys().next().value!);
    this.sent.set(key, invocationId);
  }

  /**
   * Waits for the episode to finish and returns its summary. An episode this client
   * sent is awaited through its send (the session's invocation, which returns what the
   * episode's workflow returns); any other through the episode's workflow, once the
   * session has started it.
   */
  async result(sessionId: string, episode: number): Promise<EpisodeSummary> {
    const key = episodeKey(sessionId, episode);
    const invocationId = this.sent.get(key);
    if (invocationId !== undefined) {
      const path = `/restate/invocation/${encodeURIComponent(invocationId)}/attach`;
      const response = await this.fetch(path, { method: 'GET' });
      if (response.ok) {
        this.sent.delete(key);
        return (await response.json()) as EpisodeSummary;
      }
      // Gone from the server (past its retention): the workflow may still be attached.
      if (response.status !== 404) throw await failure(`GET ${path}`, response, 'restate_episode_failed');
      await response.arrayBuffer();
      this.sent.delete(key);
    }
    return this.workflowResult(key);
  }

  /** Waits for the episode's workflow to finish (attached to it, once the session object started it). */
  private async workflowResult(key: string): Promise<EpisodeSummary> {
    const path = `/restate/workflow/${EPISODE_WORKFLOW}/${encodeURIComponent(key)}/attach`;
    for (;;) {
      const response = await this.fetch(path, { method: 'GET' });
      if (response.ok) return (await response.json()) as EpisodeSummary;
      // Not started yet: the session object runs its earlier episodes first.
      if (response.status !== 404) throw await failure(`GET ${path}`, response, 'restate_episode_failed');
      await response.arrayBuffer();
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
  }

  /** Whether the episode finished (its workflow's output), without waiting. */
  async state(sessionId: string, episode: number): Promise<EpisodeState> {
    const path = `/restate/workflow/${EPISODE_WORKFLOW}/${encodeURIComponent(episodeKey(sessionId, episode))}/output`;
    const response = await this.fetch(path, { method: 'GET' });
    if (response.ok) return { status: 'finished', state: 'done', summary: (await response.json()) as EpisodeSummary };
    // Not started yet (404) or still running (470): both are "not finished".
    if (response.status === 404 || response.status === 470) {
      await response.arrayBuffer();
      return { status: 'pending', state: 'pending' };
    }
    throw await failure(`GET ${path}`, response);
  }

  /** The calls the session's running episode waits on (tool, arguments, episode): what `approve()` decides. */
  async pending(sessionId: string): Promise<PendingDurableApproval[]> {
    return (await this.post(`/${SESSION_OBJECT}/${encodeURIComponent(sessionId)}/pending`, undefined)) as PendingDurableApproval[];
  }

  /**
   * Decides a call an episode waits on; the episode goes on in whichever process
   * runs it. Only a call that waits can be decided: a decision that is not valid
   * throws an `InvalidArgumentError`, one for a call that does not wait (not yet
   * proposed, or unknown) a `DurableApprovalError` (`approval_not_pending`), both
   * before anything is sent. Safe to retry: deciding again the same way succeeds,
   * another way throws `approval_decided_otherwise`.
   */
  async approve(target: ApprovalTarget, decision: ApprovalDecision): Promise<void> {
    const checked = checkApprovalDecision(decision);
    const episode = target.episode ?? (await this.episodeWaitingOn(target));
    const key = episodeKey(target.sessionId, episode);
    const workflow = `/${EPISODE_WORKFLOW}/${encodeURIComponent(key)}`;
    const published = (await this.post(`${workflow}/approvals`, undefined)) as DurableApproval[];
    const approval = approvalFor(published, target.callId, key);
    if (!stillWaits(approval, checked)) return;
    const message: ApprovalMessage = { callId: target.callId, decision: checked };
    // One invocation per wait and decision: a retry after a lost answer gets the first one's.
    const digest = createHash('sha256').update(JSON.stringify(checked)).digest('hex').slice(0, 32);
    await this.post(`${workflow}/approve`, message, { 'idempotency-key': `approve/${approval.wait}/${digest}` });
  }

  private async episodeWaitingOn(target: ApprovalTarget): Promise<number> {
    const found = (await this.pending(target.sessionId)).find((request) => request.callId === target.callId);
    if (found) return found.episode;
    throw new DurableApprovalError(
      'approval_not_pending',
      `no tool call ${JSON.stringify(target.callId)} waits for approval in session "${target.sessionId}"; take ids from client.pending().`,
    );
  }

  private async post(path: string, body: unknown, headers: Record<string, string> = {}): Promise<unknown> {
    const response = await this.fetch(path, {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...headers },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    });
    if (!response.ok) throw await failure(`POST ${path}`, response);
    const text = await response.text();
    return text ? (JSON.parse(text) as unknown) : undefined;
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

/**
 * The ingress's refusal as a typed error: a request's refusal by the approval handlers
 * (a message starting with their code) as the error it was, anything else (an
 * episode that failed included) as `code`.
 */
async function failure(what: string, response: Response, code: 'restate_request_failed' | 'restate_episode_failed' = 'restate_request_failed') {
  const text = (await response.text()).slice(0, 2_000);
  let message = text;
  try {
    message = String((JSON.parse(text) as { message?: unknown }).message ?? text);
  } catch {
    // Not JSON: the text as it came.
  }
  const refusal = code === 'restate_request_failed' ? /^(invalid_argument|approval_not_pending|approval_decided_otherwise): ([\s\S]*)$/.exec(message) : null;
  if (refusal?.[1] === 'invalid_argument') return new InvalidArgumentError(refusal[2]!);
  if (refusal) return new DurableApprovalError(refusal[1] as 'approval_not_pending' | 'approval_decided_otherwise', refusal[2]!);
  return new RestateEpisodeError(code, `${what}: the Restate ingress answered ${response.status}: ${text.slice(0, 500)}`);
}
