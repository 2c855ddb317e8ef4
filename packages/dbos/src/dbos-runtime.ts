/**
 * The durability port on DBOS Transact: a step is `DBOS.runStep` (its result is
 * checkpointed in the DBOS system database), a durable sleep is `DBOS.sleep`, and a
 * wait is `DBOS.recv` on a topic (a message sent with `DBOS.send` from any process).
 * Only valid inside a DBOS workflow.
 */
import { DBOS } from '@dbos-inc/dbos-sdk';
import type { DurableRuntime } from '@episodic/core';

/** How long one `recv` waits before it is asked again (each is a checkpointed step; the wait has no overall limit). */
const RECV_SECONDS = 3_600;

/** The runtime of the DBOS workflow this is called in. */
export function dbosRuntime(): DurableRuntime {
  return {
    step: (id, run) => DBOS.runStep(run, { name: id }),
    sleep: (_id, ms) => DBOS.sleep(ms),
    waitFor: async <T>(name: string) => {
      for (;;) {
        const message = await DBOS.recv<{ value: T }>(name, { timeoutSeconds: RECV_SECONDS });
        if (message !== null) return message.value;
      }
    },
    // A workflow event: clients read the episode's waiting calls with getEvent.
    publish: (key, value) => DBOS.setEvent(key, value),
    // A step takes its id when it starts, before any await: steps may run side by side.
    concurrentSteps: true,
  };
}

/** Sends `value` to the DBOS workflow `workflowId` waiting (or about to wait) for `name`. */
export async function sendTo(workflowId: string, name: string, value: unknown): Promise<void> {
  await DBOS.send(workflowId, { value }, name);
}
