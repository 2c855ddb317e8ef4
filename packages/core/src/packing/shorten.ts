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

/** A shortened text and its raw tokens. */
export interface Shortened {
  text: string;
  tokens: number;
}

const HEAD_SHARE = 0.6;
const MARKER_RESERVE = 40;
const ATTEMPTS = 12;

function marker(cutCharacters: number): string {
  return `[... ${cutCharacters} characters cut from the middle of this tool result ...]`;
}

/**
 * The text between head and tail: the marker on a line of its own. No newline is
 * added after a head that ends with one, or at an empty end.
 */
function middle(head: string, tail: string, cutCharacters: number): string {
  const before = head === '' || head.endsWith('\n') ? '' : '\n';
  return `${before}${marker(cutCharacters)}${tail === '' ? '' : '\n'}`;
}

/**
 * `tally`'s text when it has at most `cap` raw tokens, else its head and tail around
 * a marker, within `cap`. Counts the text no further than needed.
 */
export function shortenTallied(tally: TextTally, cap: number, count: CountText): Shortened {
  const { text } = tally;
  const whole = tally.within(cap);
  if (whole !== undefined) return { text, tokens: whole };
  let keep = Math.max(cap - MARKER_RESERVE, 0);
  for (let attempt = 0; attempt < ATTEMPTS; attempt += 1) {
    const head = tally.head(Math.floor(keep * HEAD_SHARE));
    const tail = tally.tail(keep - head.tokens, head.at);
    const headText = text.slice(0, head.at);
    const tailText = text.slice(tail.at);
    const between = middle(headText, tailText, tail.at - head.at);
    const shortened = headText + between + tailText;
    // A head or tail with a forced cut (a long run of one character) may count
    // differently inside the shortened text: count that text itself.
    const tokens =
      head.exact && tail.exact ? head.tokens + count(between) + tail.tokens : count(shortened);
    if (tokens <= cap) return { text: shortened, tokens };
    keep = Math.floor(keep * 0.85);
  }
  const only = marker(text.length);
  return { text: only, tokens: count(only) };
}

/**
 * Returns `text` unchanged when it has at most `cap` tokens, else a head + marker +
 * tail version with at most `cap` tokens. For counters without progressive counts;
 * pass `knownTotal` when the text's count is already known.
 */
export function shortenText(text: string, cap: number, count: CountText, knownTotal?: number): string {
  const total = knownTotal ?? count(text);
  if (total <= cap) return text;
  const charsPerToken = text.length / Math.max(total, 1);
  let keepTokens = Math.max(cap - MARKER_RESERVE, 0);
  for (let attempt = 0; attempt < ATTEMPTS; attempt += 1) {
    const candidate = cut(text, Math.floor(keepTokens * charsPerToken));
    if (count(candidate) <= cap) return candidate;
    keepTokens = Math.floor(keepTokens * 0.85);
  }
  return marker(text.length);
}

function cut(text: string, keepChars: number): string {
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
  return head + middle(head, tail, tailStart - headEnd) + tail;
}
