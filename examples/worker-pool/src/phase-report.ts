/**
 * How a worker process reports where its jobs are: a `phase <phase> <job>` line on
 * stdout for the fault run to aim and classify its kills, and the same fact appended
 * to the workspace's witness log (`<worker> <job> <phase> [<tool call id>]`), written before the line.
 * Both writes are synchronous, so whatever a SIGKILL interrupts, each holds every
 * phase the worker entered before it died; the witness is read back apart from the
 * fault run's bookkeeping, to check that bookkeeping (see fault-report.ts).
 */
import { appendFileSync } from 'node:fs';
import { join } from 'node:path';
import type { WorkPhase } from './pool-agent.js';
import type { WorkerConfig } from './worker-config.js';

/** The witness log's name in the workspace. */
export const WITNESS_LOG = 'witness.log';

/** The `onPhase` of a worker named `config.worker` (see the module comment). */
export function phaseReporter(config: Pick<WorkerConfig, 'worker' | 'workspace'>): (phase: WorkPhase, job: string, call?: string) => void {
  const witness = join(config.workspace, WITNESS_LOG);
  return (phase, job, call) => {
    appendFileSync(witness, `${config.worker} ${job} ${phase}${call ? ` ${call}` : ''}\n`);
    process.stdout.write(`phase ${phase} ${job}\n`);
  };
}

/**
 * How a worker reports that it starts (or starts again) a job: the `start <job>` line,
 * which the fault run reads as the job being `between`, with the same fact in the
 * witness log first. A worker can start a job it ran before (Restate re-invokes it
 * after its server restarts, pg-boss hands back a failed job): without this line the
 * witness would still hold the earlier attempt's last phase.
 */
export function startReporter(config: Pick<WorkerConfig, 'worker' | 'workspace'>): (job: string) => void {
  const witness = join(config.workspace, WITNESS_LOG);
  return (job) => {
    appendFileSync(witness, `${config.worker} ${job} between\n`);
    process.stdout.write(`start ${job}\n`);
  };
}
