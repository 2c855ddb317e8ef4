/**
 * The durability port on Restate: a step is `ctx.run` (its result is journaled by
 * the Restate server), a durable sleep is `ctx.sleep`, and a wait is the
 * workflow's durable promise `ctx.promise(name)`, resolved from any process
 * through the workflow's `approve` handler; what the episode publishes (the calls it
 * waits on) is the workflow's state.
 *
 * Every wait also ends when the attempt does (`attemptCompletedSignal`): Restate
 * abandons a suspended or failed attempt's pending promises, and the episode must
 * then end in this process too, so that its session lease is released for the
 * attempt that replays it.
 */
import type { DurableRuntime } from '@episodic/core';
import type { WorkflowContext } from '@restatedev/restate-sdk';
import { RestateEpisodeError } from './restate-episode-error.js';

/** The runtime of the workflow attempt `ctx` belongs to. */
export function restateRuntime(ctx: WorkflowContext): DurableRuntime {
  const signal = ctx.request().attemptCompletedSignal;
  return {
    step: (id, run) => untilAttemptEnds(ctx.run(id, run), signal),
    sleep: (_id, ms) => untilAttemptEnds(ctx.sleep(ms), signal),
    waitFor: <T>(name: string) => untilAttemptEnds(ctx.promise<T>(name).get(), signal),
    // Workflow state: the workflow's shared handlers read it (its `approvals`, and `approve`'s checks).
    publish: async (key, value) => ctx.set(key, value),
    // No concurrentSteps: the SDK (1.17) drives one awaited promise at a time outside its
    // combinators; a second `ctx.run` awaited beside another fails ("awaitNext already pending").
  };
}

/** `promise`, or a rejection once `signal` aborts (whichever comes first). */
function untilAttemptEnds<T>(promise: PromiseLike<T>, signal: AbortSignal): Promise<T> {
  if (signal.aborted) return Promise.reject(ended());
  return new Promise<T>((resolve, reject) => {
    const abort = () => reject(ended());
    signal.addEventListener('abort', abort, { once: true });
    promise.then(
      (value) => {
        signal.removeEventListener('abort', abort);
        resolve(value);
      },
      (error: unknown) => {
        signal.removeEventListener('abort', abort);
        reject(error);
      },
    );
  });
}

function ended(): RestateEpisodeError {
  return new RestateEpisodeError('restate_attempt_ended', 'the Restate attempt running this episode ended; a later attempt replays it');
}
