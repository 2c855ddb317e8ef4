/**
 * A session's episodes on Restate. Two services:
 *
 * - `EpisodicSession`, a virtual object keyed by session id: its exclusive `send`
 *   handler runs one episode at a time per session, in the order they were sent,
 *   which makes it the session's single writer across every process.
 * - `EpisodicEpisode`, a workflow keyed by `<session>/<episode>`: `run` runs (or
 *   replays) the episode with each model call and each tool execution a `ctx.run`
 *   step (restate-runtime.ts); `approve` resolves the durable promise an approval
 *   waits on, from any process.
 *
 * The session store stays the canonical transcript; its lease still guards the
 * session against a writer outside Restate.
 */
import {
  type Agent,
  type AgentEvent,
  type DurableApproval,
  type EpisodeRequest,
  type EpisodeResult,
  type EpisodeSummary,
  episodeKey,
  EpisodicError,
  type PendingDurableApproval,
  pendingOf,
  SessionBusyError,
  SessionConflictError,
} from '@episodic/core';
// The SDK calls Promise.withResolvers, which Node 20 lacks.
import './with-resolvers.js';
import * as restate from '@restatedev/restate-sdk';
import { EPISODE_WORKFLOW, SESSION_OBJECT } from './service-names.js';
import { restateRuntime } from './restate-runtime.js';
import { type ApprovalMessage, approve, publishedApprovals } from './approval-handlers.js';

export type { ApprovalMessage } from './approval-handlers.js';

/** The session object's state: the number of the episode it runs (or ran last). */
const RUNNING_EPISODE = 'episode';
/** Errors that come back the same on every attempt: retrying them would never end. */
const TERMINAL_CODES: ReadonlySet<string> = new Set(['invalid_argument', 'durable_replay_mismatch', 'durable_wait_unsupported']);

/** Options of {@link restateEpisodes}. */
export interface RestateEpisodesOptions {
  /** The agent that runs the episodes (its store is the canonical transcript). */
  agent: Agent;
  /**
   * Told when this process starts and ends an attempt at an episode (a replay after a
   * takeover included), and of each event of the attempt's run (its warnings among them:
   * `compaction-in-foreground` on an agent that compacts in the background).
   */
  observe?: RestateEpisodesObserver | undefined;
  /**
   * How Restate retries a failed attempt (a killed process included). Default: from
   * 100 ms, doubling, at most 2 s apart, up to the server's attempt limit (then paused).
   */
  retryPolicy?: restate.RetryPolicy | undefined;
}

/** What {@link RestateEpisodesOptions.observe} is told. */
export interface RestateEpisodesObserver {
  /** An attempt at `request` starts in this process. */
  start?(request: EpisodeRequest): void;
  /** That attempt ends (finished, failed, or abandoned by Restate). */
  end?(request: EpisodeRequest): void;
  /** An event of the attempt's run (the events `session.send()` reports to `onEvent`). */
  event?(request: EpisodeRequest, event: AgentEvent): void;
}

const DEFAULT_RETRY: restate.RetryPolicy = { initialInterval: 100, exponentiationFactor: 2, maxInterval: 2_000, onMaxAttempts: 'pause' };

/** The two services (see the module comment), to serve with {@link serveEpisodes} or any Restate endpoint. */
export function restateEpisodes(options: RestateEpisodesOptions) {
  const retryPolicy = options.retryPolicy ?? DEFAULT_RETRY;
  const episode = restate.workflow({
    name: EPISODE_WORKFLOW,
    handlers: {
      run: async (ctx: restate.WorkflowContext, request: EpisodeRequest): Promise<EpisodeSummary> => {
        options.observe?.start?.(request);
        try {
          return await runEpisode(options, ctx, request);
        } finally {
          options.observe?.end?.(request);
        }
      },
      approve: async (ctx: restate.WorkflowSharedContext, message: ApprovalMessage): Promise<void> => approve(ctx, message),
      approvals: async (ctx: restate.WorkflowSharedContext): Promise<DurableApproval[]> => publishedApprovals(ctx),
    },
    options: { retryPolicy },
  });
  const session = restate.object({
    name: SESSION_OBJECT,
    handlers: {
      // Exclusive: Restate queues a key's calls and runs them one at a time, in order.
      send: async (ctx: restate.ObjectContext, request: EpisodeRequest): Promise<EpisodeSummary> => {
        if (request.sessionId !== ctx.key) throw new restate.TerminalError(`request for session "${request.sessionId}" sent to "${ctx.key}"`);
        ctx.set(RUNNING_EPISODE, request.episode);
        return ctx.workflowClient(episode, episodeKey(request.sessionId, request.episode)).run(request);
      },
      // The calls the session's running (or last) episode waits on, without knowing its number.
      pending: restate.handlers.object.shared(async (ctx: restate.ObjectSharedContext): Promise<PendingDurableApproval[]> => {
        const running = await ctx.get<number>(RUNNING_EPISODE);
        if (typeof running !== 'number') return [];
        return pendingOf(await ctx.workflowClient(episode, episodeKey(ctx.key, running)).approvals());
      }),
    },
    options: { retryPolicy },
  });
  return { session, episode };
}

async function runEpisode(options: RestateEpisodesOptions, ctx: restate.WorkflowContext, request: EpisodeRequest): Promise<EpisodeSummary> {
  const { agent, observe } = options;
  const signal = ctx.request().attemptCompletedSignal;
  const onEvent = observe?.event && ((event: AgentEvent) => observe.event?.(request, event));
  for (;;) {
    try {
      const session = await agent.session({ id: request.sessionId, ...request.session });
      const durable = { runtime: restateRuntime(ctx), episode: request.episode };
      // No abort signal: an aborted run writes "aborted" tool results, which a replay would then
      // find stored. When the attempt ends, the runtime's pending step rejects instead (restate-runtime.ts).
      const result: EpisodeResult<unknown> = await session.send(request.input, { durable, ...(onEvent ? { onEvent } : {}) });
      const text = result.message?.content.flatMap((part) => (part.type === 'text' ? [part.text] : [])).join('') ?? '';
      return { status: result.status, reason: result.reason, text };
    } catch (error) {
      // Both come before the episode's first step: retrying journals nothing. A dead
      // attempt's lease lapses by itself; waiting here is quicker than a Restate retry.
      if (signal.aborted) throw error;
      if (error instanceof SessionBusyError) await pause(error.retryAfterMs ?? 100);
      else if (EpisodicError.isInstance(error) && TERMINAL_CODES.has(error.code)) {
        // A session id the store refuses, a replay that cannot match: no attempt would do better.
        throw new restate.TerminalError(`${error.code}: ${error.message}`);
      } else if (!(error instanceof SessionConflictError)) throw error;
    }
  }
}

function pause(ms: number): Promise<void> {
  // A store's hint beyond setTimeout's range would otherwise fire at once.
  return new Promise((resolve) => setTimeout(resolve, Math.min(ms, 2 ** 31 - 1)));
}
