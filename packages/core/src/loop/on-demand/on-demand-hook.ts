/**
 * On-demand compaction as a hook of the loop: at each user boundary (before a new
 * episode's user message is saved, and when an episode ends) the session's compactor
 * gets its turn (on-demand-compaction.ts says what it does there). A durable run
 * compacts in steps of its journal instead (on-demand-durable.ts).
 */
import type { LoopHook, UserBoundary } from '../hooks/loop-hook.js';
import type { OnDemandCompactor } from './on-demand-compaction.js';
import type { DurableCompactions } from './on-demand-durable.js';

/** The hook of a session's on-demand compactor, or of a durable episode's compactions. */
export function onDemandHook(compactor: OnDemandCompactor, durable?: DurableCompactions): LoopHook {
  if (durable) return durableOnDemandHook(durable);
  const turn = ({ settings, messages, append, emit }: UserBoundary) => compactor.atUserBoundary(settings, messages, { append, emit });
  return {
    name: 'on-demand-compaction',
    atUserBoundary: turn,
    async finish(end) {
      await turn(end);
      return undefined;
    },
  };
}

function durableOnDemandHook(durable: DurableCompactions): LoopHook {
  return {
    name: 'on-demand-compaction',
    atUserBoundary: ({ settings, messages, append, emit }) => durable.atStart(settings, messages, { append, emit }),
    async finish({ settings, messages, append, emit }) {
      await durable.atEnd(settings, messages, { append, emit });
      return undefined;
    },
  };
}
