/**
 * Where a text can be cut so that tokenizing the two sides apart gives exactly the
 * tokens of the whole. tiktoken splits text into "pieces" with a regular expression
 * before byte-pair encoding each piece on its own; a cut between two pieces that no
 * piece of the whole text can span leaves every piece intact, so the counts add up.
 *
 * The rules below hold for the pre-tokenizer of o200k_base and cl100k_base (the
 * patterns in tiktoken's `tiktoken_ext/openai_public.py`): a piece is a run of
 * letters with at most one leading non-letter, 1 to 3 digits, a run of punctuation
 * with an optional leading space and trailing newlines or slashes, or whitespace.
 * Each rule is checked against exact counts by the property tests.
 *
 * The long runs of one class of character are what makes byte-pair encoding slow
 * (its cost grows with the square of a piece's length) and what crashes tiktoken's
 * WASM build on megabyte inputs; {@link runClass} names those classes.
 */

/** Character classes of the pre-tokenizer. */
export const CharClass = { Letter: 0, Mark: 1, Digit: 2, Space: 3, Other: 4 } as const;
/** One of {@link CharClass}. */
export type CharClass = (typeof CharClass)[keyof typeof CharClass];

const letter = /\p{L}/u;
const mark = /\p{M}/u;
const digit = /\p{N}/u;
const space = /\p{White_Space}/u;

function classify(char: string): CharClass {
  if (letter.test(char)) return CharClass.Letter;
  if (mark.test(char)) return CharClass.Mark;
  if (digit.test(char)) return CharClass.Digit;
  if (space.test(char)) return CharClass.Space;
  return CharClass.Other;
}

function buildTable(size: number): Uint8Array {
  const table = new Uint8Array(size);
  // Lone surrogates come out as Other; astral characters are handled by classAt.
  for (let code = 0; code < size; code += 1) table[code] = classify(String.fromCharCode(code));
  return table;
}

const asciiClasses = buildTable(128);
let bmpClasses: Uint8Array | undefined;

const astralLetter = /^\p{L}/u;
const astralMark = /^\p{M}/u;
const astralDigit = /^\p{N}/u;

/** The class of the character at `index` (for a surrogate pair, of the whole code point). */
export function classAt(text: string, index: number): CharClass {
  const code = text.charCodeAt(index);
  if (code < 128) return asciiClasses[code] as CharClass;
  // The whole BMP table (about 20 ms to build) only once non-ASCII text shows up.
  if (code < 0xd800 || code > 0xdfff) return (bmpClasses ??= buildTable(0x10000))[code] as CharClass;
  // A high surrogate starts an astral code point; a low one belongs to the one before it.
  const start = code < 0xdc00 ? index : index - 1;
  const char = text.slice(start, start + 2);
  if (astralLetter.test(char)) return CharClass.Letter;
  if (astralMark.test(char)) return CharClass.Mark;
  if (astralDigit.test(char)) return CharClass.Digit;
  return CharClass.Other;
}

const NEWLINE = 10;
const SPACE = 32;
const APOSTROPHE = 39;
const SLASH = 47;

function isAlphanumeric(kind: CharClass): boolean {
  return kind === CharClass.Letter || kind === CharClass.Digit;
}

/**
 * True when no piece of `text` spans the boundary before `index`, and the pieces on
 * each side are the same when that side is tokenized alone:
 * 1. before a space that is followed by a letter (the space starts the next word);
 * 2. after a newline, before anything but whitespace or `/`;
 * 3. after a letter or digit, before a character of another class that is not a
 *    combining mark or `'` (which may continue the word: `don't`).
 */
export function isPieceBoundary(text: string, index: number): boolean {
  if (index <= 0 || index >= text.length) return index === 0 || index === text.length;
  const here = text.charCodeAt(index);
  if (here === SPACE && index + 1 < text.length && classAt(text, index + 1) === CharClass.Letter) return true;
  const kind = classAt(text, index);
  if (text.charCodeAt(index - 1) === NEWLINE && kind !== CharClass.Space && here !== SLASH) return true;
  const before = classAt(text, index - 1);
  if (before !== CharClass.Letter && before !== CharClass.Digit) return false;
  return kind !== before && kind !== CharClass.Mark && here !== APOSTROPHE;
}

/**
 * A boundary where a head can end before a `\n` is appended: the head ends with a
 * letter or digit, so the newline starts a piece of its own.
 */
export function isHeadEnd(text: string, index: number): boolean {
  return index > 0 && isPieceBoundary(text, index) && isAlphanumeric(classAt(text, index - 1));
}

/**
 * A boundary where a tail can start after a `\n`: it starts with neither whitespace
 * nor `/`, so the newline before it ends a piece.
 */
export function isTailStart(text: string, index: number): boolean {
  if (index >= text.length) return true;
  return (
    isPieceBoundary(text, index) && classAt(text, index) !== CharClass.Space && text.charCodeAt(index) !== SLASH
  );
}

/** The start of a line that is a {@link isTailStart}: a head may end there too (then it ends with its newline). */
export function isLineStart(text: string, index: number): boolean {
  return index > 0 && text.charCodeAt(index - 1) === NEWLINE && isTailStart(text, index);
}

/** Where a head may end: before a newline that is added ({@link isHeadEnd}), or after one of its own. */
export function isHeadCut(text: string, index: number): boolean {
  return isLineStart(text, index) || isHeadEnd(text, index);
}

/** Where chunks prefer to end: line starts, then boundaries where both a head may end and a tail start. */
export function isPreferredCut(text: string, index: number): boolean {
  return isLineStart(text, index) || (isHeadEnd(text, index) && isTailStart(text, index));
}

/**
 * Which long pieces a character of each class can extend, by {@link CharClass}:
 * bit 1 word pieces (letters, marks), bit 2 punctuation pieces (anything but
 * letters, digits and whitespace; marks too), bit 4 whitespace. Digits extend none:
 * they are split into groups of three.
 */
export const RUN_BITS: readonly number[] = [1, 3, 0, 4, 2];

/** {@link RUN_BITS} of each ASCII character, for the scan's fast path. */
export const ASCII_RUN_BITS: Uint8Array = Uint8Array.from({ length: 128 }, (_, code) => RUN_BITS[asciiClasses[code] as number] as number);
