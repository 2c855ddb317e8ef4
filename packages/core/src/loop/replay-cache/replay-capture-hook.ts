/**
 * The replay cache as a hook of the loop: after each step is persisted, its
 * reasoning is captured (reasoning/replay-cache/replay-capture.ts), so a history
 * that comes back without it (a client that keeps visible messages only) can have it
 * restored.
 */
import type { AgentEventHandler } from '../agent-events.js';
import { captureForReplay } from '../../reasoning/replay-cache/replay-capture.js';
import type { LoopHook } from '../hooks/loop-hook.js';
import type { LoopSettings } from '../loop-types.js';

/** The hook that captures every step's reasoning into `settings.replayCache`. */
export function replayCaptureHook(settings: LoopSettings, emit: AgentEventHandler): LoopHook {
  return {
    name: 'replay-capture',
    afterStep: ({ message, previous, step }) => captureForReplay(settings, { message, previous, step }, emit),
  };
}
