/**
 * The check on the fault runs' own account of where kills landed: a kill counted in a
 * tool (or a model call) must match what the killed worker last wrote in its witness
 * log. These feed it accounts that lie and one that does not.
 */
import { describe, expect, it } from 'vitest';
import { type Kill, killPhase, lastWitnessed, misclassified, settleOnWitness } from './fault-report.js';
import type { WorkPhase } from './pool-agent.js';

const witness = lastWitnessed(['w1 s0m0 model', 'w1 s0m0 between', 'w1 s0m0 tool', 'w2 s1m0 model', 'w1 s2m0 tool', 'w1 s2m0 between', ''].join('\n'));
const kill = (worker: string, jobs: Record<string, WorkPhase>, aim?: WorkPhase): Kill => ({
  target: 'worker',
  worker,
  at: 1,
  aim,
  jobs: new Map(Object.entries(jobs)),
});

describe('misclassified', () => {
  it('accepts kills counted where the witness log last put each job', () => {
    expect(misclassified([kill('w1', { s0m0: 'tool', s2m0: 'between' }), kill('w2', { s1m0: 'model' })], witness)).toEqual([]);
  });

  it('flags a kill counted in a tool the worker had already left', () => {
    // What the loop saw when it aimed (s2m0 in its tool) is stale: the worker wrote that it had left.
    expect(misclassified([kill('w1', { s2m0: 'tool' })], witness)).toEqual([
      'kill of w1 at 1: job s2m0 counted in tool, the witness says between',
    ]);
  });

  it('flags a job put on the wrong worker, and one that never entered a phase', () => {
    expect(misclassified([kill('w2', { s0m0: 'tool' })], witness)).toHaveLength(1);
    expect(misclassified([kill('w1', { s9m0: 'model' })], witness)).toEqual(['kill of w1 at 1: job s9m0 counted in model, the witness says between']);
  });
});

describe('settleOnWitness', () => {
  it('takes the witness phase of a job whose worker died between the two writes of one phase change', () => {
    // w1 wrote that s2m0 left its tool, but its `phase between` line never reached the fault run.
    const { kills, atTransition } = settleOnWitness([kill('w1', { s2m0: 'tool', s0m0: 'tool' })], witness);
    expect(kills[0]!.jobs).toEqual(new Map([['s2m0', 'between'], ['s0m0', 'tool']]));
    expect(atTransition).toEqual(['w1 s2m0: counted in tool, entering between']);
    expect(misclassified(kills, witness)).toEqual([]);
    // A job seen entering its first phase: counted between, the witness says model.
    expect(settleOnWitness([kill('w2', { s1m0: 'between' })], witness).kills[0]!.jobs.get('s1m0')).toBe('model');
  });

  it('leaves an account more than one change behind for misclassified to flag', () => {
    // s0m0 went model -> between -> tool: counted in model, it is two changes behind.
    const { kills, atTransition } = settleOnWitness([kill('w1', { s0m0: 'model' })], witness);
    expect(atTransition).toEqual([]);
    expect(misclassified(kills, witness)).toEqual(['kill of w1 at 1: job s0m0 counted in model, the witness says tool']);
  });
});

describe('killPhase', () => {
  it('counts a kill where it was aimed when a job it left was there, else where most were', () => {
    expect(killPhase(kill('w1', { a: 'model', b: 'tool', c: 'model' }, 'tool'))).toBe('tool');
    expect(killPhase(kill('w1', { a: 'model', b: 'between', c: 'model' }, 'tool'))).toBe('model');
  });
});
