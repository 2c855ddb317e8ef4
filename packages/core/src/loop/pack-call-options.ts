/**
 * The pack options of one model call: the agent's pack tuning, then what the call
 * packs (its messages, budget and state) and what every call shares.
 *
 * Built on a shape made once per tuning, with every key the options get, all
 * undefined: V8 (Node 20) takes a slow path for each key added to an object made by
 * a spread, and none for a key the object already has, so spreading the shape first
 * makes every later key an overwrite. The keys, their order and their values are
 * those of `{ ...pack, messages, system, ... }`.
 */
import type { PackOptions, PackTuning } from '../packing/pack-types.js';

/** The keys a call adds after the tuning's, in order (`now` only with a cache lifetime). */
const CALL_KEYS = ['messages', 'system', 'tools', 'budget', 'retention', 'tokenizer', 'state'] as const;

/** What a call packs, and with what. */
export type CallPackInputs = Pick<PackOptions, (typeof CALL_KEYS)[number]>;

const shapes = new WeakMap<PackTuning, Partial<PackOptions>>();
let untuned: Partial<PackOptions> | undefined;

function shapeOf(pack: PackTuning | undefined): Partial<PackOptions> {
  if (!pack) return (untuned ??= makeShape(undefined));
  let shape = shapes.get(pack);
  if (!shape) {
    shape = makeShape(pack);
    shapes.set(pack, shape);
  }
  return shape;
}

function makeShape(pack: PackTuning | undefined): Partial<PackOptions> {
  const shape: Record<PropertyKey, unknown> = { ...pack };
  for (const key of Reflect.ownKeys(shape)) shape[key] = undefined;
  for (const key of CALL_KEYS) shape[key] = undefined;
  if (pack?.cacheTtlMs !== undefined) shape.now = undefined;
  return shape;
}

/** `pack`'s knobs, then the call's inputs (and the time, with a cache lifetime). */
export function packCallOptions(pack: PackTuning | undefined, call: CallPackInputs): PackOptions {
  const options: PackOptions = {
    ...shapeOf(pack),
    ...pack,
    messages: call.messages,
    system: call.system,
    tools: call.tools,
    budget: call.budget,
    retention: call.retention,
    tokenizer: call.tokenizer,
    state: call.state,
  };
  // The time of the call, kept in the state: the next pack tells from it whether the cache went cold.
  if (pack?.cacheTtlMs !== undefined) options.now = Date.now();
  return options;
}
