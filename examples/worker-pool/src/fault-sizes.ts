/**
 * The sizes of a fault run. The defaults fit the CI budget (one to two minutes a run
 * on two cores); a longer soak sets them from the environment:
 *
 *   EPISODIC_FAULT_WORKERS=8 EPISODIC_FAULT_SESSIONS=400 EPISODIC_FAULT_MESSAGES=4 EPISODIC_FAULT_KILLS=300 \
 *     npx vitest run examples/worker-pool
 */
import type { PoolRuntime } from './pool-backend.js';

/** Sizes and timings of a run. */
export interface FaultRunOptions {
  /** What runs the jobs. Default pg-boss. */
  runtime?: PoolRuntime;
  connectionString: string;
  /** A schema of its own (dropped first). */
  schema: string;
  workers: number;
  sessions: number;
  messagesPerSession: number;
  /** SIGKILLs that must land: each kills a worker (or the Restate server) while a job it runs is unfinished (fewer if the jobs run out first). */
  kills: number;
  /** Random pause between kills, in ms. */
  killGapMs: [number, number];
  leaseMs: number;
  latencyMs: number;
  /** How long each tool call works on average (a random 0.5 to 1.5 times this). */
  toolMs: number;
  /** Fail when no job finished for this long: a hang detector, not a latency target. */
  stallMs: number;
  /** Fail when the run takes longer than this in all (a last resort behind `stallMs`). */
  timeoutMs: number;
  /** Progress lines go here. */
  log?: (line: string) => void;
}

/** Everything of a fault run but where it runs. */
export type FaultSizes = Omit<FaultRunOptions, 'connectionString' | 'schema' | 'log'>;

/**
 * The CI run: 4 workers, 50 sessions of 3 messages (150 episodes), 30 kills that land.
 * The time limits catch a hang, not a slow machine: a run fails when no job finished
 * for 90 s, or after 15 minutes in all.
 */
export const CI_FAULT_SIZES: FaultSizes = {
  workers: 4,
  sessions: 50,
  messagesPerSession: 3,
  kills: 30,
  killGapMs: [100, 400],
  leaseMs: 1_000,
  // Long enough for a kill aimed at a model call or a tool to land inside it on a loaded machine.
  latencyMs: 50,
  toolMs: 100,
  stallMs: 90_000,
  timeoutMs: 900_000,
};

/** {@link CI_FAULT_SIZES} with any EPISODIC_FAULT_* variable put in its place. */
export function faultSizesFrom(env: NodeJS.ProcessEnv): FaultSizes {
  const number = (name: string, fallback: number) => {
    const text = env[`EPISODIC_FAULT_${name}`];
    if (text === undefined || text === '') return fallback;
    const value = Number(text);
    if (!(Number.isInteger(value) && value >= 0)) throw new Error(`EPISODIC_FAULT_${name} must be a whole number (got "${text}")`);
    return value;
  };
  const sizes = CI_FAULT_SIZES;
  return {
    ...sizes,
    workers: number('WORKERS', sizes.workers),
    sessions: number('SESSIONS', sizes.sessions),
    messagesPerSession: number('MESSAGES', sizes.messagesPerSession),
    kills: number('KILLS', sizes.kills),
    leaseMs: number('LEASE_MS', sizes.leaseMs),
    stallMs: number('STALL_MS', sizes.stallMs),
    timeoutMs: number('TIMEOUT_MS', sizes.timeoutMs),
  };
}
