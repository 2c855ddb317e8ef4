/**
 * The Vercel AI SDK baseline: `pruneMessages` from `ai` (v6), then the oldest
 * messages dropped until the context fits, the usual pattern in `prepareStep`:
 * https://ai-sdk.dev/docs/reference/ai-sdk-core/prune-messages
 *
 * Settings:
 * - the history is kept as AI SDK `ModelMessage`s, converted once when appended;
 * - `reasoning: 'before-last-message'`: in an agent loop the last message before a
 *   call is a tool result or a user message, so this removes every reasoning part,
 *   including the current episode's (the SDK gives no per-turn option);
 * - `toolCalls: 'none'` (keep them): pruning older tool calls would hide the
 *   results the current episode still works from;
 * - `emptyMessages: 'remove'`;
 * - drop-oldest removes a user message alone, or an assistant message together with
 *   the tool results that follow it, so tool pairs stay whole;
 * - token counts are cached per part (the SDK copies assistant messages on every
 *   prune but keeps their part objects), filled on append with tiktoken o200k.
 */
import { FRAMING } from '@episodic/core/internal';
import { pruneMessages } from 'ai';

const SOURCE = Symbol('transcript source');

function tagged(value, source) {
  value[SOURCE] = source;
  return value;
}

function toModelMessage(message) {
  switch (message.role) {
    case 'user':
      return tagged({ role: 'user', content: message.content }, message);
    case 'assistant':
      return tagged(
        {
          role: 'assistant',
          content: message.content.map((part) => {
            if (part.type === 'tool-call') {
              return tagged({ type: 'tool-call', toolCallId: part.id, toolName: part.name, input: part.args }, part);
            }
            return tagged({ type: part.type, text: part.text }, part);
          }),
        },
        message,
      );
    case 'tool': {
      const output = { type: message.isError ? 'error-text' : 'text', value: message.content };
      const result = { type: 'tool-result', toolCallId: message.toolCallId, toolName: message.toolName, output };
      return tagged({ role: 'tool', content: [tagged(result, message)] }, message);
    }
    default:
      throw new Error(`unexpected ${message.role} message in the bench transcript`);
  }
}

/** Tokens of one part, the same recipe as @episodic/core's counter (calibration factor 1). */
function countPart(counter, part) {
  if (part.type === 'reasoning') return FRAMING.reasoning + counter.countText(part.text);
  if (part.type === 'tool-call')
    return FRAMING.toolCall + counter.countText(part.name) + counter.countText(JSON.stringify(part.args ?? {}));
  return counter.countText(part.text);
}

/**
 * @param {{ budget: number, counter: import('@episodic/core').TokenCounter, system: string,
 *   tools: import('@episodic/core').ToolSpec[] }} options
 */
export function createStrategy({ budget, counter, system, tools }) {
  const history = [];
  const messageCounts = new WeakMap();
  const partCounts = new WeakMap();
  const stripped = new WeakMap();
  const limit = budget - FRAMING.reply - counter.countSystem(system) - counter.countTools(tools);
  const countOf = (message) => {
    const whole = messageCounts.get(message);
    if (whole !== undefined) return whole;
    let total = FRAMING.message;
    for (const part of message.content) total += partCounts.get(part);
    return total;
  };
  return {
    name: 'Vercel pruneMessages',
    settings:
      "reasoning 'before-last-message', toolCalls 'none', emptyMessages 'remove', then drop oldest (pairs kept)",
    onAppend(message) {
      const converted = toModelMessage(message);
      history.push(converted);
      if (message.role === 'assistant') {
        converted.content.forEach((part, index) => {
          partCounts.set(part, countPart(counter, message.content[index]));
        });
      } else {
        messageCounts.set(converted, counter.countMessage(message));
      }
    },
    pack() {
      const pruned = pruneMessages({
        messages: history,
        reasoning: 'before-last-message',
        toolCalls: 'none',
        emptyMessages: 'remove',
      });
      const sizes = pruned.map(countOf);
      let total = sizes.reduce((sum, size) => sum + size, 0);
      let start = 0;
      while (start < pruned.length && total > limit) {
        // An assistant message leaves together with the tool results that answer it.
        do {
          total -= sizes[start];
          start += 1;
        } while (start < pruned.length && pruned[start].role === 'tool');
      }
      return pruned.slice(start);
    },
    toTranscript(packed) {
      return packed.map((message) => {
        const source = message[SOURCE];
        if (message.role !== 'assistant' || message.content.length === source.content.length) return source;
        // Same source, same kept parts: reuse one object so the metrics' caches hit.
        let form = stripped.get(source);
        if (form?.content.length !== message.content.length) {
          form = { ...source, content: message.content.map((part) => part[SOURCE]) };
          stripped.set(source, form);
        }
        return form;
      });
    },
  };
}
