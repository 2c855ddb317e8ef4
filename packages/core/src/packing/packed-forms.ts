/**
 * The packed form of a single message: the same message with reasoning parts
 * removed, unpaired tool calls removed, or its tool result shortened. A packed form
 * is a pure function of the message and the settings, and is cached per message
 * object, so the same input yields the same object (counted and hashed once) on
 * every call. That is what keeps consecutive packs byte-identical.
 */
import type { AssistantMessage, AssistantPart, Message, ToolMessage, ToolResultPart } from '../message/message.js';
import { hasReasoningData, withoutReasoningData } from '../message/reasoning-data.js';
import { type CutReader, shortenTallied, shortenText } from './shorten.js';
import { reasoningContentTokens, reportedShare } from '../tokens/reasoning-tokens.js';
import { FRAMING, rememberTokens, tallyOf, type TokenCounter } from '../tokens/token-counter.js';

/**
 * Packed forms for one token counter and one reader of cut results (tool-result
 * shortening depends on the tokenizer, and its marker on the reader).
 */
export class PackedForms {
  /** Per message, its packed forms by key: a cap (a number, no string built per lookup) for tool results, a string for assistant messages. */
  private readonly cache = new WeakMap<Message, Map<string | number, Message | null>>();
  private readonly reasoning = new WeakMap<Message, number>();
  private readonly episodes = new WeakMap<Message, { last: Message; length: number; key: string; packed: unknown }>();

  /** `reader`: the tool that reads cut results, named in every marker (see `PackOptions.resultReader`). */
  constructor(
    private readonly counter: TokenCounter,
    private readonly reader?: string,
  ) {}

  /**
   * An assistant message with or without its reasoning and with only the tool calls
   * in `pairedCalls` (undefined: keep all). Returns null when nothing is left.
   */
  assistant(
    message: AssistantMessage,
    keepReasoning: boolean,
    pairedCalls?: ReadonlySet<string>,
  ): AssistantMessage | null {
    const dropsCalls = pairedCalls !== undefined && message.content.some((part) => isUnpairedCall(part, pairedCalls));
    // Reasoning data riding on text and tool-call parts (Gemini signatures) goes with the reasoning.
    const dropsReasoning =
      !keepReasoning && message.content.some((part) => part.type === 'reasoning' || hasReasoningData(part));
    if (!dropsCalls && !dropsReasoning) return message.content.length > 0 ? message : null;
    const key = dropsCalls
      ? `a${keepReasoning ? 1 : 0}:${message.content.filter((part) => !isUnpairedCall(part, pairedCalls)).map(callId)}`
      : 'a0';
    return this.cached(message, key, () => {
      const content = message.content
        .filter((part) => (keepReasoning || part.type !== 'reasoning') && !isUnpairedCall(part, pairedCalls))
        .map((part) => (keepReasoning ? part : withoutReasoningData(part)));
      return content.length > 0 ? { ...message, content } : null;
    }) as AssistantMessage | null;
  }

  /**
   * A tool result shortened to at most `cap` raw tokens of content. With a counter
   * that keeps progressive counts, a result that is cut is never tokenized whole, and
   * the shortened form's count comes from its parts. A result with content parts
   * that is over the cap becomes text: its text parts joined and shortened, each
   * image or file replaced by a note that it was left out (the marker's offsets are
   * into that text).
   */
  tool(message: ToolMessage, cap: number): ToolMessage {
    return this.cached(message, cap, () => {
      const { counter } = this;
      const count = (text: string) => counter.countText(text);
      const { content } = message;
      const reader: CutReader | undefined = this.reader ? { tool: this.reader, toolCallId: message.toolCallId } : undefined;
      if (typeof content !== 'string') {
        if (this.partsTokens(content) <= cap) return message;
        return { ...message, content: shortenText(partsAsText(content), cap, count, undefined, reader), truncated: true };
      }
      const tally = tallyOf(counter, message, content);
      if (!tally) {
        const total = counter.countCached(message, content);
        const shortened = total <= cap ? content : shortenText(content, cap, count, total, reader);
        return shortened === content ? message : { ...message, content: shortened, truncated: true };
      }
      const shortened = shortenTallied(tally, cap, count, reader);
      if (shortened.text === content) return message;
      const form: ToolMessage = { ...message, content: shortened.text, truncated: true };
      rememberTokens(counter, form, shortened.text, shortened.tokens);
      return form;
    }) as ToolMessage;
  }

  /** Raw tokens of a tool result's content parts, as the counter counts them. */
  private partsTokens(parts: readonly ToolResultPart[]): number {
    let total = 0;
    for (const part of parts) {
      if (part.type === 'text') total += this.counter.countCached(part, part.text);
      else total += part.type === 'image' ? FRAMING.image : FRAMING.file;
    }
    return total;
  }

  /** Calibrated tokens of an assistant message's reasoning parts (framing included). */
  reasoningTokens(message: AssistantMessage): number {
    let raw = this.reasoning.get(message);
    if (raw === undefined) {
      raw = 0;
      const share = reportedShare(message);
      for (const part of message.content) {
        if (part.type === 'reasoning')
          raw += FRAMING.reasoning + reasoningContentTokens(part, this.counter.countCached(part, part.text), share);
      }
      this.reasoning.set(message, raw);
    }
    return this.counter.calibration.apply(raw);
  }

  /**
   * A past episode's packed result, cached under its first message. A past episode
   * never changes (transcripts are append-only), so it is packed once per settings
   * key instead of on every call. The cache is checked against the episode's last
   * message and length, so a different transcript never gets a stale entry.
   */
  pastEpisode<T>(messages: readonly Message[], start: number, end: number, key: string, make: () => T): T {
    const first = messages[start] as Message;
    const last = messages[end - 1] as Message;
    const entry = this.episodes.get(first);
    if (entry && entry.last === last && entry.length === end - start && entry.key === key) return entry.packed as T;
    const packed = make();
    this.episodes.set(first, { last, length: end - start, key, packed });
    return packed;
  }

  private cached(message: Message, key: string | number, make: () => Message | null): Message | null {
    let variants = this.cache.get(message);
    if (!variants) {
      variants = new Map();
      this.cache.set(message, variants);
    }
    const found = variants.get(key);
    if (found !== undefined) return found;
    const made = make();
    variants.set(key, made);
    return made;
  }
}

/**
 * Content parts as one text: images and files become a note that they were left out.
 * A shortened result's marker counts its offsets in this text.
 */
export function partsAsText(parts: readonly ToolResultPart[]): string {
  return parts
    .map((part) => (part.type === 'text' ? part.text : `[${part.type} left out of this shortened tool result]`))
    .join('\n');
}

function isUnpairedCall(part: AssistantPart, pairedCalls: ReadonlySet<string> | undefined): boolean {
  return pairedCalls !== undefined && part.type === 'tool-call' && !pairedCalls.has(part.id);
}

function callId(part: AssistantPart): string {
  return part.type === 'tool-call' ? part.id : (part.type[0] ?? '');
}

/** Per counter, its packed-form caches by reader name ('' for none: a tool name is never empty). */
const formsByCounter = new WeakMap<TokenCounter, Map<string, PackedForms>>();

/**
 * The packed-form cache that belongs to a counter, and to a reader of cut results: forms
 * made with and without a reader (or with another one) never share a cache entry.
 */
export function packedFormsFor(counter: TokenCounter, reader?: string): PackedForms {
  let byReader = formsByCounter.get(counter);
  if (!byReader) {
    byReader = new Map();
    formsByCounter.set(counter, byReader);
  }
  let forms = byReader.get(reader ?? '');
  if (!forms) {
    forms = new PackedForms(counter, reader);
    byReader.set(reader ?? '', forms);
  }
  return forms;
}
