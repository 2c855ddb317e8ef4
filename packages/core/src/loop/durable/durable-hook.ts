/**
 * A durable run as a hook of the loop (see durable-episode.ts for what changes under
 * a runtime): the episode is rewound to its start when the hook is made, each model
 * call and each tool execution is a step, a replayed step's messages are taken from
 * the store instead of written again, and a pause for approvals is a durable wait.
 */
import type { UserMessage } from '../../message/message.js';
import type { LoopHook } from '../hooks/loop-hook.js';
import type { LoopSession, LoopSettings } from '../loop-types.js';
import { pendingStep } from '../pending-step.js';
import type { DurableRun } from './durable-runtime.js';
import { DurableEpisode } from './durable-episode.js';

/** The hook of a durable run of `session` for `input` (undefined: a resumed episode). */
export function durableHook(
  run: DurableRun,
  settings: LoopSettings,
  session: LoopSession,
  input: UserMessage | undefined,
): LoopHook {
  const durable = new DurableEpisode(run, session.id, session.writer.messages, input);
  const { secrets } = settings;
  const redact = secrets ? (text: string) => secrets.redact(text) : undefined;
  // Decisions come from this run's durable waits only (see DurableEpisode.approvals).
  const approvals = durable.approvals(session.approvals);
  // Tools run one at a time, so a replay meets its steps in recorded order; made once per settings object.
  let made: { base: LoopSettings; settings: LoopSettings } | undefined;
  const stepped = (base: LoopSettings): LoopSettings => {
    if (made?.base !== base) made = { base, settings: { ...base, tools: durable.tools(base.tools, redact), maxConcurrency: 1 } };
    return made.settings;
  };
  return {
    name: 'durable',
    wrapModelCall: (next) => (callSettings, call) => durable.callModel(call.step, () => next(callSettings, call)),
    wrapToolBatch: (next) => async (batchSettings, batch, calls, signal) => {
      const ran = await next(stepped(batchSettings), { ...batch, approvals }, calls, signal);
      durable.throwIfFailed();
      return ran;
    },
    wrapAppend: (next) => async (messages) => {
      // A replayed step's messages are stored already: taken into memory, not written twice.
      const { stored, fresh } = durable.replay.match(messages);
      session.writer.take(stored);
      await next(fresh);
    },
    async decide(next, state) {
      if (next.type !== 'paused' || !durable.canWaitFor(next.pending)) return undefined;
      await durable.waitForDecisions(next.pending);
      return pendingStep(state.messages) ?? next;
    },
    async finish() {
      // Stored summary lines after the last replayed step join memory; a step left unreplayed fails the run.
      durable.replay.finish(session.writer.messages);
      return undefined;
    },
  };
}
