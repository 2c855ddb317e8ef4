/**
 * Deterministic shortening of oversized tool results: keep the head and the tail,
 * put a marker in the middle that says how much was cut. The result depends only
 * on the text, the cap and the tokenizer, so a message's shortened form never
 * changes between calls (the prompt cache keeps hitting).
 *
 * With a counter that keeps progressive counts ({@link TextTally}), the text is
 * counted only as far as the cap, the tail from the end, and the shortened text's
 * count is the sum of its parts: head and tail end at piece boundaries, so putting
 * a newline and the marker between them changes no token of either.
 */
import type { TextTally } from '../tokens/text-tally.js';

/** Counts raw tokens of a text. */
type CountText = (text: string) => number;

/**
 * Where the marker says the cut part can be read: the reader tool's name and the
 * tool-call id of the result (see `loop/cut-results/cut-result-reader.ts`).
 */
export interface CutReader {
  tool: string;
  toolCallId: string;
}

/** A shortened text and its raw tokens. */
export interface Shortened {
  text: string;
  tokens: number;
}

const HEAD_SHARE = 0.6;
const MARKER_RESERVE = 40;
const ATTEMPTS = 12;

/**
 * The marker of characters `from` to `to` (exclusive) of the original text. With a
 * reader it also says how to read them: offsets into the original text, so the same
 * cut gives the same marker on every call.
 */
function marker(from: number, to: number, reader: CutReader | undefined): string {
  const cut = to - from;
  if (!reader) return `[... ${cut} characters cut from the middle of this tool result ...]`;
  const args = JSON.stringify({ toolCallId: reader.toolCallId, offset: from });
  return `[... ${cut} characters cut from the middle of this tool result (characters ${from} to ${to}); to read them call ${reader.tool} with ${args} ...]`;
}

/**
 * Tokens kept free for the marker: a reader's marker is longer (its size with the
 * largest offsets this text can have, plus room for the newlines around it).
 */
function markerReserve(length: number, reader: CutReader | undefined, count: CountText): number {
  return reader ? Math.max(MARKER_RESERVE, count(marker(0, length, reader)) + 2 * count(String(length)) + 4) : MARKER_RESERVE;
}

/**
 * The marker alone, for a cap too small for any head or tail: the reader's when it
 * fits, else the plain one (which may still exceed a cap under about 20 tokens).
 */
function onlyMarker(length: number, cap: number, reader: CutReader | undefined, count: CountText): Shortened {
  if (reader) {
    const text = marker(0, length, reader);
    const tokens = count(text);
    if (tokens <= cap) return { text, tokens };
  }
  const text = marker(0, length, undefined);
  return { text, tokens: count(text) };
}

/**
 * The text between head and tail (characters `from` to `to` cut): the marker on a
 * line of its own. No newline is added after a head that ends with one, or at an empty end.
 */
function middle(head: string, tail: string, from: number, to: number, reader: CutReader | undefined): string {
  const before = head === '' || head.endsWith('\n') ? '' : '\n';
  return `${before}${marker(from, to, reader)}${tail === '' ? '' : '\n'}`;
}

/**
 * `tally`'s text when it has at most `cap` raw tokens, else its head and tail around
 * a marker, within `cap`. Counts the text no further than needed. With `reader`, the
 * marker says how to read the cut part.
 */
export function shortenTallied(tally: TextTally, cap: number, count: CountText, reader?: CutReader): Shortened {
  const { text } = tally;
  const whole = tally.within(cap);
  if (whole !== undefined) return { text, tokens: whole };
  let keep = Math.max(cap - markerReserve(text.length, reader, count), 0);
  for (let attempt = 0; attempt < ATTEMPTS; attempt += 1) {
    const head = tally.head(Math.floor(keep * HEAD_SHARE));
    const tail = tally.tail(keep - head.tokens, head.at);
    const headText = text.slice(0, head.at);
    const tailText = text.slice(tail.at);
    const between = middle(headText, tailText, head.at, tail.at, reader);
    const shortened = headText + between + tailText;
    // A head or tail with a forced cut (a long run of one character) may count
    // differently inside the shortened text: count that text itself.
    const tokens =
      head.exact && tail.exact ? head.tokens + count(between) + tail.tokens : count(shortened);
    if (tokens <= cap) return { text: shortened, tokens };
    keep = Math.floor(keep * 0.85);
  }
  return onlyMarker(text.length, cap, reader, count);
}

/**
 * Returns `text` unchanged when it has at most `cap` tokens, else a head + marker +
 * tail version with at most `cap` tokens. For counters without progressive counts;
 * pass `knownTotal` when the text's count is already known. With `reader`, the
 * marker says how to read the cut part.
 */
export function shortenText(
  text: string,
  cap: number,
  count: CountText,
  knownTotal?: number,
  reader?: CutReader,
): string {
  const total = knownTotal ?? count(text);
  if (total <= cap) return text;
  const charsPerToken = text.length / Math.max(total, 1);
  let keepTokens = Math.max(cap - markerReserve(text.length, reader, count), 0);
  for (let attempt = 0; attempt < ATTEMPTS; attempt += 1) {
    const candidate = cut(text, Math.floor(keepTokens * charsPerToken), reader);
    if (count(candidate) <= cap) return candidate;
    keepTokens = Math.floor(keepTokens * 0.85);
  }
  return onlyMarker(text.length, cap, reader, count).text;
}

function cut(text: string, keepChars: number, reader: CutReader | undefined): string {
  let headEnd = Math.floor(keepChars * HEAD_SHARE);
  let tailStart = text.length - (keepChars - headEnd);
  // Prefer whole lines when a line break is near the cut.
  const lineEnd = text.lastIndexOf('\n', headEnd);
  if (lineEnd > headEnd * 0.8) headEnd = lineEnd + 1;
  const lineStart = text.indexOf('\n', tailStart);
  if (lineStart !== -1 && lineStart - tailStart < (text.length - tailStart) * 0.2) tailStart = lineStart + 1;
  if (tailStart < headEnd) tailStart = headEnd;
  const head = text.slice(0, headEnd);
  const tail = text.slice(tailStart);
  return head + middle(head, tail, headEnd, tailStart, reader) + tail;
}
