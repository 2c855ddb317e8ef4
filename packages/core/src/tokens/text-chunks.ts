/**
 * Splitting text into chunks that tiktoken can encode one at a time, in time linear
 * in the text's length, with counts that add up to the count of the whole.
 *
 * A chunk ends at a piece boundary ({@link isPieceBoundary}) near the chunk size,
 * so the chunk counts add up exactly. Two things force a cut that is not a piece
 * boundary, and may then count a token more than the whole (never fewer: see
 * {@link FORCED_CUT_MARGIN}): a run of one character class longer than
 * {@link MAX_RUN} (megabytes of `a`, of spaces, of `=`: byte-pair encoding is
 * quadratic in a piece's length and tiktoken's WASM build crashes on such input),
 * and a stretch of {@link MAX_CHUNK} characters with no boundary at all.
 */
import { ASCII_RUN_BITS, classAt, isPieceBoundary, RUN_BITS } from './piece-boundaries.js';

/** Longest run of one character class encoded as one piece. */
export const MAX_RUN = 200;
/** Chunk size aimed at, in characters: small enough to cut a head or a tail precisely. */
export const CHUNK_SIZE = 256;
/** Longest chunk when no piece boundary turns up. */
export const MAX_CHUNK = 8192;
/**
 * Tokens added for each forced cut. Byte-pair encoding is not sub-additive: the two
 * sides of a cut inside a piece can need one token fewer than the piece did. The
 * margin keeps a count with forced cuts at or above the exact count.
 */
export const FORCED_CUT_MARGIN = 1;

/** One chunk: where it ends and whether the cut there is forced. */
export interface Chunk {
  end: number;
  forced: boolean;
}

/** Moves `index` off the middle of a surrogate pair. */
export function codePointBoundary(text: string, index: number): number {
  const code = text.charCodeAt(index - 1);
  return code >= 0xd800 && code < 0xdc00 ? Math.min(index + 1, text.length) : index;
}

/** The last piece boundary in (from, end], preferring one that `prefer` accepts in its upper three quarters. */
function lastBoundary(text: string, from: number, end: number, prefer?: (text: string, index: number) => boolean): number {
  if (prefer) {
    const floor = from + Math.floor((end - from) / 4);
    for (let index = end; index > floor; index -= 1) {
      if (prefer(text, index)) return index;
    }
  }
  for (let index = end; index > from; index -= 1) {
    if (isPieceBoundary(text, index)) return index;
  }
  return -1;
}

/**
 * The chunk of `text` that starts at `from` (a piece boundary or a forced cut):
 * about `size` characters, ending at a piece boundary (one that `prefer` accepts
 * when there is one nearby), or at a forced cut as described above.
 */
export function nextChunk(
  text: string,
  from: number,
  size = CHUNK_SIZE,
  prefer?: (text: string, index: number) => boolean,
): Chunk {
  const length = text.length;
  const limit = Math.min(length, from + size);
  let word = 0;
  let punctuation = 0;
  let space = 0;
  for (let index = from; index < length; index += 1) {
    const code = text.charCodeAt(index);
    const bits = (code < 128 ? ASCII_RUN_BITS[code] : RUN_BITS[classAt(text, index)]) as number;
    word = bits & 1 ? word + 1 : 0;
    punctuation = bits & 2 ? punctuation + 1 : 0;
    space = bits & 4 ? space + 1 : 0;
    if (word >= MAX_RUN || punctuation >= MAX_RUN || space >= MAX_RUN) {
      // Cut before the run when there is a boundary before it, else inside it.
      const runStart = index + 1 - MAX_RUN;
      const before = runStart > from ? lastBoundary(text, from, runStart) : -1;
      return before > from ? { end: before, forced: false } : { end: codePointBoundary(text, index + 1), forced: true };
    }
    const end = index + 1;
    if (end === limit && end < length) {
      const boundary = lastBoundary(text, from, end, prefer);
      if (boundary > from) return { end: boundary, forced: false };
    } else if (end > limit && isPieceBoundary(text, end)) {
      return { end, forced: false };
    }
    if (end - from >= MAX_CHUNK && end < length) return { end: codePointBoundary(text, end), forced: true };
  }
  return { end: length, forced: false };
}
