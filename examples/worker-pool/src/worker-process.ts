/**
 * The fault run's side of a worker process: starts it, follows what it prints
 * (`standby`, `ready`, `start <job>`, `phase <phase> <job>`, `end <job>`), promotes a standby
 * worker, and stops the rest. A standby worker has loaded its code and connected,
 * and waits for `go` on its stdin before it takes work: the fault run keeps spares
 * ({@link sparesFor}), so a killed worker is replaced at once, not after a process
 * start (seconds on a loaded machine), and kills can go on landing while jobs remain.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import type { WorkPhase } from './pool-agent.js';
import type { WorkerConfig } from './worker-config.js';

/** One worker process as the fault run sees it. */
export interface RunningWorker {
  name: string;
  process: ChildProcess;
  /**
   * Every job it has started and not ended, with its last `phase` line: a Restate
   * endpoint runs many episodes at once. Kept as it was when the process died: once
   * {@link RunningWorker.closed} settles, it holds every line the process wrote.
   */
  jobs: Map<string, WorkPhase>;
  /** When each job's last `phase` (or `start`) line was read. */
  phaseAt: Map<string, number>;
  /** Set once it printed `standby` or `ready` (its code is loaded). */
  isLoaded: boolean;
  /** Set once it printed `ready` (it takes work). */
  isReady: boolean;
  /** Settles once it printed `standby` (or `ready`); rejects if it exits with an error first. */
  loaded: Promise<void>;
  /** Set once it exited. */
  exited: boolean;
  /** Settles once its output is closed and read to the end (after it exited). */
  closed: Promise<void>;
}

/** Starts `workerScript` with `config`; with `config.standby` it waits for {@link promote}. */
export function startWorker(workerScript: string, config: WorkerConfig): RunningWorker {
  const child = spawn(process.execPath, [workerScript, JSON.stringify(config)], { stdio: ['pipe', 'pipe', 'pipe'] });
  // A write to a worker killed meanwhile must not end the run.
  child.stdin?.on('error', () => {});
  const closed = new Promise<void>((resolve) => child.once('close', () => resolve()));
  const worker: RunningWorker = {
    name: config.worker,
    process: child,
    jobs: new Map(),
    phaseAt: new Map(),
    isLoaded: false,
    isReady: false,
    loaded: Promise.resolve(),
    exited: false,
    closed,
  };
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
      if (signal !== 'SIGKILL' && signal !== 'SIGTERM' && code !== 0) reject(new Error(`worker ${config.worker} exited with ${code}: ${errors}`));
      resolve();
    });
  });
  return worker;
}

function follow(worker: RunningWorker, line: string, loaded: () => void): void {
  if (line === 'standby') {
    worker.isLoaded = true;
    loaded();
  } else if (line === 'ready') {
    worker.isLoaded = true;
    worker.isReady = true;
    loaded();
  } else if (line.startsWith('start ')) {
    const job = line.slice('start '.length);
    worker.jobs.set(job, 'between');
    worker.phaseAt.set(job, Date.now());
  } else if (line.startsWith('phase ')) {
    const [phase, job] = line.slice('phase '.length).split(' ') as [WorkPhase, string];
    if (worker.jobs.has(job)) {
      worker.jobs.set(job, phase);
      worker.phaseAt.set(job, Date.now());
    }
  } else if (line.startsWith('end ')) {
    const job = line.slice('end '.length);
    worker.jobs.delete(job);
    worker.phaseAt.delete(job);
  }
}

/** Takes the spare to promote out of `spares`: a loaded one if there is one (a process start takes seconds under load). */
export function takeSpare(spares: RunningWorker[]): RunningWorker | undefined {
  const index = Math.max(0, spares.findIndex((worker) => worker.isLoaded));
  return spares.splice(index, 1)[0];
}

/** Standby workers a fault run keeps beside `workers` running ones. */
export function sparesFor(workers: number): number {
  return Math.max(1, Math.floor(workers / 2));
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
