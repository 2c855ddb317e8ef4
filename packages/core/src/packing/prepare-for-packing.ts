/**
 * The counting done when a message is appended: its count and the packed forms a
 * later pack will need, made ahead so that the pack itself only adds up cached numbers.
 */
import type { Message } from '../message/message.js';
import type { PackOptions } from './pack-types.js';
import { packedFormsFor } from './packed-forms.js';
import { defaultTokenCounter } from './default-token-counter.js';
import { toolResultCaps } from './tool-result-caps.js';
import { boundsOf } from '../tokens/token-counter.js';

/** Options that decide the packed form of a single message. */
export type MessageFormOptions = Pick<
  PackOptions,
  'budget' | 'tokenizer' | 'toolResultCap' | 'currentToolResultCap' | 'resultReader'
>;

/**
 * Does the tokenizing work for one message ahead of time: its count and the packed
 * forms a later `packContext` with the same options will need (shortened tool
 * results, reasoning-free assistant message). Call it when a message is appended,
 * so the packing call itself only adds up cached numbers.
 */
export function prepareForPacking(message: Message, options: MessageFormOptions): void {
  const counter = options.tokenizer ?? defaultTokenCounter();
  // Ahead-of-time work only: before the tokenizer is loaded it would load it, which the
  // first pack may not need (see pack-bounds.ts); a pack that needs the counts makes them.
  if (boundsOf(counter)) return;
  const forms = packedFormsFor(counter, options.resultReader);
  if (message.role === 'tool') {
    // The larger cap first: its count goes further, and the smaller cap's head and
    // tail come out of the same chunks. A result that is cut is never counted whole.
    const { pastCap, currentCap } = toolResultCaps(options);
    counter.countMessage(forms.tool(message, currentCap));
    counter.countMessage(forms.tool(message, pastCap));
    return;
  }
  counter.countMessage(message);
  if (message.role === 'assistant') {
    forms.reasoningTokens(message);
    const stripped = forms.assistant(message, false);
    if (stripped) counter.countMessage(stripped);
  }
}
