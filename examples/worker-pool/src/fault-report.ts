/**
 * What the three fault runs (pg-boss, DBOS, Restate) share once their kills are
 * done: the jobs they run, the workspace the tools work in, and the report built
 * from the kills that landed, the workers' recorded events, the tools' executions
 * and the invariants of verify-pool.ts. The report also checks the run's own
 * account of where each kill landed against the workers' witness log
 * (phase-report.ts): a kill counted in a tool must have killed a worker whose job
 * had entered a tool and not left it.
 */
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { PostgresSessionStore } from '@episodic/postgres';
import type pg from 'pg';
import type { FaultRunOptions } from './fault-sizes.js';
import { STEP_TOOLS, type WorkPhase } from './pool-agent.js';
import type { PoolEvents } from './pool-events.js';
import type { Job, JobWithState } from './pool-jobs.js';
import { WITNESS_LOG } from './phase-report.js';
import { verifyPool } from './verify-pool.js';

/** Where a worker can be in a job. */
export const PHASES: readonly WorkPhase[] = ['model', 'tool', 'between'];

/** One SIGKILL that landed: it left `jobs` unfinished. */
export interface Kill {
  target: 'worker' | 'server';
  /** The worker killed (worker kills). */
  worker?: string;
  at: number;
  /** The phase a worker kill was aimed at. */
  aim?: WorkPhase;
  /**
   * The jobs it left unfinished, each with where it was when the kill landed: for a
   * worker, its last `phase` line, read after its output closed (so none is missed).
   */
  jobs: Map<string, WorkPhase>;
}

/** What a run did and found. */
export interface FaultReport {
  workers: number;
  sessions: number;
  episodes: number;
  /** Kills that landed (each left a job unfinished), of workers and of the Restate server. */
  kills: number;
  /** Every SIGKILL sent (the ones that did not land hit a worker whose jobs had just finished). */
  killsSent: number;
  /** Landed kills of the Restate server (0 elsewhere). */
  serverKills: number;
  /**
   * Landed worker kills by where the worker was: in a model call, in a tool, or between
   * them. A Restate worker runs many episodes at once: its kill counts once, where it
   * was aimed if an episode it left unfinished was there, else where most of them were.
   */
  killsByPhase: Record<WorkPhase, number>;
  /** Every episode a worker kill left unfinished, by where it was. */
  episodesKilledByPhase: Record<WorkPhase, number>;
  /** Kills whose phase the witness log contradicts (must be empty). */
  misclassified: string[];
  /**
   * Jobs whose worker died between the two writes of one phase change (the witness
   * line written, the `phase` line not yet read): counted where the witness put them.
   */
  atTransition: string[];
  /** The record_step calls a worker kill landed inside (the witness log names the call). */
  killedInRecordStep: string[];
  /**
   * Of those, the ones not answered "outcome unknown": where record_step is declared not
   * idempotent (DBOS, Restate), a call killed after it began must never have its result
   * recorded, so this must be empty there (on pg-boss it is re-run, at least once).
   */
  killedInRecordStepWithResult: string[];
  /** Jobs another worker resumed mid-episode after its worker was killed. */
  takeovers: number;
  /** Jobs whose episode had finished when their worker was killed (only the job was left to mark done). */
  finishedBeforeKill: number;
  /** Attempts refused because another worker (or a dead one's lease) held the session. */
  busyRetries: number;
  /** Attempts refused because the session changed since it was opened. */
  conflicts: number;
  /** From a kill to the episode starting again on another worker: the longest, in ms. */
  maxTakeoverMs: number;
  messagesChecked: number;
  toolCalls: number;
  /** Executions of record_step beyond one per call: tools re-run after a kill inside them (at least once). */
  toolReruns: number;
  /** record_step calls answered "outcome unknown" (DBOS, Restate: it is declared not idempotent, so it never runs twice). */
  unknownOutcomes: number;
  /** Unexpected errors recorded by workers, and broken invariants. */
  errors: string[];
  violations: string[];
  durationMs: number;
}

/** What {@link buildFaultReport} reads. */
export interface FaultRunRecord {
  pool: pg.Pool;
  events: PoolEvents;
  workspace: string;
  kills: readonly Kill[];
  killsSent: number;
  /** Every job with its final state. */
  jobs: readonly JobWithState[];
  started: number;
}

/** The report of a finished run (see the module comment). */
export async function buildFaultReport(options: Pick<FaultRunOptions, 'workers' | 'schema'>, run: FaultRunRecord): Promise<FaultReport> {
  const events = await run.events.all();
  const sorted = [...run.jobs].sort((a, b) => a.sessionId.localeCompare(b.sessionId) || a.position - b.position);
  const check = await verifyPool(new PostgresSessionStore({ pool: run.pool, schema: options.schema }), sorted);
  const takeoverTimes = run.kills.flatMap((kill) =>
    [...kill.jobs.keys()].map((job) => {
      const next = events.find((event) => event.jobId === job && event.startedMs !== null && event.startedMs > kill.at);
      return next?.startedMs ? next.startedMs - kill.at : 0;
    }),
  );
  const executions = (await readFile(join(run.workspace, 'executions.log'), 'utf8')).split('\n').filter(Boolean);
  const witnessed = lastWitnessed(await readFile(join(run.workspace, WITNESS_LOG), 'utf8'));
  const count = (kind: string) => events.filter((event) => event.kind === kind).length;
  const settled = settleOnWitness(
    run.kills.filter((kill) => kill.target === 'worker'),
    witnessed,
  );
  const workerKills = settled.kills;
  const killedInRecordStep = workerKills.flatMap((kill) =>
    [...kill.jobs.keys()].flatMap((job) => {
      const call = witnessed.get(`${kill.worker} ${job}`)?.call;
      return call && isRecordStep(call) ? [call] : [];
    }),
  );
  return {
    workers: options.workers,
    sessions: check.sessions,
    episodes: check.episodes,
    kills: run.kills.length,
    killsSent: run.killsSent,
    serverKills: run.kills.length - workerKills.length,
    killsByPhase: byPhase(workerKills.map(killPhase)),
    episodesKilledByPhase: byPhase(workerKills.flatMap((kill) => [...kill.jobs.values()])),
    misclassified: misclassified(workerKills, witnessed),
    atTransition: settled.atTransition,
    killedInRecordStep,
    killedInRecordStepWithResult: killedInRecordStep.filter((call) => !check.unknownCalls.includes(call)),
    takeovers: count('resumed'),
    finishedBeforeKill: count('already-finished'),
    busyRetries: count('busy'),
    conflicts: count('conflict'),
    maxTakeoverMs: Math.max(0, ...takeoverTimes),
    messagesChecked: check.messagesChecked,
    toolCalls: check.toolCalls,
    toolReruns: executions.length - new Set(executions.map((line) => line.split(' ')[0])).size,
    unknownOutcomes: check.unknownOutcomes,
    errors: events.filter((event) => event.kind === 'error').map((event) => `job ${event.jobId}: ${event.detail}`),
    violations: check.violations,
    durationMs: Date.now() - run.started,
  };
}

/** Where a worker kill counts: where it was aimed if a job it left was there, else where most were. */
export function killPhase(kill: Kill): WorkPhase {
  const phases = [...kill.jobs.values()];
  if (kill.aim && phases.includes(kill.aim)) return kill.aim;
  const counts = byPhase(phases);
  return PHASES.reduce((best, phase) => (counts[phase] > counts[best] ? phase : best));
}

/**
 * Each job of a worker kill whose phase is not the last one the witness log holds for
 * that worker and job (`between` when it holds none: the job had not entered a model
 * call or a tool yet). Run it on kills {@link settleOnWitness} settled: a kill between
 * the two writes of one phase change is not a misclassification.
 */
export function misclassified(kills: readonly Kill[], last: Witnessed): string[] {
  return kills.flatMap((kill) =>
    [...kill.jobs].flatMap(([job, phase]) => {
      const witnessed = last.get(`${kill.worker} ${job}`)?.phase ?? 'between';
      return witnessed === phase ? [] : [`kill of ${kill.worker} at ${kill.at}: job ${job} counted in ${phase}, the witness says ${witnessed}`];
    }),
  );
}

/**
 * The kills with each job's phase taken from the witness log where the two differ by
 * one phase change: the worker writes the witness line, then the `phase` line, so a
 * SIGKILL between the two (or while the `phase` line waits on a full pipe) leaves the
 * fault run one change behind, and the witness, already in the file, is the truth.
 * Anything else is left as counted, for {@link misclassified} to report.
 */
export function settleOnWitness(kills: readonly Kill[], last: Witnessed): { kills: Kill[]; atTransition: string[] } {
  const atTransition: string[] = [];
  const settled = kills.map((kill) => {
    const jobs = new Map(
      [...kill.jobs].map(([job, phase]): [string, WorkPhase] => {
        const seen = last.get(`${kill.worker} ${job}`);
        if (!seen || seen.phase === phase || (seen.previous ?? 'between') !== phase) return [job, phase];
        atTransition.push(`${kill.worker} ${job}: counted in ${phase}, entering ${seen.phase}`);
        return [job, seen.phase];
      }),
    );
    return { ...kill, jobs };
  });
  return { kills: settled, atTransition };
}

/** The witness log read back: the last entry of each `<worker> <job>` (see {@link lastWitnessed}). */
export type Witnessed = ReadonlyMap<string, { phase: WorkPhase; previous?: WorkPhase; call?: string }>;

/** The last witness entry of each `<worker> <job>`: its phase, the phase before it, and the tool call when in a tool. */
export function lastWitnessed(witness: string): Witnessed {
  const last = new Map<string, { phase: WorkPhase; previous?: WorkPhase; call?: string }>();
  for (const line of witness.split('\n')) {
    const [worker, job, phase, call] = line.split(' ');
    if (!worker || !job || !phase) continue;
    const key = `${worker} ${job}`;
    last.set(key, { phase: phase as WorkPhase, previous: last.get(key)?.phase, call });
  }
  return last;
}

/** Whether tool call `call` (`<job>-<step>`) is a record_step call. */
function isRecordStep(call: string): boolean {
  return STEP_TOOLS[Number(/-(\d+)$/.exec(call)?.[1]) - 1] === 'record_step';
}

/** How many of `phases` are each phase. */
export function byPhase(phases: readonly WorkPhase[]): Record<WorkPhase, number> {
  const count = (phase: WorkPhase) => phases.filter((each) => each === phase).length;
  return { model: count('model'), tool: count('tool'), between: count('between') };
}

/** Jobs for every session, position by position; half of them keep reasoning out of the transcript (in the sidecar). */
export function jobsFor(options: Pick<FaultRunOptions, 'sessions' | 'messagesPerSession'>): Job[] {
  const jobs: Job[] = [];
  for (let position = 0; position < options.messagesPerSession; position += 1) {
    for (let session = 0; session < options.sessions; session += 1) {
      jobs.push({
        id: `s${session}m${position}`,
        sessionId: `session-${session}`,
        position,
        text: `Check the workspace (message ${position + 1} of session ${session}).`,
        persistReasoning: session % 2 === 0 ? 'always' : 'current-episode',
      });
    }
  }
  return jobs;
}

/** The files the tools read, and the empty logs the workers append to. */
export async function writeWorkspace(workspace: string): Promise<void> {
  await mkdir(join(workspace, 'notes'), { recursive: true });
  await writeFile(join(workspace, 'README.md'), '# Pool workspace\n\nThe worker pool example reads this file.\n');
  await writeFile(join(workspace, 'notes', 'todo.md'), '- keep every episode whole\n');
  await writeFile(join(workspace, 'executions.log'), '');
  await writeFile(join(workspace, WITNESS_LOG), '');
}
