/**
 * The durability port: what the agent loop needs from a durable-execution engine
 * (DBOS, Restate, a Postgres journal) to run an episode so that a crash costs
 * nothing finished. The loop makes every model call and every tool execution one
 * step with a deterministic id; an engine records each step's result and, when a
 * process dies, runs the episode again elsewhere, handing back recorded results
 * instead of running their steps again. The session store stays the canonical
 * transcript: the loop writes each step's messages there itself, and a replayed
 * step finds them already stored and does not write them twice.
 *
 * Without a runtime the loop behaves as it always did (no engine, see `runEpisode`).
 */
import { EpisodicError } from '../../errors/episodic-error.js';

/** An engine's side of the port. Every method may be called again on replay with the same arguments. */
export interface DurableRuntime {
  /**
   * Runs `run` once for `id` and records its result; on replay returns the recorded
   * result without running it. Results are JSON data (messages). Steps of one run
   * are called in the same order on every replay, one at a time (unless the
   * runtime says `concurrentSteps`).
   */
  step<T>(id: string, run: () => Promise<T>): Promise<T>;
  /** Waits `ms`, durably: a replay after the time has passed does not wait again. */
  sleep(id: string, ms: number): Promise<void>;
  /** Waits for the value sent under `name` (from any process), durably: a replay gets the same value. */
  waitFor<T>(name: string): Promise<T>;
  /**
   * Makes `value` (JSON) readable by the engine's clients under `key`, replacing what
   * was published there before (the episode's approvals: see `DURABLE_APPROVALS_KEY`).
   * Optional: without it clients cannot list what an episode waits on, and cannot decide it.
   */
  publish?(key: string, value: unknown): Promise<void>;
  /**
   * True when a step may be started while another of the run is in flight (each still
   * started in the same order on every replay), as DBOS (ids taken when a step starts)
   * and Restate (`ctx.run` in parallel) allow. An on-demand compaction in the background
   * is such a step; without this, it runs in the foreground (a `compaction-in-foreground` warning).
   */
  concurrentSteps?: boolean;
}

/** One episode run under a runtime. */
export interface DurableRun {
  runtime: DurableRuntime;
  /**
   * The episode's number in its session, from 0 (the number of episodes before it).
   * With the session id it names every step, so a replay finds its own records.
   */
  episode: number;
}

/** Today's behaviour: every step runs, nothing is recorded, nothing can wait for another process. */
export const inlineRuntime: DurableRuntime = {
  step: (_id, run) => run(),
  sleep: (_id, ms) => new Promise((resolve) => setTimeout(resolve, ms)),
  waitFor: (name) =>
    Promise.reject(new DurableRunError('durable_wait_unsupported', `cannot wait for "${name}": the inline runtime has no engine to wait with`)),
};

/** The step ids of one episode: `<session>/<episode>/...`. */
export const stepIds = {
  model: (sessionId: string, episode: number, step: number) => `${sessionId}/${episode}/model/${step}`,
  tool: (sessionId: string, episode: number, callId: string) => `${sessionId}/${episode}/tool/${callId}`,
  toolBegan: (sessionId: string, episode: number, callId: string) => `${sessionId}/${episode}/tool-began/${callId}`,
  /** The wait of one call's decision: `ticket` is drawn when the call begins to wait, so no one can name the wait before. */
  approval: (sessionId: string, callId: string, ticket: string) => `approval/${sessionId}/${callId}/${ticket}`,
  approvalTicket: (sessionId: string, episode: number, callId: string) => `${sessionId}/${episode}/approval-ticket/${callId}`,
  /** The on-demand compaction asked for at the episode's start or end (on-demand-durable.ts). */
  compaction: (sessionId: string, episode: number, at: 'start' | 'end') => `${sessionId}/${episode}/compaction/${at}`,
};

/**
 * A durable run that cannot go on: its input is not the one stored for its episode,
 * its episode number is out of order, or a replay produced other messages than
 * were stored (a step that is not deterministic). Code `durable_replay_mismatch`
 * or `durable_wait_unsupported`.
 */
export class DurableRunError extends EpisodicError {
  constructor(code: 'durable_replay_mismatch' | 'durable_wait_unsupported', message: string) {
    super(code, message);
  }
}
