/**
 * The interface both streaming splitters share, and the piece merging that makes
 * their output comparable across chunkings.
 */

/** A run of stream text classified as visible text or reasoning. */
export interface SplitPiece {
  kind: 'text' | 'reasoning';
  text: string;
}

/**
 * Splits a text stream into classified pieces as it arrives.
 *
 * Chunking never changes the result: for any cut of a stream into chunks,
 * `normalizePieces` of everything `push` and `end` returned equals
 * `normalizePieces` of a single `push(whole)` plus `end()`.
 */
export interface StreamSplitter<Piece extends { kind: string; text: string }> {
  /**
   * Feeds the next chunk. Returns the pieces that are now certain, adjacent pieces
   * of the same kind merged and empty pieces left out. Only a suffix that could
   * still be the start of a marker is held back.
   */
  push(chunk: string): Piece[];
  /** Flushes what is held back and resets the splitter to its initial state for reuse. */
  end(): Piece[];
  /** Characters currently held back because they might start a marker. */
  readonly heldBack: number;
}

/** True when two pieces may be merged into one: same kind and same metadata. */
function sameGroup(left: object, right: object): boolean {
  const a = left as Record<string, unknown>;
  const b = right as Record<string, unknown>;
  if (a.kind !== b.kind) return false;
  for (const key of new Set([...Object.keys(a), ...Object.keys(b)])) {
    if (key !== 'text' && a[key] !== b[key]) return false;
  }
  return true;
}

/**
 * Appends a piece, merging it into the last one when kind and metadata match and
 * dropping it when its text is empty. Mutates and returns `pieces`, and may mutate
 * its last piece: use it only on pieces the caller created.
 */
export function appendPiece<Piece extends { text: string }>(pieces: Piece[], piece: Piece): Piece[] {
  if (piece.text === '') return pieces;
  const last = pieces[pieces.length - 1];
  if (last !== undefined && sameGroup(last, piece)) last.text += piece.text;
  else pieces.push(piece);
  return pieces;
}

/**
 * Merges adjacent pieces of the same kind (and metadata) and drops empty ones: the
 * canonical form in which a chunked run and an unchunked run of a splitter agree.
 */
export function normalizePieces<Piece extends { text: string }>(pieces: readonly Piece[]): Piece[] {
  const result: Piece[] = [];
  for (const piece of pieces) appendPiece(result, { ...piece });
  return result;
}
