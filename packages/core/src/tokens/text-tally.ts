/**
 * The token count of one text, taken a chunk at a time and only as far as someone
 * needs it. A tool result that will be cut to 2,000 tokens is counted up to a little
 * over 2,000 tokens, and its tail from the end, instead of tokenizing it whole; a
 * result that is sent whole is counted once. Chunk counts are kept, so the count of
 * a head that ends at a chunk boundary costs nothing more.
 */
import { isHeadCut, isLineStart, isPreferredCut, isTailStart } from './piece-boundaries.js';
import { CHUNK_SIZE, codePointBoundary, FORCED_CUT_MARGIN, MAX_CHUNK, nextChunk } from './text-chunks.js';

/** Raw tokens of one chunk (no framing). Never throws. */
export interface ChunkEncoder {
  (chunk: string): number;
  /**
   * Raw tokens of a whole text at once, where that is the sum of its chunks' counts
   * with no cut forced; else undefined. Only an encoder whose counts add up at piece
   * boundaries has it (the built-in one): chunking is then only a way to count less.
   */
  whole?: (text: string) => number | undefined;
}

/** A head or tail of a text and its raw tokens. */
export interface TextSpan {
  /** Where the head ends or the tail starts (a character index). */
  at: number;
  tokens: number;
  /**
   * True when `tokens` is the exact count of the span with a newline next to it: the
   * span was counted without forced cuts. Otherwise count the text it goes into anew.
   */
  exact: boolean;
}

/** Raw tokens of a whole text, chunk by chunk (time linear in its length). */
export function countInChunks(text: string, encode: ChunkEncoder): { tokens: number; forced: boolean } {
  const whole = encode.whole?.(text);
  if (whole !== undefined) return { tokens: whole, forced: false };
  let tokens = 0;
  let forced = false;
  for (let from = 0; from < text.length;) {
    const chunk = nextChunk(text, from);
    tokens += encode(text.slice(from, chunk.end)) + (chunk.forced ? FORCED_CUT_MARGIN : 0);
    forced ||= chunk.forced;
    from = chunk.end;
  }
  return { tokens, forced };
}

/** The progressive count of one text. Create one per text and keep it with the text. */
export class TextTally {
  /** End of each counted chunk from the start, and the tokens up to it. */
  private readonly ends: number[] = [];
  private readonly sums: number[] = [];
  /** Indexes of the first and the last chunk that ended in a forced cut. */
  private firstForced = Number.POSITIVE_INFINITY;
  private lastForced = Number.NEGATIVE_INFINITY;
  /** Start of each counted segment from the end, and the tokens from it to the end. */
  private readonly starts: number[] = [];
  private readonly tailSums: number[] = [];
  private firstInexactTail = Number.POSITIVE_INFINITY;
  /** The whole count when it is known without chunks (taken before this tally existed, or at once). */
  private known: number | undefined;

  constructor(
    readonly text: string,
    private readonly encode: ChunkEncoder,
  ) {}

  /** Tokens counted from the start so far. */
  private get counted(): number {
    return this.sums.at(-1) ?? 0;
  }

  private get complete(): boolean {
    return (this.ends.at(-1) ?? 0) >= this.text.length;
  }

  private step(): void {
    const from = this.ends.at(-1) ?? 0;
    const chunk = nextChunk(this.text, from, CHUNK_SIZE, isPreferredCut);
    const tokens = this.encode(this.text.slice(from, chunk.end)) + (chunk.forced ? FORCED_CUT_MARGIN : 0);
    if (chunk.forced) {
      this.firstForced = Math.min(this.firstForced, this.ends.length);
      this.lastForced = this.ends.length;
    }
    this.ends.push(chunk.end);
    this.sums.push(this.counted + tokens);
  }

  /** Sets the whole count, taken before (it stays the count even if the chunks were to differ). */
  seed(tokens: number): void {
    this.known = tokens;
  }

  /**
   * Counts the whole text at once, before any chunk, when the encoder can (see
   * {@link ChunkEncoder.whole}) and the text is at most `limit` characters (so it
   * cannot count past a limit the chunks would have stopped just beyond). The count
   * is the chunks' sum; `head` and `tail` still count chunks of their own.
   */
  private countWhole(limit: number): void {
    if (this.known !== undefined || this.ends.length > 0 || this.text.length > limit || !this.encode.whole) return;
    this.known = this.encode.whole(this.text);
  }

  /** Raw tokens of the whole text. */
  total(): number {
    this.countWhole(Number.POSITIVE_INFINITY);
    if (this.known !== undefined) return this.known;
    while (!this.complete) this.step();
    return this.counted;
  }

  /**
   * Raw tokens of the whole text when it has at most `limit`, else undefined; counts
   * no further than just past `limit`.
   */
  within(limit: number): number | undefined {
    this.countWhole(limit);
    if (this.known !== undefined) return this.known <= limit ? this.known : undefined;
    while (!this.complete && this.counted <= limit) this.step();
    return this.complete && this.counted <= limit ? this.counted : undefined;
  }

  /**
   * The longest head with at most `tokens` tokens that ends after a newline of its
   * own or where a newline may follow (`isHeadCut` in `piece-boundaries.ts`).
   */
  head(tokens: number): TextSpan {
    while (!this.complete && this.counted <= tokens) this.step();
    for (let index = this.ends.length - 1; index >= 0; index -= 1) {
      const end = this.ends[index] as number;
      if ((this.sums[index] as number) <= tokens && end < this.text.length && isHeadCut(this.text, end)) {
        return { at: end, tokens: this.sums[index] as number, exact: index < this.firstForced };
      }
    }
    return { at: 0, tokens: 0, exact: true };
  }

  /**
   * The longest tail with at most `tokens` tokens that starts where a `\n` may
   * precede it, and after `notBefore` (the end of the head it goes with).
   */
  tail(tokens: number, notBefore = 0): TextSpan {
    // Always from segments counted backwards, even when the chunks counted from the
    // start reach the end: a tail cut out of those would start elsewhere, and the
    // shortened text would then depend on what was counted before, not on the text.
    while ((this.tailSums.at(-1) ?? 0) <= tokens && this.tailStep(notBefore));
    let best: TextSpan = { at: this.text.length, tokens: 0, exact: true };
    for (let index = 0; index < this.starts.length; index += 1) {
      const start = this.starts[index] as number;
      if ((this.tailSums[index] as number) > tokens || start <= notBefore) break;
      best = { at: start, tokens: this.tailSums[index] as number, exact: index < this.firstInexactTail };
    }
    return best;
  }

  /**
   * Counts one more segment of about a chunk, backwards from the last tail start;
   * false when that would reach `notBefore`. Segments depend on the text only, so
   * tails of different lengths share them.
   */
  private tailStep(notBefore: number): boolean {
    const end = this.starts.at(-1) ?? this.text.length;
    const target = end - CHUNK_SIZE;
    if (target <= notBefore) return false;
    const start = this.tailStartNear(target, Math.max(notBefore, end - MAX_CHUNK));
    // No clean start nearby (a long run of one character class): cut anyway, and say the count is not exact.
    const clean = start >= 0;
    const from = clean ? start : codePointBoundary(this.text, target);
    const counted = countInChunks(this.text.slice(from, end), this.encode);
    if ((!clean || counted.forced) && this.firstInexactTail === Number.POSITIVE_INFINITY) {
      this.firstInexactTail = this.starts.length;
    }
    this.starts.push(from);
    this.tailSums.push((this.tailSums.at(-1) ?? 0) + counted.tokens);
    return true;
  }

  /** The last line start in the half chunk up to `target`, else the last tail start above `floor`, else -1. */
  private tailStartNear(target: number, floor: number): number {
    for (let index = target, lines = Math.max(floor, target - CHUNK_SIZE / 2); index > lines; index -= 1) {
      if (isLineStart(this.text, index)) return index;
    }
    for (let index = target; index > floor; index -= 1) if (isTailStart(this.text, index)) return index;
    return -1;
  }
}
