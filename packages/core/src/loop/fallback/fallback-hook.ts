/**
 * Model fallback as hooks of the loop (how the chain walks its models:
 * model-fallback.ts). Two of them, because a durable run records the walk as one
 * step: `models` walks the chain inside that step, and `prices`, outside it, finds
 * the settings of the model that answered (a replayed step's too), which price its
 * call and calibrate its tokenizer.
 */
import type { LoopHook } from '../hooks/loop-hook.js';
import type { FallbackChain } from './model-fallback.js';

/** The hooks of `chain`: `prices` goes before a durable run's hook, `models` after it. */
export function fallbackHooks(chain: FallbackChain): { prices: LoopHook; models: LoopHook } {
  return {
    prices: {
      name: 'fallback-prices',
      wrapModelCall: (next) => async (settings, call) => {
        const outcome = await next(settings, call);
        const used = chain.settingsOfModel(settings, outcome.message.model);
        return used === settings ? outcome : { ...outcome, answeredWith: used };
      },
    },
    models: {
      name: 'fallback',
      wrapModelCall: (next) => (settings, call) => chain.call(settings, call, (link) => next(link, call)),
    },
  };
}
