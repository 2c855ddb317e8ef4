/**
 * o200k_base's pre-tokenizer on ASCII text, as a scan instead of a regular
 * expression. tiktoken splits text into pieces with this pattern (tiktoken's
 * `tiktoken_ext/openai_public.py`; `(?i:...)` spelled out):
 *
 *   [^\r\n\p{L}\p{N}]?[\p{Lu}\p{Lt}\p{Lm}\p{Lo}\p{M}]*[\p{Ll}\p{Lm}\p{Lo}\p{M}]+(?:'s|'t|'re|'ve|'m|'ll|'d)?
 *   | [^\r\n\p{L}\p{N}]?[\p{Lu}\p{Lt}\p{Lm}\p{Lo}\p{M}]+[\p{Ll}\p{Lm}\p{Lo}\p{M}]*(?:'s|'t|'re|'ve|'m|'ll|'d)?
 *   | \p{N}{1,3} | ?[^\s\p{L}\p{N}]+[\r\n/]* | \s*[\r\n]+ | \s+(?!\S) | \s+
 *
 * On ASCII its classes are plain: letters A-Z and a-z (no marks), digits 0-9,
 * whitespace \t \n \v \f \r and space; everything else (punctuation, control
 * characters) is "other". Which alternative wins at a position then depends on the
 * character there and the one after it, as {@link asciiPieceEnd} spells out. The test
 * beside this file checks every piece against V8 running the pattern itself.
 */

const OTHER = 0;
const UPPER = 1;
const LOWER = 2;
const DIGIT = 3;
/** `\r` and `\n`. */
const NEWLINE = 4;
/** Whitespace other than `\r` and `\n`: `\t`, `\v`, `\f`, space. */
const BLANK = 5;

const CLASSES = Uint8Array.from({ length: 128 }, (_, code) => {
  if (code >= 65 && code <= 90) return UPPER;
  if (code >= 97 && code <= 122) return LOWER;
  if (code >= 48 && code <= 57) return DIGIT;
  if (code === 10 || code === 13) return NEWLINE;
  return code === 32 || (code >= 9 && code <= 12) ? BLANK : OTHER;
});

const SPACE = 32;
const APOSTROPHE = 39;
const SLASH = 47;
const LF = 10;
const CR = 13;
/** Lowercase letters (a code ORed with 32), for the case-insensitive contractions. */
const D = 100;
const E = 101;
const L = 108;
const M = 109;
const R = 114;
const S = 115;
const T = 116;
const V = 118;

const classAt = (text: string, index: number) => CLASSES[text.charCodeAt(index)] as number;

/** Where a contraction (`'s`, `'t`, `'re`, `'ve`, `'m`, `'ll`, `'d`, any case) at `at` ends, else `at`. */
function contractionEnd(text: string, at: number): number {
  if (at + 1 >= text.length || text.charCodeAt(at) !== APOSTROPHE) return at;
  const first = text.charCodeAt(at + 1) | 32;
  if (first === S || first === T || first === M || first === D) return at + 2;
  if (at + 2 >= text.length) return at;
  const second = text.charCodeAt(at + 2) | 32;
  return ((first === R || first === V) && second === E) || (first === L && second === L) ? at + 3 : at;
}

/**
 * The end of the word piece at `start`, a letter: uppercase letters then lowercase
 * ones (the first alternative, when any lowercase letter follows the uppercase run;
 * else the second, the uppercase run alone), then a contraction.
 */
function wordEnd(text: string, start: number): number {
  let end = start;
  while (end < text.length && classAt(text, end) === UPPER) end += 1;
  while (end < text.length && classAt(text, end) === LOWER) end += 1;
  return contractionEnd(text, end);
}

/**
 * The end of the whitespace piece at `start`: through the run's last newline if it has
 * one (`\s*[\r\n]+`); else the run but its last character when something follows it
 * (`\s+(?!\S)`, that character then starts the next piece), or the whole run (`\s+`).
 */
function whitespaceEnd(text: string, start: number): number {
  let end = start;
  let lastNewline = -1;
  for (; end < text.length; end += 1) {
    const kind = classAt(text, end);
    if (kind === NEWLINE) lastNewline = end;
    else if (kind !== BLANK) break;
  }
  if (lastNewline >= 0) return lastNewline + 1;
  return end < text.length && end - start >= 2 ? end - 1 : end;
}

/**
 * The end of the o200k_base piece that starts at `start` in `text`, which must be
 * ASCII from `start` on (every ASCII character starts a piece, so pieces follow one
 * another to the text's end).
 */
export function asciiPieceEnd(text: string, start: number): number {
  const kind = classAt(text, start);
  if (kind === UPPER || kind === LOWER) return wordEnd(text, start);
  if (kind === DIGIT) {
    let end = start + 1;
    while (end < text.length && end < start + 3 && classAt(text, end) === DIGIT) end += 1;
    return end;
  }
  if (kind === NEWLINE) return whitespaceEnd(text, start);
  const next = start + 1 < text.length ? classAt(text, start + 1) : NEWLINE;
  // Any character but a letter, a digit or a newline leads a word that follows it.
  if (next === UPPER || next === LOWER) return wordEnd(text, start + 1);
  // ` ?[^\s\p{L}\p{N}]+[\r\n/]*`: other characters, after at most one space.
  if (kind === OTHER || (text.charCodeAt(start) === SPACE && next === OTHER)) {
    let end = kind === OTHER ? start + 1 : start + 2;
    while (end < text.length && classAt(text, end) === OTHER) end += 1;
    for (; end < text.length; end += 1) {
      const code = text.charCodeAt(end);
      if (code !== LF && code !== CR && code !== SLASH) break;
    }
    return end;
  }
  return whitespaceEnd(text, start);
}
