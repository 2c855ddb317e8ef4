/**
 * tiktoken counts taken one pre-tokenizer piece at a time, each piece's count
 * remembered. tiktoken splits a text into pieces with a regular expression and
 * byte-pair encodes every piece on its own, so a text's count is the sum of its
 * pieces' counts. Tool output repeats its pieces (words, numbers of up to three
 * digits, punctuation runs, indentation), so after the first few results almost
 * every piece is known and a count costs one scan of the text instead of a call into
 * tiktoken's WASM build, whose own splitting dominates its time (bench/results holds
 * the figures).
 *
 * The split is o200k_base's own (ascii-pieces.ts scans for the pieces of its pattern),
 * and tiktoken still encodes every new piece, so the counts are tiktoken's. Only ASCII
 * text is split here: on ASCII the pattern's classes (`\s`, `\p{L}`, `\p{N}`, the
 * case-insensitive contractions) mean the same in JavaScript as in tiktoken's Rust
 * engine, whatever their Unicode versions; other text goes to tiktoken whole. The
 * property test beside this file checks the counts against tiktoken's.
 */
import { asciiPieceEnd } from './ascii-pieces.js';
import type { EncodingName, TokenEncoder } from './token-encoder.js';
import { MAX_CHUNK, MAX_RUN } from './text-chunks.js';

/** Text this module splits itself (see the module comment). */
const NOT_ASCII = /[^\p{ASCII}]/u;

const DIGIT_0 = 48;
const DIGIT_9 = 57;

/** Pieces longer than this are encoded every time: they rarely repeat, and would bloat the cache. */
const MAX_CACHED_PIECE = 48;
/** Pieces per generation; two generations are kept (recently used pieces survive a turnover). */
const GENERATION_SIZE = 32_768;

/** A piece-count cache of two generations: a full young one becomes the old one. */
class PieceCache {
  private young = new Map<string, number>();
  private old = new Map<string, number>();

  get(piece: string): number | undefined {
    const count = this.young.get(piece);
    if (count !== undefined) return count;
    const older = this.old.get(piece);
    if (older !== undefined) this.set(piece, older);
    return older;
  }

  set(piece: string, count: number): void {
    if (this.young.size >= GENERATION_SIZE) {
      this.old = this.young;
      this.young = new Map();
    }
    this.young.set(piece, count);
  }
}

/**
 * A piece-counting encoder that can also count a text whole where chunking it would
 * cut it only between pieces (see {@link PieceEncoder.countUnchunked}).
 */
export interface PieceEncoder extends TokenEncoder {
  /**
   * `text`'s count, the same as the sum of its chunks' counts, when `nextChunk`
   * (text-chunks.ts) would make no forced cut in it; else undefined (count it in
   * chunks). Answers only for ASCII text of at most `MAX_CHUNK` characters.
   */
  countUnchunked(text: string): number | undefined;
}

const wrapped = new WeakMap<TokenEncoder, PieceEncoder>();

/**
 * `encoder` (tiktoken's, for `encoding`) counting ASCII text piece by piece with
 * remembered piece counts; the same counts as `encoder`. Encodings without a pattern
 * here get `encoder` itself. One wrapper, and one cache, per encoder.
 */
export function pieceCounting(encoder: TokenEncoder, encoding: EncodingName): TokenEncoder | PieceEncoder {
  if (encoding !== 'o200k_base') return encoder;
  let found = wrapped.get(encoder);
  if (!found) {
    found = piecewise(encoder, new PieceCache());
    wrapped.set(encoder, found);
  }
  return found;
}

/**
 * A piece at least this long makes a text ineligible for an unchunked count. In ASCII
 * text, a run of one class of `MAX_RUN` characters other than letters lies in at most
 * three pieces plus one character (whitespace: the newlines ending a punctuation piece,
 * one piece up to its last newline, one more but its last character, that character;
 * punctuation: a contraction's apostrophe or the slashes ending the piece before, then
 * one piece), so one of them is at least this long. Letter runs can be split into short
 * pieces (`aBaBaB`), so they are tracked apart.
 */
const LONG_PIECE = Math.floor(MAX_RUN / 4);

const A_LOWER = 97;
const LETTERS = 26;

function piecewise(encoder: TokenEncoder, cache: PieceCache): PieceEncoder {
  /**
   * The sum of the pieces' counts of ASCII `text`. With `unchunked`, undefined when
   * chunking might cut `text` by force: a piece of `LONG_PIECE` characters or more, or
   * pieces that start with a letter one after the other (with the piece before them,
   * which may end in the run's first letters) making `MAX_RUN` characters or more
   * (every piece inside a run of letters starts with one).
   */
  const sum = (text: string, unchunked: boolean): number | undefined => {
    let tokens = 0;
    let letters = 0;
    for (let end = 0; end < text.length;) {
      const start = end;
      end = asciiPieceEnd(text, start);
      const first = text.charCodeAt(start);
      if (unchunked) {
        const length = end - start;
        letters = ((first | 32) - A_LOWER) >>> 0 < LETTERS ? letters + length : length;
        if (length >= LONG_PIECE || letters >= MAX_RUN) return undefined;
      }
      // One token without a lookup: a single ASCII character (every byte is a token),
      // and a piece that starts with a digit, which is 1 to 3 digits (all 1,110 such
      // strings are o200k_base tokens; the test beside this file checks it).
      if (end - start === 1 || (first >= DIGIT_0 && first <= DIGIT_9)) {
        tokens += 1;
        continue;
      }
      const piece = text.slice(start, end);
      if (piece.length > MAX_CACHED_PIECE) {
        tokens += encoder.count(piece);
        continue;
      }
      let count = cache.get(piece);
      if (count === undefined) {
        count = encoder.count(piece);
        cache.set(piece, count);
      }
      tokens += count;
    }
    return tokens;
  };
  return {
    count: (text) => (NOT_ASCII.test(text) ? encoder.count(text) : (sum(text, false) as number)),
    countUnchunked: (text) => (text.length > MAX_CHUNK || NOT_ASCII.test(text) ? undefined : sum(text, true)),
  };
}
