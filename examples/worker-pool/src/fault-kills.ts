/**
 * The kill loop the three fault runs share: every few hundred milliseconds one
 * SIGKILL, until `kills` have landed or no work is left. Worker kills are aimed at
 * model calls, tools and between steps in turn: the victim is a worker with a job in
 * the aimed phase, the one that entered it last (so the kill is likely to land while
 * it is still there), waiting briefly for one when none is. Where a kill landed is
 * decided after the victim's output is read to its end, from the last `phase` line
 * of each job it left unfinished, not from what the loop saw when it aimed.
 */
import type { WorkPhase } from './pool-agent.js';
import { type Kill, PHASES } from './fault-report.js';
import type { RunningWorker } from './worker-process.js';

/** What {@link killUntilLanded} kills with. */
export interface KillPlan {
  kills: number;
  /** Random pause between kills, in ms. */
  killGapMs: [number, number];
  /** True while jobs remain unfinished. */
  working(): Promise<boolean>;
  /**
   * Sends kill number `turn` (counting the ones sent); undefined when there was nothing to kill, else the kill
   * if it landed. `wait` makes the loop wait for it before the next (a server restart).
   */
  killOnce(turn: number): Promise<{ landed: Promise<Kill | undefined>; wait?: boolean } | undefined>;
  log?: (line: string) => void;
}

/** Kills until `plan.kills` have landed or the work ran out; the kills that landed, and how many were sent. */
export async function killUntilLanded(plan: KillPlan): Promise<{ kills: Kill[]; sent: number }> {
  const kills: Kill[] = [];
  const checks: Promise<void>[] = [];
  const started = Date.now();
  let sent = 0;
  while (kills.length < plan.kills && (await plan.working())) {
    const [low, high] = plan.killGapMs;
    await sleep(low + Math.random() * (high - low));
    const attempt = await plan.killOnce(sent + 1);
    if (!attempt) continue;
    sent += 1;
    // Whether a kill landed is known after a query; the next kill does not wait for it.
    const check = attempt.landed.then((kill) => {
      if (!kill) return;
      kills.push(kill);
      const where = [...kill.jobs.values()].join(' ');
      plan.log?.(`kill ${kills.length}: ${kill.worker ?? kill.target} (aimed ${kill.aim ?? '-'}; unfinished: ${where}) at ${kill.at - started} ms`);
    });
    checks.push(check);
    if (attempt.wait) await check;
  }
  await Promise.all(checks);
  return { kills, sent };
}

/** The phase kill number `turn` aims at: model calls, tools and between steps in turn. */
export function aimOf(turn: number): WorkPhase {
  return PHASES[turn % PHASES.length]!;
}

/**
 * A busy worker with a job in `aim`, the one that entered it last; waits up to
 * `waitMs` for one, then takes any busy worker (undefined when none is busy).
 */
export async function chooseVictim(running: Iterable<RunningWorker>, aim: WorkPhase, waitMs = 500): Promise<RunningWorker | undefined> {
  const deadline = Date.now() + waitMs;
  for (;;) {
    const busy = [...running].filter((worker) => worker.isReady && !worker.exited && worker.jobs.size > 0);
    let best: { worker: RunningWorker; at: number } | undefined;
    for (const worker of busy) {
      for (const [job, phase] of worker.jobs) {
        const at = worker.phaseAt.get(job) ?? 0;
        if (phase === aim && (!best || at > best.at)) best = { worker, at };
      }
    }
    if (best) return best.worker;
    if (Date.now() >= deadline) return busy[Math.floor(Math.random() * busy.length)];
    await sleep(10);
  }
}

/**
 * SIGKILLs `victim` (after `retire` took it out of service), then, once its output
 * is read to the end, returns the jobs it left unfinished with their last phase: the
 * kill, or undefined when `unfinished` says every one of them had finished.
 */
export async function killWorker(
  victim: RunningWorker,
  aim: WorkPhase,
  unfinished: (jobs: readonly string[]) => Promise<ReadonlySet<string>>,
): Promise<Kill | undefined> {
  const at = Date.now();
  victim.process.kill('SIGKILL');
  await victim.closed;
  const open = await unfinished([...victim.jobs.keys()]);
  const jobs = new Map([...victim.jobs].filter(([job]) => open.has(job)));
  return jobs.size > 0 ? { target: 'worker', worker: victim.name, at, aim, jobs } : undefined;
}

/** Resolves after `ms`. */
export function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}

/** Waits until `condition` holds; throws naming `what` after `timeoutMs`. */
export async function until(condition: () => boolean, timeoutMs: number, what: string): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!condition()) {
    if (Date.now() > deadline) throw new Error(`waited ${timeoutMs} ms for ${what}`);
    await sleep(50);
  }
}
