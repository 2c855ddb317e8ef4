/**
 * Deterministic shortening of oversized tool results: keep the head and the tail,
 * put a marker in the middle that says how much was cut. The result depends only
 * on the text, the cap and the tokenizer, so a message's shortened form never
 * changes between calls (the prompt cache keeps hitting).
 */

/** Counts raw tokens of a text. */
type CountText = (text: string) => number;

const HEAD_SHARE = 0.6;
const MARKER_RESERVE = 40;

/**
 * Returns `text` unchanged when it has at most `cap` tokens, else a head + marker +
 * tail version with at most `cap` tokens. Cuts prefer line boundaries. Pass
 * `knownTotal` when the text's count is already known, to skip counting it again.
 */
export function shortenText(text: string, cap: number, count: CountText, knownTotal?: number): string {
  const total = knownTotal ?? count(text);
  if (total <= cap) return text;
  const charsPerToken = text.length / Math.max(total, 1);
  let keepTokens = Math.max(cap - MARKER_RESERVE, 0);
  for (let attempt = 0; attempt < 12; attempt += 1) {
    const candidate = cut(text, Math.floor(keepTokens * charsPerToken), total, count);
    if (count(candidate) <= cap) return candidate;
    keepTokens = Math.floor(keepTokens * 0.85);
  }
  return cut(text, 0, total, count);
}

function cut(text: string, keepChars: number, totalTokens: number, count: CountText): string {
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
  const cutChars = tailStart - headEnd;
  const cutTokens = Math.max(totalTokens - count(head) - count(tail), 0);
  const marker = `[... ${cutTokens} tokens (${cutChars} characters) cut from the middle of this tool result ...]`;
  return `${head}${head.endsWith('\n') || head === '' ? '' : '\n'}${marker}${tail === '' ? '' : '\n'}${tail}`;
}
