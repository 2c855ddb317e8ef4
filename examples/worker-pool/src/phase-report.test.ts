/**
 * The witness log of a worker that starts a job again: Restate re-invokes a job on the
 * worker that ran it once its server restarts, while that worker's first attempt may still
 * be in a tool. The witness must hold the second start, or a kill right after it (counted
 * `between` by the fault run from the `start` line) reads as misclassified: the failure
 * the Restate fault run met in CI at stop 43 ("job s43m0 counted in between, the witness says model").
 */
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, expect, it, vi } from 'vitest';
import { type Kill, lastWitnessed, misclassified, settleOnWitness } from './fault-report.js';
import { phaseReporter, startReporter, WITNESS_LOG } from './phase-report.js';

let workspace: string;
beforeEach(async () => {
  workspace = await mkdtemp(join(tmpdir(), 'witness-'));
  vi.spyOn(process.stdout, 'write').mockImplementation(() => true);
});
afterEach(async () => {
  vi.restoreAllMocks();
  await rm(workspace, { recursive: true, force: true });
});

const killed = (phase: 'model' | 'tool' | 'between'): Kill => ({ target: 'worker', worker: 'w9', at: 1, jobs: new Map([['s43m0', phase]]) });

it('writes a start to the witness before the start line, so a second attempt starts between', async () => {
  const config = { worker: 'w9', workspace };
  const phase = phaseReporter(config);
  const start = startReporter(config);
  start('s43m0');
  phase('tool', 's43m0', 's43m0-2'); // the first attempt, still in its tool when the server dies
  start('s43m0'); // the re-invocation after the server restarted
  phase('model', 's43m0'); // killed after this witness line, before the fault run read its `phase` line
  const text = await readFile(join(workspace, WITNESS_LOG), 'utf8');
  expect(text.split('\n').filter(Boolean)).toEqual(['w9 s43m0 between', 'w9 s43m0 tool s43m0-2', 'w9 s43m0 between', 'w9 s43m0 model']);
  const witness = lastWitnessed(text);
  // The fault run counted the job `between` (its last line read was the second `start`):
  // one change behind the witness, so it settles where the witness put it.
  const { kills, atTransition } = settleOnWitness([killed('between')], witness);
  expect(atTransition).toEqual(['w9 s43m0: counted in between, entering model']);
  expect(misclassified(kills, witness)).toEqual([]);
  expect(process.stdout.write).toHaveBeenCalledWith('start s43m0\n');
});

it('without the start in the witness, the same kill is flagged (what the start line prevents)', () => {
  const witness = lastWitnessed(['w9 s43m0 tool s43m0-2', 'w9 s43m0 model', ''].join('\n'));
  const { kills } = settleOnWitness([killed('between')], witness);
  expect(misclassified(kills, witness)).toEqual(['kill of w9 at 1: job s43m0 counted in between, the witness says model']);
});
