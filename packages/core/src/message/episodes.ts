/**
 * Episodes: one user message and everything that answers it. See docs/architecture.md.
 */
import {
  type AssistantMessage,
  isEpisodeStart,
  isInstruction,
  type Message,
  type ToolCallPart,
  type ToolMessage,
  toolCallsOf,
} from './message.js';

/** A run of messages from one user message up to (not including) the next. */
export interface Episode {
  /** Position among the returned episodes. */
  index: number;
  /** Index of the first message in the input array. */
  start: number;
  /** Index one past the last message. */
  end: number;
  /** True for messages before the first user message (there is no user message). */
  preamble: boolean;
  messages: Message[];
}

/**
 * Splits messages into episodes, in order. Episode k starts at the k-th user
 * message and ends before the next one; tool messages never start an episode
 * (even though Anthropic sends tool results as user-role messages on the wire),
 * nor do injected user messages (`injected: true`, context no person typed) or
 * system and developer lines after the top: each belongs to the episode it stands
 * in. Messages before the first real user message, if any (leading system lines
 * excluded), form a preamble episode at the front with `preamble: true`. The
 * current episode is the last one.
 */
export function splitEpisodes(messages: readonly Message[]): Episode[] {
  let first = 0;
  while (first < messages.length && messages[first]?.role === 'system') first += 1;
  const starts = episodeStarts(messages, first);
  return starts.map((start, index) => {
    const end = starts[index + 1] ?? messages.length;
    const first = messages[start];
    const preamble = first === undefined || !isEpisodeStart(first);
    return { index, start, end, preamble, messages: messages.slice(start, end) };
  });
}

/**
 * Start indexes of the episodes of `messages` from index `from` on, without copying
 * messages (the packer calls it on every pack).
 */
export function episodeStarts(messages: readonly Message[], from = 0): number[] {
  const starts: number[] = [];
  if (from < messages.length) starts.push(from);
  for (let index = from + 1; index < messages.length; index += 1) {
    const message = messages[index];
    if (message && isEpisodeStart(message)) starts.push(index);
  }
  return starts;
}

/**
 * Index of the message that starts the current episode: the last user message a
 * person typed (injected ones do not count), or 0 when there is none.
 */
export function currentEpisodeStart(messages: readonly Message[]): number {
  for (let index = messages.length - 1; index >= 0; index -= 1) {
    const message = messages[index];
    if (message && isEpisodeStart(message)) return index;
  }
  return 0;
}

const isInstructionAt = (messages: readonly Message[], index: number) => {
  const message = messages[index];
  return message !== undefined && isInstruction(message);
};

/**
 * The tool calls of the transcript's last assistant message that have no result
 * after it (tool messages only may follow it, summary lines, which belong to no
 * episode, and system or developer lines, which are no turn), or undefined when there are none.
 */
export function unansweredToolCalls(
  messages: readonly Message[],
): { message: AssistantMessage; calls: ToolCallPart[] } | undefined {
  let index = messages.length - 1;
  while (index >= 0 && (messages[index]?.role === 'tool' || messages[index]?.role === 'summary' || isInstructionAt(messages, index))) index -= 1;
  const anchor = messages[index];
  if (anchor?.role !== 'assistant') return undefined;
  const answered = new Set(
    messages
      .slice(index + 1)
      .filter((message): message is ToolMessage => message.role === 'tool')
      .map((message) => message.toolCallId),
  );
  const calls = toolCallsOf(anchor).filter((call) => !answered.has(call.id));
  return calls.length > 0 ? { message: anchor, calls } : undefined;
}

/**
 * Whether the current episode still needs work: tool calls without results, or a
 * transcript that ends with a user or tool message (the model has not answered),
 * unless that tool message accepted a structured final answer (`finalAnswer`).
 */
export function episodeUnfinished(messages: readonly Message[]): boolean {
  // A system or developer line is an instruction at that point, no turn: it neither answers nor asks.
  const last = messages.findLast((message) => message.role !== 'summary' && !isInstruction(message));
  const answered = last?.role === 'tool' && last.finalAnswer === true;
  return last?.role === 'user' || (last?.role === 'tool' && !answered) || unansweredToolCalls(messages) !== undefined;
}
