/**
 * Tool-call ids made unique across an imported session. Some providers number calls
 * per response (Kimi's `functions.read:0` comes back in every response that reads a
 * file), and the recording keeps them as sent; a transcript pairs each result with
 * its call by id, so a reused id is renamed (`<id>-2`, `<id>-3`, ...) on the call and
 * on the result that answers it, as the agent loop renames one before saving.
 */
import type { Message } from '@episodic/core';

/** The messages with unique tool-call ids, and how many calls were renamed. */
export function withUniqueCallIds(messages: readonly Message[]): { messages: Message[]; renamed: number } {
  const used = new Set<string>();
  // A renamed call's original id, to its new id, until its result is seen.
  const open = new Map<string, string>();
  let renamed = 0;
  const out = messages.map((message): Message => {
    if (message.role === 'tool') {
      const id = open.get(message.toolCallId);
      if (id === undefined) return message;
      open.delete(message.toolCallId);
      return { ...message, toolCallId: id };
    }
    if (message.role !== 'assistant') return message;
    let changed = false;
    const content = message.content.map((part) => {
      if (part.type !== 'tool-call') return part;
      let id = part.id;
      for (let suffix = 2; used.has(id); suffix += 1) id = `${part.id}-${suffix}`;
      used.add(id);
      if (id === part.id) {
        open.delete(part.id);
        return part;
      }
      open.set(part.id, id);
      renamed += 1;
      changed = true;
      return { ...part, id };
    });
    return changed ? { ...message, content } : message;
  });
  return { messages: out, renamed };
}
