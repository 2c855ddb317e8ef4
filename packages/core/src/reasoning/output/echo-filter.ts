/**
 * Echo suppression for servers that send a burst of deltas twice (a known llama.cpp
 * streaming fault): a run of `n` to `window` words that repeats the run just before it,
 * word for word, is dropped. Single-word stutters are left alone (an answer may say
 * "very very"), and so is any repeat that is not immediate.
 *
 * Words are pieces of text up to and including their trailing whitespace, so the
 * result does not depend on where the stream cut its deltas. A piece is held back
 * until `window` newer pieces follow it (a repeat can only remove that many): the
 * stream runs up to `window` words behind the model while the filter is on.
 */
import { InvalidArgumentError } from '../../errors/input-errors.js';

/** Settings of {@link EchoFilter}. */
export interface EchoSuppression {
  /** Shortest repeated run dropped, in words. Default 3. */
  n?: number;
  /** Longest repeated run dropped, in words (and how far the stream is held back). Default 32. */
  window?: number;
}

/** Default {@link EchoSuppression.n}. */
export const DEFAULT_ECHO_N = 3;
/** Default {@link EchoSuppression.window}. */
export const DEFAULT_ECHO_WINDOW = 32;

/** Drops immediately repeated word runs from a stream of text (see the file comment). */
export class EchoFilter {
  private readonly n: number;
  private readonly window: number;
  /** Pieces kept (emitted or held); only the last `2 * window` are needed to compare. */
  private kept: string[] = [];
  /** How many of `kept` were emitted. */
  private emitted = 0;
  /** The unfinished last piece (no whitespace after it yet). */
  private partial = '';
  /** Pieces dropped so far. */
  dropped = 0;

  constructor(options: EchoSuppression = {}) {
    this.n = options.n ?? DEFAULT_ECHO_N;
    this.window = options.window ?? DEFAULT_ECHO_WINDOW;
    if (!Number.isInteger(this.n) || this.n < 2 || !Number.isInteger(this.window) || this.window < this.n) {
      throw new InvalidArgumentError(
        `reasoningOutput.echoSuppression: n must be a whole number of at least 2 and window a whole number of at least n (got n ${this.n}, window ${this.window})`,
      );
    }
  }

  /** Takes a delta; returns the text that is now final (possibly empty). */
  push(text: string): string {
    const pieces = (this.partial + text).match(/\S*\s+|\S+$/g) ?? [];
    this.partial = /\s$/.test(text) || pieces.length === 0 ? '' : (pieces.pop() as string);
    for (const piece of pieces) this.add(piece);
    return this.release(this.window);
  }

  /** Ends the stream: returns everything still held. */
  flush(): string {
    if (this.partial !== '') this.add(this.partial);
    this.partial = '';
    return this.release(0);
  }

  private add(piece: string): void {
    this.kept.push(piece);
    const kept = this.kept;
    for (let length = this.n; length <= this.window && 2 * length <= kept.length; length += 1) {
      // Only held pieces can be taken back: what was emitted stays emitted.
      if (kept.length - length < this.emitted) break;
      if (sameRun(kept, kept.length - 2 * length, kept.length - length, length)) {
        kept.length -= length;
        this.dropped += length;
        return;
      }
    }
  }

  /** Emits every piece followed by more than `hold` newer ones. */
  private release(hold: number): string {
    const until = this.kept.length - hold;
    if (until <= this.emitted) return '';
    const text = this.kept.slice(this.emitted, until).join('');
    this.emitted = until;
    // Keep enough to compare a run of `window` with the one before it.
    const drop = Math.max(0, this.emitted - 2 * this.window);
    if (drop > 0) {
      this.kept = this.kept.slice(drop);
      this.emitted -= drop;
    }
    return text;
  }
}

function sameRun(pieces: readonly string[], a: number, b: number, length: number): boolean {
  for (let offset = 0; offset < length; offset += 1) {
    // A run's last word may differ in trailing whitespace only ("a b c " vs "a b c\n").
    if ((pieces[a + offset] as string).trimEnd() !== (pieces[b + offset] as string).trimEnd()) return false;
  }
  return true;
}

/** `text` with immediately repeated word runs dropped, as an {@link EchoFilter} streams it. */
export function suppressEcho(text: string, options: EchoSuppression = {}): string {
  const filter = new EchoFilter(options);
  return filter.push(text) + filter.flush();
}
