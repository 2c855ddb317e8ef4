/**
 * What the provider bills for a request, which is not always what was sent:
 * - providers that strip reasoning of earlier user turns (profile `pastReasoning:
 *   'stripped'`: OpenAI, older Claude models) neither bill it nor cache on it, so it
 *   is left out of the count and of the prefix compared for cache reuse;
 * - encrypted reasoning (OpenAI `encrypted_content`) stands for more tokens than its
 *   summary text: while it is billed it counts as the reasoning tokens its message
 *   recorded (`usage.reasoningTokens`), not as its summary.
 * Copies without reasoning are made once per message object, so consecutive
 * requests compare by identity as the packer's own forms do.
 */
import {
  type AssistantMessage,
  isEpisodeStart,
  type Message,
  type PastReasoning,
  type TokenCounter,
} from '@episodic/core';

/** One request as billed. */
export interface BilledRequest {
  /** Messages as the provider reads them. */
  messages: readonly Message[];
  /** Tokens of each message as billed (hidden reasoning included). */
  tokens: readonly number[];
  /** Hidden reasoning tokens of each message (see {@link BilledRequest.hiddenReasoningTokens}). */
  hidden: readonly number[];
  /** Billed tokens of all messages. */
  messageTokens: number;
  /** Of which: reasoning billed at its recorded size beyond what its summary text counts. */
  hiddenReasoningTokens: number;
}

/** Billed views of requests for one provider rule and counter. */
export class BilledView {
  private readonly stripped = new WeakMap<Message, Message>();

  /**
   * @param boundReasoning the provider binds reasoning to its prefix (profile
   * `signatureBoundToPrefix`): each replay then sends its requests through its own
   * `BoundReplay` before billing them (the view itself keeps no per-replay state).
   */
  constructor(
    private readonly counter: TokenCounter,
    private readonly pastReasoning: PastReasoning,
    readonly boundReasoning = false,
  ) {}

  /** The request `packed` (the messages sent, no system lines) as the provider bills it. */
  of(packed: readonly Message[]): BilledRequest {
    let turnStart = 0;
    for (let index = packed.length - 1; index >= 0; index -= 1) {
      if (isEpisodeStart(packed[index]!)) {
        turnStart = index;
        break;
      }
    }
    const messages: Message[] = [];
    const tokens: number[] = [];
    const hiddenTokens: number[] = [];
    let messageTokens = 0;
    let hiddenReasoningTokens = 0;
    for (const [index, message] of packed.entries()) {
      const billed = this.pastReasoning === 'stripped' && index < turnStart ? this.withoutReasoning(message) : message;
      const hidden = billed.role === 'assistant' ? this.hiddenReasoning(billed) : 0;
      const count = this.counter.countMessage(billed) + hidden;
      messages.push(billed);
      tokens.push(count);
      hiddenTokens.push(hidden);
      messageTokens += count;
      hiddenReasoningTokens += hidden;
    }
    return { messages, tokens, hidden: hiddenTokens, messageTokens, hiddenReasoningTokens };
  }

  /**
   * Tokens at the start of `request` that are the same messages as in `previous`
   * (hidden reasoning included), and of those the hidden reasoning.
   */
  static shared(previous: BilledRequest | undefined, request: BilledRequest): { tokens: number; hidden: number } {
    const shared = { tokens: 0, hidden: 0 };
    if (!previous) return shared;
    const length = Math.min(previous.messages.length, request.messages.length);
    for (let index = 0; index < length; index += 1) {
      if (previous.messages[index] !== request.messages[index]) break;
      shared.tokens += request.tokens[index]!;
      shared.hidden += request.hidden[index]!;
    }
    return shared;
  }

  private withoutReasoning(message: Message): Message {
    if (message.role !== 'assistant' || !message.content.some((part) => part.type === 'reasoning')) return message;
    let copy = this.stripped.get(message);
    if (!copy) {
      copy = { ...message, content: message.content.filter((part) => part.type !== 'reasoning') };
      this.stripped.set(message, copy);
    }
    return copy;
  }

  /** Reasoning tokens recorded beyond what the encrypted reasoning's summary text counts. */
  private hiddenReasoning(message: AssistantMessage): number {
    const recorded = message.usage?.reasoningTokens ?? 0;
    if (recorded === 0) return 0;
    const encrypted = message.content.some(
      (part) => part.type === 'reasoning' && typeof part.providerData?.encrypted_content === 'string',
    );
    if (!encrypted) return 0;
    const visible = this.counter.countMessage(message) - this.counter.countMessage(this.withoutReasoning(message));
    return Math.max(0, recorded - visible);
  }
}
