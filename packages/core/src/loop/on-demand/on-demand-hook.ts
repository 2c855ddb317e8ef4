/**
 * On-demand compaction as a hook of the loop: at each user boundary (before a new
 * episode's user message is saved, and when an episode ends) the session's compactor
 * gets its turn (on-demand-compaction.ts says what it does there).
 */
import type { LoopHook, UserBoundary } from '../hooks/loop-hook.js';
import type { OnDemandCompactor } from './on-demand-compaction.js';

/** The hook of a session's on-demand compactor. */
export function onDemandHook(compactor: OnDemandCompactor): LoopHook {
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
