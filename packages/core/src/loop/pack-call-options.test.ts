import { describe, expect, it } from 'vitest';
import type { Message } from '../message/message.js';
import type { PackState, PackTuning } from '../packing/pack-types.js';
import { createApproximateCounter } from '../tokens/token-counter.js';
import { type CallPackInputs, packCallOptions } from './pack-call-options.js';

const messages: Message[] = [{ role: 'user', content: 'hi' }];
const state = { version: 1 } as unknown as PackState;
const tokenizer = createApproximateCounter();

function inputs(budget: number): CallPackInputs {
  return { messages, system: 'You debug CI failures.', tools: [], budget, retention: 'episode', tokenizer, state };
}

/** The options as the call spelled them before: a spread of the tuning, then the call's keys. */
function spelledOut(pack: PackTuning | undefined, budget: number, now: number) {
  const call = inputs(budget);
  return {
    ...pack,
    messages: call.messages,
    system: call.system,
    tools: call.tools,
    budget,
    retention: call.retention,
    tokenizer: call.tokenizer,
    state: call.state,
    ...(pack?.cacheTtlMs === undefined ? {} : { now }),
  };
}

describe('a model call\'s pack options', () => {
  it('have the keys, order and values of the tuning spread before the call\'s own', () => {
    const tunings: (PackTuning | undefined)[] = [
      undefined,
      { resultReader: 'read_cut_result' },
      { lowWater: 0.5, cacheTtlMs: 300_000, toolResultCap: 900 },
      // A key the call sets itself stays where the tuning has it and takes the call's value.
      { headShare: 0.4, budget: 5 } as PackTuning,
    ];
    for (const pack of tunings) {
      // Twice: the second call reuses the shape the first one made.
      for (const budget of [800, 700]) {
        const options = packCallOptions(pack, inputs(budget));
        const expected = spelledOut(pack, budget, options.now ?? 0);
        expect(Object.entries(options)).toEqual(Object.entries(expected));
      }
    }
  });

  it('take the tuning\'s values at every call', () => {
    const pack: PackTuning = { lowWater: 0.5 };
    expect(packCallOptions(pack, inputs(800)).lowWater).toBe(0.5);
    pack.lowWater = 0.6;
    expect(packCallOptions(pack, inputs(800)).lowWater).toBe(0.6);
  });

  it('carry the time of the call only with a cache lifetime', () => {
    const before = Date.now();
    const options = packCallOptions({ cacheTtlMs: 300_000 }, inputs(800));
    expect(options.now).toBeGreaterThanOrEqual(before);
    expect('now' in packCallOptions({ lowWater: 0.5 }, inputs(800))).toBe(false);
  });
});
