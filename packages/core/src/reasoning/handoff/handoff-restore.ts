/**
 * The hand-off for a history the application keeps (`session({ history })`, a
 * router's client that stores only visible messages): its current episode's
 * assistant messages of another model come back without their reasoning, so there
 * is nothing to quote in a hand-off note. The replay cache captured that reasoning
 * under the producing model and tool-call id; this puts it back on those messages,
 * tagged with their producer. It never reaches that other model's successor as
 * reasoning: the loop strips foreign reasoning before every call and, with
 * hand-off on, quotes it in the note instead (see handoff-call.ts).
 */
import { currentEpisodeStart } from '../../message/episodes.js';
import { type Message, type ModelRef, toolCallsOf } from '../../message/message.js';
import { type ReplayCache, toolCallKey } from '../replay-cache/replay-cache.js';
import { isForeign } from './handoff-note.js';

/** Result of {@link restoreForeignTraces}. */
export interface ForeignRestore {
  /** The history with the traces put back (unchanged messages are the same objects). */
  messages: Message[];
  /** Assistant messages that got a trace back. */
  restored: number;
  /** Tokens of the traces put back, as counted when captured. */
  tokens: number;
}

/**
 * Puts cached reasoning back on the current episode's assistant messages that another
 * model than `target` produced (they name it in `model`), made tool calls and carry no
 * reasoning. A history that ends with a final answer has no current episode left to
 * hand off (the next call opens a new one): nothing is looked up.
 */
export async function restoreForeignTraces(
  messages: readonly Message[],
  options: { cache: ReplayCache; target: ModelRef },
): Promise<ForeignRestore> {
  const result: ForeignRestore = { messages: [...messages], restored: 0, tokens: 0 };
  const last = messages.at(-1);
  if (last?.role === 'assistant' && toolCallsOf(last).length === 0) return result;
  for (let index = currentEpisodeStart(messages); index < messages.length; index += 1) {
    const message = messages[index] as Message;
    if (message.role !== 'assistant' || !message.model || !isForeign(message.model, options.target)) continue;
    if (message.content.some((part) => part.type === 'reasoning')) continue;
    for (const call of toolCallsOf(message)) {
      const entry = await options.cache.get(toolCallKey(message.model, call.id));
      if (!entry) continue;
      result.messages[index] = { ...message, content: [...entry.parts, ...message.content] };
      result.restored += 1;
      result.tokens += entry.tokens;
      break;
    }
  }
  return result;
}
