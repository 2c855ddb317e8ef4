/**
 * The reads of cut tool results a replay assumes the model makes, so that what a cut
 * saves is weighed against the calls it causes (the benchmarks and `episodic budget`
 * model them alike, from this one definition).
 *
 * The assumption is the costly one: a result of the current episode that the model
 * sees cut for the first time (it was appended since the previous call) is read back
 * whole with the reader of cut results, one read per reader-sized slice, each read one
 * more model call. A read call sends the previous call's input (a cached prefix) plus
 * the read: the model's call of the reader and the slice it returns. Reads are not
 * added to the transcript the replay goes on with (later calls would carry them until
 * the episode ends), so the cost of a cut is, if anything, under-counted there.
 */
import type { Message, ToolMessage } from '../message/message.js';
import { partsAsText } from '../packing/packed-forms.js';
import type { TokenCounter } from '../tokens/token-counter.js';
import { CUT_RESULT_READER } from './cut-results/cut-result-reader.js';
import { MIN_READ_TOKENS } from './cut-results/cut-result-offer.js';

/** Text of a tool message's content. */
function resultText(message: ToolMessage): string {
  return typeof message.content === 'string' ? message.content : partsAsText(message.content);
}

const overheads = new WeakMap<TokenCounter, number>();

/** Tokens of a read besides its slice: the reader's call and the result message's framing. */
function readOverhead(counter: TokenCounter): number {
  let overhead = overheads.get(counter);
  if (overhead === undefined) {
    const id = 'call_00000000000000000000000';
    const call: Message = {
      role: 'assistant',
      content: [{ type: 'tool-call', id, name: CUT_RESULT_READER, args: { toolCallId: id, offset: 100_000 } }],
    };
    const header = `[characters 100000-112000 of 250000 of the result of ${id}; more: {"toolCallId":"${id}","offset":112000}]\n`;
    overhead = counter.countMessage(call) + counter.countMessage({ role: 'tool', toolCallId: id, toolName: CUT_RESULT_READER, content: header });
    overheads.set(counter, overhead);
  }
  return overhead;
}

/**
 * Tokens each modelled read adds to the context, in order, for one call that sent
 * `packed`: the results among `fresh` (the messages appended since the previous call)
 * that went out cut, each read back in slices of at most `readCap` tokens. Empty when
 * nothing fresh was cut, or when `readCap` is under the smallest read worth a reader
 * (the agent then offers none; what was cut is not read).
 */
export function modelledReads(
  packed: readonly Message[],
  fresh: readonly Message[],
  counter: TokenCounter,
  readCap: number,
): number[] {
  if (readCap < MIN_READ_TOKENS) return [];
  const originals = new Map<string, ToolMessage>();
  for (const message of fresh) if (message.role === 'tool') originals.set(message.toolCallId, message);
  if (originals.size === 0) return [];
  const reads: number[] = [];
  for (const message of packed) {
    if (message.role !== 'tool') continue;
    const original = originals.get(message.toolCallId);
    // The packer sends a result it shortens as a new object; one it sends whole, as it is.
    if (original === undefined || original === message) continue;
    const sent = resultText(message);
    const whole = resultText(original);
    if (sent === whole) continue;
    let left = Math.max(1, counter.countText(whole) - counter.countText(sent));
    while (left > 0) {
      const slice = Math.min(readCap, left);
      reads.push(readOverhead(counter) + slice);
      left -= slice;
    }
  }
  return reads;
}
