/**
 * Rules across the lines of a transcript, which no single line can break on its own:
 * every tool-call id used once, every tool result
 * answering an earlier call, and no call answered twice. A transcript that breaks
 * them is refused where it is read (every reader and every session load), because
 * the packer pairs results with calls by id: with a duplicate id it would send one
 * result twice, and providers refuse orphan results. (Where system lines may stand
 * is a matter of the transcript version: see `transcript-version.ts`.)
 */
import { TranscriptError } from '../errors/input-errors.js';
import type { Message } from './message.js';

/** A broken rule: what is wrong, and in which field. */
export interface ConsistencyProblem {
  field: string;
  detail: string;
}

/** Checks messages in order; `problem` looks, `accept` records, `check` does both or throws. */
export class TranscriptConsistency {
  /** Tool-call id to the line of its call. */
  private readonly calls = new Map<string, number>();
  /** Tool-call id to the line of its result. */
  private readonly results = new Map<string, number>();

  /** What is wrong with `message` on `line`, given the messages accepted so far. */
  problem(message: Message, line: number): ConsistencyProblem | undefined {
    if (message.role === 'assistant') return this.callProblem(message, line);
    if (message.role === 'tool') return this.resultProblem(message.toolCallId);
    return undefined;
  }

  /** Records a message (checked or not) so later lines are checked against it. */
  accept(message: Message, line: number): void {
    if (message.role === 'assistant') {
      for (const part of message.content) {
        if (part.type === 'tool-call' && !this.calls.has(part.id)) this.calls.set(part.id, line);
      }
    }
    if (message.role === 'tool' && !this.results.has(message.toolCallId)) this.results.set(message.toolCallId, line);
  }

  /** Throws a {@link TranscriptError} naming both lines when `message` breaks a rule; records it otherwise. */
  check(message: Message, line: number, file?: string): void {
    const found = this.problem(message, line);
    if (found) throw new TranscriptError({ file, line, field: found.field }, found.detail);
    this.accept(message, line);
  }

  private callProblem(message: Extract<Message, { role: 'assistant' }>, line: number): ConsistencyProblem | undefined {
    const here = new Set<string>();
    for (const [index, part] of message.content.entries()) {
      if (part.type !== 'tool-call') continue;
      const earlier = this.calls.get(part.id);
      if (earlier !== undefined || here.has(part.id)) {
        const where = earlier === undefined ? `line ${line} (this message)` : `line ${earlier}`;
        return {
          field: `content[${index}].id`,
          detail:
            `tool call id ${JSON.stringify(part.id)} is already used on ${where}; every tool call needs its own id ` +
            'so that its result can be paired with it',
        };
      }
      here.add(part.id);
    }
    return undefined;
  }

  private resultProblem(id: string): ConsistencyProblem | undefined {
    const answered = this.results.get(id);
    if (answered !== undefined) {
      return {
        field: 'toolCallId',
        detail: `tool call ${JSON.stringify(id)} already has its result on line ${answered}; a call gets one result`,
      };
    }
    if (!this.calls.has(id)) {
      return {
        field: 'toolCallId',
        detail: `a result for tool call ${JSON.stringify(id)}, but no earlier line makes that call`,
      };
    }
    return undefined;
  }
}

/**
 * Checks a whole message list (a loaded session, a given history); message N is
 * "line N" of `source` in errors. Throws a `TranscriptError`.
 */
export function checkConsistency(messages: readonly Message[], source?: string): void {
  const consistency = new TranscriptConsistency();
  for (const [index, message] of messages.entries()) consistency.check(message, index + 1, source);
}
