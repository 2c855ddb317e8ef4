/**
 * The fault run's side of a worker process: starts it, follows what it prints
 * (`standby`, `ready`, `start <job>`, `phase <phase> [<job>]`, `end <job>`), promotes a standby
 * worker, and stops the rest. A standby worker has loaded its code and connected,
 * and waits for `go` on its stdin before it takes work: the fault run keeps one
 * spare, so a killed worker is replaced at once, not after a process start (a second
 * or more on a loaded machine), and kills can go on landing while jobs remain.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import type { WorkPhase } from './pool-agent.js';
import type { WorkerConfig } from './worker-config.js';

/** One worker process as the fault run sees it. */
export interface RunningWorker {
  name: string;
  process: ChildProcess;
  /** The job it is running, from its `start`/`end` lines (the latest started, if it runs several). */
  job: string | undefined;
  /** Every job it has started and not ended, with its last `phase` line: a Restate endpoint runs many episodes at once. */
  jobs: Map<string, WorkPhase>;
  /** Its last `phase` line within a job. */
  phase: WorkPhase;
  /** Set once it printed `ready` (it takes work). */
  isReady: boolean;
  /** Settles once it printed `standby` (or `ready`); rejects if it exits with an error first. */
  loaded: Promise<void>;
  /** Set once it exited. */
  exited: boolean;
}

/** Starts `workerScript` with `config`; with `config.standby` it waits for {@link promote}. */
export function startWorker(workerScript: string, config: WorkerConfig): RunningWorker {
  const child = spawn(process.execPath, [workerScript, JSON.stringify(config)], { stdio: ['pipe', 'pipe', 'pipe'] });
  // A write to a worker killed meanwhile must not end the run.
  child.stdin?.on('error', () => {});
  const worker: RunningWorker = { name: config.worker, process: child, job: undefined, jobs: new Map(), phase: 'between', isReady: false, loaded: Promise.resolve(), exited: false };
  let output = '';
  let errors = '';
  worker.loaded = new Promise((resolve, reject) => {
    child.stdout?.on('data', (chunk: Buffer) => {
      output += chunk.toString();
      const lines = output.split('\n');
      output = lines.pop() ?? '';
      for (const line of lines) follow(worker, line, resolve);
    });
    child.stderr?.on('data', (chunk: Buffer) => (errors += chunk.toString()));
    child.on('exit', (code, signal) => {
      worker.exited = true;
      worker.job = undefined;
      worker.jobs.clear();
      if (signal !== 'SIGKILL' && signal !== 'SIGTERM' && code !== 0) reject(new Error(`worker ${config.worker} exited with ${code}: ${errors}`));
      resolve();
    });
  });
  return worker;
}

function follow(worker: RunningWorker, line: string, loaded: () => void): void {
  if (line === 'standby') loaded();
  else if (line === 'ready') {
    worker.isReady = true;
    loaded();
  } else if (line.startsWith('start ')) {
    worker.job = line.slice('start '.length);
    worker.jobs.set(worker.job, 'between');
    worker.phase = 'between';
  } else if (line.startsWith('phase ')) {
    // `phase <phase>` is of the worker's one job; `phase <phase> <job>` names it.
    const [phase, job = worker.job] = line.slice('phase '.length).split(' ') as [WorkPhase, string?];
    worker.phase = phase;
    if (job !== undefined && worker.jobs.has(job)) worker.jobs.set(job, phase);
  } else if (line.startsWith('end ')) {
    worker.jobs.delete(line.slice('end '.length));
    worker.job = [...worker.jobs.keys()].pop();
  }
}

/** Tells a standby worker to start taking work. */
export function promote(worker: RunningWorker): void {
  worker.process.stdin?.write('go\n');
}

/** SIGTERMs every worker (each ends after its current job) and waits up to 10 s for them to exit. */
export async function stopWorkers(workers: Iterable<RunningWorker>): Promise<void> {
  const all = [...workers].filter((worker) => !worker.exited);
  const exits = all.map((worker) => new Promise((resolve) => worker.process.once('exit', resolve)));
  for (const worker of all) worker.process.kill('SIGTERM');
  await Promise.race([Promise.all(exits), new Promise((resolve) => setTimeout(resolve, 10_000))]);
}
