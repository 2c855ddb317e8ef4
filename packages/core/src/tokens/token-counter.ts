/**
 * Token counting with tiktoken. Counts are cached per part and per message object,
 * so within a session each message is tokenized once, when first seen (the agent
 * loop counts a message when it is appended), and packing costs only additions.
 */
import { get_encoding, type Tiktoken, type TiktokenEncoding } from 'tiktoken';
import { Calibration } from './calibration.js';
import { InvalidArgumentError } from '../errors.js';
import type { AssistantPart, Message, ToolSpec, UserPart } from '../message/message.js';

/** Framing overhead in tokens, following OpenAI's published counting recipe. */
export const FRAMING = {
  /** Per message: role and delimiters. */
  message: 4,
  /** Per tool call part: id, name, delimiters. */
  toolCall: 8,
  /** Per reasoning part. */
  reasoning: 2,
  /** Per tool definition. */
  tool: 8,
  /** Once per request: the priming of the assistant's reply. */
  reply: 3,
  /** An image in user content, counted flat. */
  image: 765,
} as const;

/** Counts tokens. Implementations must be deterministic. */
export interface TokenCounter {
  /** Name of the encoding, e.g. `o200k_base`. */
  readonly encoding: string;
  /** Scales raw counts to the provider's tokenizer; see {@link Calibration}. */
  readonly calibration: Calibration;
  /** Raw tokens of a text (no framing, no calibration). Not cached. */
  countText(text: string): number;
  /**
   * Raw tokens of `text`, cached under `owner`: a part or message object whose text
   * never changes (transcripts are append-only). Lets derived work (shortening a
   * tool result, reasoning statistics) reuse the count made when it was appended.
   */
  countCached(owner: object, text: string): number;
  /** Calibrated tokens of a message including framing. Cached per message object. */
  countMessage(message: Message): number;
  /** Calibrated tokens of a system prompt including framing. */
  countSystem(system: string): number;
  /** Calibrated tokens of tool definitions. Cached per tool object. */
  countTools(tools: readonly ToolSpec[]): number;
}

/** The tiktoken encodings a counter can use. */
export type EncodingName = 'o200k_base' | 'cl100k_base';

const encoders = new Map<string, Tiktoken>();

function encoder(name: EncodingName): Tiktoken {
  let found = encoders.get(name);
  if (!found) {
    if (name !== 'o200k_base' && name !== 'cl100k_base') {
      throw new InvalidArgumentError(`unknown encoding "${String(name)}": use o200k_base or cl100k_base`);
    }
    found = get_encoding(name as TiktokenEncoding);
    encoders.set(name, found);
  }
  return found;
}

/** Options of {@link createTokenCounter}. */
export interface TokenCounterOptions {
  /** Default `o200k_base`. */
  encoding?: EncodingName;
  /** A calibration to share (e.g. one per model); default a new one at factor 1. */
  calibration?: Calibration;
}

/**
 * A counter with its own caches. Keep one per session (or per model) so its
 * caches and calibration follow that session.
 */
export function createTokenCounter(options: TokenCounterOptions = {}): TokenCounter {
  const encoding = options.encoding ?? 'o200k_base';
  const tiktoken = encoder(encoding);
  return new CachingCounter(
    encoding,
    (text) => (text === '' ? 0 : tiktoken.encode_ordinary(text).length),
    options.calibration,
  );
}

/**
 * A fast approximate counter (about 4 characters per token) for tests and quick
 * estimates. Not for production budgets.
 */
export function createApproximateCounter(options: { calibration?: Calibration } = {}): TokenCounter {
  return new CachingCounter('approximate', (text) => Math.ceil(text.length / 4), options.calibration);
}

/** System prompts whose counts a counter keeps: enough for the sessions of a busy agent. */
const MAX_CACHED_SYSTEMS = 64;

class CachingCounter implements TokenCounter {
  readonly calibration: Calibration;
  private readonly parts = new WeakMap<object, number>();
  private readonly messages = new WeakMap<object, number>();
  private readonly texts = new WeakMap<object, number>();
  /** Raw counts of recent system prompts, least recently used first (sessions may fold in their own). */
  private readonly systems = new Map<string, number>();

  constructor(
    readonly encoding: string,
    private readonly raw: (text: string) => number,
    calibration?: Calibration,
  ) {
    this.calibration = calibration ?? new Calibration();
  }

  countText(text: string): number {
    return this.raw(text);
  }

  countCached(owner: object, text: string): number {
    let count = this.texts.get(owner);
    if (count === undefined) {
      count = this.raw(text);
      this.texts.set(owner, count);
    }
    return count;
  }

  countMessage(message: Message): number {
    let raw = this.messages.get(message);
    if (raw === undefined) {
      raw = this.rawMessage(message);
      this.messages.set(message, raw);
    }
    return this.calibration.apply(raw);
  }

  countSystem(system: string): number {
    let raw = this.systems.get(system);
    if (raw === undefined) raw = this.raw(system) + FRAMING.message;
    else this.systems.delete(system);
    this.systems.set(system, raw);
    if (this.systems.size > MAX_CACHED_SYSTEMS) this.systems.delete(this.systems.keys().next().value as string);
    return this.calibration.apply(raw);
  }

  countTools(tools: readonly ToolSpec[]): number {
    let raw = 0;
    for (const tool of tools) {
      let count = this.parts.get(tool);
      if (count === undefined) {
        count = this.raw(JSON.stringify(tool)) + FRAMING.tool;
        this.parts.set(tool, count);
      }
      raw += count;
    }
    return this.calibration.apply(raw);
  }

  private rawMessage(message: Message): number {
    switch (message.role) {
      case 'system':
        return FRAMING.message + this.raw(message.content);
      case 'user':
        if (typeof message.content === 'string') return FRAMING.message + this.countCached(message, message.content);
        return FRAMING.message + this.sumParts(message.content);
      case 'assistant':
        return FRAMING.message + this.sumParts(message.content);
      case 'tool':
        return FRAMING.message + this.raw(message.toolName) + this.countCached(message, message.content);
    }
  }

  private sumParts(parts: readonly (AssistantPart | UserPart)[]): number {
    let total = 0;
    for (const part of parts) {
      let count = this.parts.get(part);
      if (count === undefined) {
        count = this.rawPart(part);
        this.parts.set(part, count);
      }
      total += count;
    }
    return total;
  }

  private rawPart(part: AssistantPart | UserPart): number {
    switch (part.type) {
      case 'text':
        return this.countCached(part, part.text);
      case 'reasoning':
        return FRAMING.reasoning + this.countCached(part, part.text);
      case 'tool-call':
        return FRAMING.toolCall + this.raw(part.name) + this.raw(JSON.stringify(part.args ?? {}));
      case 'image':
        return FRAMING.image;
      default:
        return this.raw(JSON.stringify(part));
    }
  }
}
