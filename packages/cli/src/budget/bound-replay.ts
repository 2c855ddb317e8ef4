/**
 * What a provider that binds reasoning to its prefix reads of a replayed request
 * (Anthropic preserved thinking, profile `signatureBoundToPrefix`; docs/providers.md,
 * "Bound thinking"). A thinking block is usable only while `system`, `tools` and every
 * message before it are what was sent when it was produced; once that prefix changed the
 * adapter leaves the block out (as `convert-to-anthropic-messages.ts` does, so the API
 * neither refuses nor bills it), and a block left out changes the prefix of every later
 * one, so they go too. The replay keeps `system` and `tools` fixed, so only messages
 * can change a prefix: an eviction, a cut or a reasoning drop before the block.
 */
import type { Message } from '@episodic/core';

function reasoningParts(message: Message): number {
  return message.role === 'assistant' ? message.content.filter((part) => part.type === 'reasoning').length : 0;
}

/** The binding check over the consecutive requests of one replay. */
export class BoundReplay {
  /** Where each block-carrying message (by its sent form) sat in the last request that kept it. */
  private readonly position = new Map<string, number>();
  private readonly lost = new Set<string>();
  private readonly stripped = new WeakMap<Message, Message>();
  private previous: readonly string[] = [];
  /** The history was just compacted: what the next request carries was produced after the summary. */
  private fresh = false;
  /** Reasoning parts left out for a changed prefix, each counted once. */
  dropped = 0;

  /**
   * The request as sent: `messages` with every reasoning part whose prefix changed left
   * out. A message with reasoning first seen here was produced by the previous call, so
   * its prefix is that call's request: it must sit right after it, unchanged.
   */
  apply(messages: readonly Message[]): Message[] {
    const sent: string[] = [];
    const out: Message[] = [];
    let intact = true;
    for (const [index, message] of messages.entries()) {
      let kept = message;
      let text = JSON.stringify(message);
      if (reasoningParts(message) > 0) {
        const seen = this.position.get(text);
        const valid = this.fresh || (intact && !this.lost.has(text) && (seen ?? this.previous.length) === index);
        if (valid) this.position.set(text, index);
        else {
          if (!this.lost.has(text)) this.dropped += reasoningParts(message);
          this.lost.add(text);
          this.position.delete(text);
          kept = this.withoutReasoning(message);
          text = JSON.stringify(kept);
        }
      }
      if (intact && this.previous[index] !== text) intact = false;
      sent.push(text);
      out.push(kept);
    }
    this.previous = sent;
    this.fresh = false;
    return out;
  }

  /**
   * A provider compaction replaced the history: the next request starts a new prefix,
   * and the blocks it carries (the answer after the summary) are bound to it.
   */
  reset(): void {
    this.previous = [];
    this.fresh = true;
  }

  private withoutReasoning(message: Message): Message {
    if (message.role !== 'assistant') return message;
    let copy = this.stripped.get(message);
    if (!copy) {
      copy = { ...message, content: message.content.filter((part) => part.type !== 'reasoning') };
      this.stripped.set(message, copy);
    }
    return copy;
  }
}
