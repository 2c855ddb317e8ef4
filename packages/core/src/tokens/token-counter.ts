/**
 * Token counting with OpenAI's BPE encodings (o200k_base, cl100k_base): tiktoken's
 * WASM build on Node; elsewhere the UTF-8 byte bound (see platform/edge-encoder.ts)
 * unless an exact encoder, such as js-tiktoken, is passed in.
 * Counts are cached per part and per message object,
 * so within a session each message is tokenized once, when first seen (the agent
 * loop counts a message when it is appended), and packing costs only additions.
 *
 * Text is encoded in chunks cut where tiktoken's pieces meet (see `text-chunks.ts`),
 * so counting any string takes time linear in its length and never throws; long runs
 * of one character are cut inside and may count a token more per cut, never fewer.
 */
// tiktoken on Node, the byte bound elsewhere (package.json `imports`).
import { defaultEncoder, defaultIsExact } from '#default-encoder';
import { Calibration } from './calibration.js';
import { reasoningContentTokens, reportedShare } from './reasoning-tokens.js';
import type { AssistantPart, Message, ToolResultPart, ToolSpec, UserPart } from '../message/message.js';
import { checkEncodingName, type EncodingName, type TokenEncoder } from './token-encoder.js';
import { countInChunks, type ChunkEncoder, TextTally } from './text-tally.js';
import { type PieceEncoder, pieceCounting } from './piece-counts.js';
import { utf8Length } from './utf8-length.js';

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
  /** An image in user content or a tool result, counted flat. */
  image: 765,
  /** A file in a tool result (a PDF page or two), counted flat: its size on the wire says little. */
  file: 1500,
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

/**
 * The progressive count of `text`, kept under `owner` like {@link TokenCounter.countCached}
 * (whose count it is), when `counter` is a built-in BPE counter; else undefined. The
 * packer uses it to shorten a long tool result without tokenizing the whole result.
 * A function, not a method of the public interface: the tally is the tokenizer's internals.
 */
export function tallyOf(counter: TokenCounter, owner: object, text: string): TextTally | undefined {
  return counter instanceof CachingCounter ? counter.tally?.(owner, text) : undefined;
}

/**
 * Records that `text`, kept under `owner`, has `tokens` raw tokens because it was
 * assembled from counted parts at piece boundaries (paired with {@link tallyOf}).
 */
export function rememberTokens(counter: TokenCounter, owner: object, text: string, tokens: number): void {
  if (counter instanceof CachingCounter) counter.remember?.(owner, text, tokens);
}

/** Options of {@link createTokenCounter}. */
export interface TokenCounterOptions {
  /** Default `o200k_base`. */
  encoding?: EncodingName;
  /**
   * The tokenizer for that encoding. Default: tiktoken (WASM) on Node; in browsers and edge
   * runtimes the text's UTF-8 length, an upper bound of the count that ships no rank table
   * (pass js-tiktoken, an optional peer, for exact counts there).
   */
  encoder?: TokenEncoder;
  /** A calibration to share (e.g. one per model); default a new one at factor 1. */
  calibration?: Calibration;
}

/**
 * A counter with its own caches. Keep one per session (or per model) so its
 * caches and calibration follow that session.
 */
export function createTokenCounter(options: TokenCounterOptions = {}): TokenCounter {
  const encoding = options.encoding ?? 'o200k_base';
  if (!options.encoder) checkEncodingName(encoding);
  // One passed in is used as given; the built-in one is loaded on the first exact count.
  let encode = options.encoder ? chunkEncoder(options.encoder) : undefined;
  const exact = () => (encode ??= builtInChunkEncoder(encoding));
  const counter = new CachingCounter(encoding, (text) => countInChunks(text, exact()).tokens, options.calibration);
  counter.tally = (owner, text) => counter.tallyOf(owner, text, exact());
  counter.remember = (owner, _text, tokens) => counter.rememberCount(owner, tokens);
  if (!options.encoder && defaultIsExact) {
    let bounds: CachingCounter | undefined;
    counter.bounds = () => (encode ? undefined : (bounds ??= new CachingCounter(encoding, utf8Length, counter.calibration)));
  }
  return counter;
}

/**
 * While `counter` is a built-in exact counter whose tokenizer has not been loaded yet,
 * its byte-bound twin (same calibration, own caches; see utf8-length.ts); else undefined.
 * The packer uses it to send a first request that fits by the bound without waiting for
 * tiktoken's load (seconds on a busy machine), which then happens on the first exact count.
 */
export function boundsOf(counter: TokenCounter): TokenCounter | undefined {
  return counter instanceof CachingCounter ? counter.bounds?.() : undefined;
}

/**
 * The platform's default encoder of `encoding`: tiktoken counting piece by piece (the
 * same counts, see piece-counts.ts), or the byte bound as it is (a sum of bytes gains
 * nothing from pieces). tiktoken loads here.
 */
function builtInEncoder(encoding: EncodingName): TokenEncoder | PieceEncoder {
  const encoder = defaultEncoder(encoding);
  return defaultIsExact ? pieceCounting(encoder, encoding) : encoder;
}

/**
 * The built-in encoder's chunk encoder; counting piece by piece, it also counts a text
 * whole where chunks would add up to the same count (see `countUnchunked` in
 * piece-counts.ts), sparing the chunk scan.
 */
function builtInChunkEncoder(encoding: EncodingName): ChunkEncoder {
  const encoder = builtInEncoder(encoding);
  const encode = chunkEncoder(encoder);
  if ('countUnchunked' in encoder) encode.whole = (text) => encoder.countUnchunked(text);
  return encode;
}

/** Chunks repeated inside long runs, by text; enough for runs of a few different characters. */
const MAX_REMEMBERED_CHUNKS = 1024;

/**
 * Encodes one chunk. A chunk is short and holds no long piece, so the encoder does
 * not fail on it; if it ever did, the chunk's UTF-8 length stands in (every token is at
 * least one byte, so the count stays at or above the truth). Chunks cut out of long
 * runs repeat (a megabyte of `=` is 5,000 equal chunks) and are remembered.
 */
function chunkEncoder(encoder: TokenEncoder): ChunkEncoder {
  const remembered = new Map<string, number>();
  // Only chunks that may be cut out of a run are kept; any other is never looked up
  // (a lookup hashes the whole chunk, a visible share of counting a tool result).
  const mayRepeat = (chunk: string) => chunk.length >= 64 && chunk.charCodeAt(0) === chunk.charCodeAt(chunk.length - 1);
  return (chunk) => {
    if (chunk === '') return 0;
    const repeats = mayRepeat(chunk);
    if (repeats) {
      const known = remembered.get(chunk);
      if (known !== undefined) return known;
    }
    let tokens: number;
    try {
      tokens = encoder.count(chunk);
    } catch {
      tokens = new TextEncoder().encode(chunk).length;
    }
    if (repeats) {
      if (remembered.size >= MAX_REMEMBERED_CHUNKS) remembered.clear();
      remembered.set(chunk, tokens);
    }
    return tokens;
  };
}

/**
 * A fast approximate counter (about 4 characters per token) for tests and quick
 * estimates. Not for production budgets.
 */
export function createApproximateCounter(options: { calibration?: Calibration } = {}): TokenCounter {
  return new CachingCounter('approximate', (text) => Math.ceil(text.length / 4), options.calibration);
}

/** Tool names whose counts a counter keeps. */
const MAX_CACHED_NAMES = 256;

/** System prompts whose counts a counter keeps: enough for the sessions of a busy agent. */
const MAX_CACHED_SYSTEMS = 64;

class CachingCounter implements TokenCounter {
  readonly calibration: Calibration;
  tally?: (owner: object, text: string) => TextTally;
  remember?: (owner: object, text: string, tokens: number) => void;
  /** See {@link boundsOf}. */
  bounds?: () => CachingCounter | undefined;
  private readonly parts = new WeakMap<object, number>();
  private readonly messages = new WeakMap<object, number>();
  /** Per owner: its text's count, or the tally that is counting it. */
  private readonly texts = new WeakMap<object, number | TextTally>();
  /** Raw counts of recent system prompts, least recently used first (sessions may fold in their own). */
  private readonly systems = new Map<string, number>();
  /** Raw counts of tool names: every call and every result carries one, and a session has few. */
  private readonly names = new Map<string, number>();
  /** The last system prompt counted (the newest entry of `systems`). */
  private latestSystem: { text: string; raw: number } | undefined;

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
    const known = this.texts.get(owner);
    if (typeof known === 'number') return known;
    if (known) return known.total();
    const count = this.raw(text);
    this.texts.set(owner, count);
    return count;
  }

  /** The tally behind {@link tallyOf}. */
  tallyOf(owner: object, text: string, encode: ChunkEncoder): TextTally {
    const known = this.texts.get(owner);
    if (known instanceof TextTally) return known;
    const tally = new TextTally(text, encode);
    // A count taken before stays the count: seed the tally with it.
    if (typeof known === 'number') tally.seed(known);
    this.texts.set(owner, tally);
    return tally;
  }

  /** See {@link rememberTokens}. */
  rememberCount(owner: object, tokens: number): void {
    if (!this.texts.has(owner)) this.texts.set(owner, tokens);
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
    // A session packs with the same prompt call after call: it is already the most recent.
    if (system === this.latestSystem?.text) return this.calibration.apply(this.latestSystem.raw);
    let raw = this.systems.get(system);
    if (raw === undefined) raw = this.raw(system) + FRAMING.message;
    else this.systems.delete(system);
    this.systems.set(system, raw);
    if (this.systems.size > MAX_CACHED_SYSTEMS) this.systems.delete(this.systems.keys().next().value as string);
    this.latestSystem = { text: system, raw };
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
      case 'developer':
        return FRAMING.message + this.raw(message.content);
      case 'user':
        if (typeof message.content === 'string') return FRAMING.message + this.countCached(message, message.content);
        return FRAMING.message + this.sumParts(message.content);
      case 'assistant':
        return FRAMING.message + this.sumParts(message.content, reportedShare(message));
      case 'tool': {
        const { content } = message;
        const body = typeof content === 'string' ? this.countCached(message, content) : this.sumParts(content);
        return FRAMING.message + this.nameTokens(message.toolName) + body;
      }
      case 'summary':
        // Counted like the user message the packer sends it as (framing and text).
        return FRAMING.message + this.countCached(message, message.content);
    }
  }

  private nameTokens(name: string): number {
    let count = this.names.get(name);
    if (count === undefined) {
      count = this.raw(name);
      // Names come from tools and models: a session that invents many only loses the cache.
      if (this.names.size >= MAX_CACHED_NAMES) this.names.clear();
      this.names.set(name, count);
    }
    return count;
  }

  /** `reasoningShare`: what a reasoning part without a count of its own takes from its message's usage. */
  private sumParts(parts: readonly (AssistantPart | UserPart | ToolResultPart)[], reasoningShare?: number): number {
    let total = 0;
    for (const part of parts) {
      let count = this.parts.get(part);
      if (count === undefined) {
        count = this.rawPart(part, reasoningShare);
        this.parts.set(part, count);
      }
      total += count;
    }
    return total;
  }

  /**
   * Raw tokens of opaque data sent as it is: its JSON. Data taken off the part (another
   * model's, which no adapter sends) counts nothing rather than throwing.
   */
  private wireTokens(data: unknown): number {
    const json = data === undefined ? undefined : JSON.stringify(data);
    return json === undefined ? 0 : this.raw(json);
  }

  private rawPart(part: AssistantPart | UserPart | ToolResultPart, reasoningShare?: number): number {
    switch (part.type) {
      case 'text':
        return this.countCached(part, part.text);
      case 'reasoning':
        return FRAMING.reasoning + reasoningContentTokens(part, this.countCached(part, part.text), reasoningShare);
      case 'tool-call':
        return FRAMING.toolCall + this.nameTokens(part.name) + this.raw(JSON.stringify(part.args ?? {}));
      case 'image':
        return FRAMING.image;
      case 'file':
        return FRAMING.file;
      case 'provider-tool':
        // Sent as the provider's own block, so its JSON is what the provider reads.
        return this.wireTokens(part.providerData);
      case 'compaction': {
        // The model reads the summary, not the encrypted bytes: the reported size, else the
        // readable summary; but the block goes out whole, so never less than its JSON (a
        // short summary beside a huge field must not pass for a small request). OpenAI's
        // opaque item, with neither size nor summary, counts as its JSON alone.
        const read = part.tokens ?? (part.text === undefined ? 0 : this.countCached(part, part.text));
        return Math.max(read, this.wireTokens(part.providerData));
      }
      default:
        return this.raw(JSON.stringify(part));
    }
  }
}
