/**
 * A durable episode is replayed from its start: the loop's memory is rewound to the
 * messages before the episode, and what the store already holds of the episode
 * becomes the replay tail. Every message the replay appends is matched against the
 * tail first: a message already stored is taken into memory without being written
 * again (the write is idempotent), and the first message not stored is written as
 * usual. A replay that produces something else than was stored is a bug in a step
 * (it is not deterministic) and stops the run rather than fork the transcript.
 */
import { isEpisodeStart, type Message, toolCallsOf, type UserMessage, userText } from '../../message/message.js';
import { DurableRunError } from './durable-runtime.js';

/** What the store holds of the episode being replayed, not yet matched. */
export class ReplayTail {
  private constructor(private readonly stored: Message[]) {}

  /**
   * Cuts `messages` (the loop's memory, changed in place) back to the start of
   * episode `episode` and keeps the cut part as the tail. Throws when `input` is
   * not the stored input of that episode, or when the episode would not be the next
   * one (episodes run in order).
   */
  static rewind(messages: Message[], episode: number, input: UserMessage | undefined): ReplayTail {
    if (!input) throw new DurableRunError('durable_replay_mismatch', 'a durable run needs its input: it replays its episode from the start');
    const starts = messages.flatMap((message, index) => (isEpisodeStart(message) ? [index] : []));
    const start = starts[episode];
    if (start === undefined) {
      if (starts.length !== episode) {
        const detail = `the session has ${starts.length} episodes, so the next is episode ${starts.length}`;
        throw new DurableRunError('durable_replay_mismatch', `cannot run episode ${episode}: ${detail}`);
      }
      return new ReplayTail([]);
    }
    const stored = messages[start] as UserMessage;
    if (userText(stored) !== userText(input)) {
      throw new DurableRunError('durable_replay_mismatch', `episode ${episode} was started with another input than this run's`);
    }
    return new ReplayTail(messages.splice(start));
  }

  /** Stored messages not matched yet. */
  get remaining(): number {
    return this.stored.length;
  }

  /**
   * At the end of the run: moves stored summary lines still in the tail into
   * `messages` (memory keeps the store's length), and throws when anything else is
   * left, since the replay then ended before the stored run did.
   */
  finish(messages: Message[]): void {
    while (this.stored[0]?.role === 'summary') messages.push(this.stored.shift()!);
    const [next] = this.stored;
    if (next) {
      const detail = `${this.stored.length} stored messages of its episode were not replayed (first: ${keyOf(next)})`;
      throw new DurableRunError('durable_replay_mismatch', `the replay ended early: ${detail}`);
    }
  }

  /**
   * Splits `batch` into the messages already stored (matched in order, with any
   * stored summary lines in between) and the rest, which must be written. The
   * stored summary lines come back in `stored` too, so memory keeps the store's order.
   */
  match(batch: readonly Message[]): { stored: Message[]; fresh: Message[] } {
    const stored: Message[] = [];
    let index = 0;
    if (this.stored.length === 0) return { stored, fresh: [...batch] };
    for (; index < batch.length; index += 1) {
      while (this.stored[0]?.role === 'summary' && batch[index]?.role !== 'summary') stored.push(this.stored.shift()!);
      const next = this.stored[0];
      if (!next) break;
      const message = batch[index]!;
      // A summary line written in the background is not part of the replay: one the store
      // does not hold here cannot go in the middle of the stored episode, and is left out.
      if (message.role === 'summary' && next.role !== 'summary') continue;
      if (keyOf(next) !== keyOf(message)) {
        throw new DurableRunError(
          'durable_replay_mismatch',
          `the replay produced ${keyOf(message)} where the store holds ${keyOf(next)}: a step is not deterministic`,
        );
      }
      this.stored.shift();
      // The replayed message, not the stored one: it carries the reasoning a store may keep elsewhere.
      stored.push(message);
    }
    return { stored, fresh: batch.slice(index) };
  }
}

/** What identifies a message of an episode: its role and what the model or the tools made of it. */
function keyOf(message: Message): string {
  switch (message.role) {
    case 'user':
      return `user "${userText(message).slice(0, 60)}"`;
    case 'assistant':
      return `assistant [${toolCallsOf(message).map((call) => call.id).join(',')}] ${JSON.stringify(textOf(message)).slice(0, 80)}`;
    case 'tool':
      return `tool result ${message.toolCallId}`;
    default:
      return message.role;
  }
}

function textOf(message: Extract<Message, { role: 'assistant' }>): string {
  return message.content.flatMap((part) => (part.type === 'text' ? [part.text] : [])).join('');
}
