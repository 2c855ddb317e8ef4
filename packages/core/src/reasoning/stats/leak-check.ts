/**
 * Checks whether reasoning leaked into visible text: a trace echoed in the answer,
 * or reasoning markers (tags, Harmony special tokens) that a splitter should have
 * consumed. Pure and linear in the text length per trace, so it can run on every step.
 */
import { type AssistantMessage, assistantText } from '../../message/message.js';
import { DEFAULT_REASONING_TAGS, HARMONY_SERVICE_TOKENS, normalizeTagNames } from '../in-text/markers.js';

/** One sign of reasoning in visible text. */
export interface LeakFinding {
  /**
   * `trace-echo`: the opening of a reasoning trace appears in the visible text;
   * `tag-marker`: a reasoning tag such as `<think>` or `</think>`;
   * `service-token`: a Harmony special token such as `<|channel|>`.
   */
  kind: 'trace-echo' | 'tag-marker' | 'service-token';
  /** Position in the visible text where it starts. */
  index: number;
  /** A short, whitespace-collapsed piece of the visible text from around `index`. */
  excerpt: string;
  /** For `trace-echo`: which trace of the input was echoed. */
  traceIndex?: number;
  /** For markers: the marker as found. */
  marker?: string;
}

/** What to check: the reasoning traces of a step (or episode) and its visible text. */
export interface LeakCheckInput {
  reasoning: readonly string[];
  visible: string;
}

/** Options of `checkReasoningLeak`. */
export interface LeakCheckOptions {
  /** Tag names to look for; default `DEFAULT_REASONING_TAGS`. */
  tags?: readonly string[];
  /** How many normalised characters of a trace's opening to look for; default 60. */
  probeLength?: number;
  /**
   * Traces shorter than this after normalising are skipped: a short phrase such as
   * "Let me check." says nothing about a leak. Default 32.
   */
  minTraceLength?: number;
}

const EXCERPT_BEFORE = 20;
const EXCERPT_LENGTH = 80;

/** Lower-cased text with whitespace runs collapsed, and a map back to the original positions. */
interface MatchableText {
  text: string;
  /** Pairs `[normalisedStart, originalStart]`, ascending: runs that map one to one. */
  runs: number[][];
}

/** Collapses whitespace to single spaces and case-folds, remembering where each run came from. */
function toMatchable(original: string): MatchableText {
  const parts: string[] = [];
  const runs: number[][] = [];
  let length = 0;
  const words = /\S+/g;
  for (let match = words.exec(original); match !== null; match = words.exec(original)) {
    if (match.index > 0) {
      runs.push([length, match.index - 1]);
      parts.push(' ');
      length += 1;
    }
    const lower = match[0].toLowerCase();
    if (lower.length === match[0].length) {
      runs.push([length, match.index]);
    } else {
      // Case folding changed the length (rare, non-ASCII): map each folded character back to its source.
      let folded = 0;
      let offset = 0;
      for (const character of match[0]) {
        runs.push([length + folded, match.index + offset]);
        folded += character.toLowerCase().length;
        offset += character.length;
      }
    }
    parts.push(lower);
    length += lower.length;
  }
  return { text: parts.join(''), runs };
}

/** The original position of a normalised position (binary search over the runs). */
function originalIndex(matchable: MatchableText, index: number): number {
  let low = 0;
  let high = matchable.runs.length - 1;
  while (low < high) {
    const middle = (low + high + 1) >> 1;
    if ((matchable.runs[middle]?.[0] ?? 0) <= index) low = middle;
    else high = middle - 1;
  }
  const [normalisedStart = 0, originalStart = 0] = matchable.runs[low] ?? [];
  return originalStart + (index - normalisedStart);
}

function excerptAt(visible: string, index: number): string {
  const from = Math.max(0, index - EXCERPT_BEFORE);
  return visible
    .slice(from, from + EXCERPT_LENGTH)
    .replace(/\s+/g, ' ')
    .trim();
}

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

/** The tag marker pattern of the default tags, built once (the loop checks every step's answer). */
let defaultTagPattern: RegExp | undefined;

function tagPatternOf(tags: readonly string[]): RegExp {
  return new RegExp(`</?(?:${normalizeTagNames(tags).map(escapeRegExp).join('|')})>`, 'gi');
}

const SERVICE_TOKEN_PATTERN = new RegExp(HARMONY_SERVICE_TOKENS.map(escapeRegExp).join('|'), 'g');

function markerFindings(visible: string, pattern: RegExp, kind: LeakFinding['kind']): LeakFinding[] {
  const findings: LeakFinding[] = [];
  for (const match of visible.matchAll(pattern)) {
    findings.push({ kind, index: match.index, excerpt: excerptAt(visible, match.index), marker: match[0] });
  }
  return findings;
}

function traceEchoes(input: LeakCheckInput, options: LeakCheckOptions): LeakFinding[] {
  const probeLength = options.probeLength ?? 60;
  const minTraceLength = options.minTraceLength ?? 32;
  const findings: LeakFinding[] = [];
  let visible: MatchableText | undefined;
  input.reasoning.forEach((trace, traceIndex) => {
    const normalised = trace.replace(/\s+/g, ' ').trim().toLowerCase();
    if (normalised.length < minTraceLength) return;
    visible ??= toMatchable(input.visible);
    const found = visible.text.indexOf(normalised.slice(0, probeLength).trimEnd());
    if (found === -1) return;
    const index = originalIndex(visible, found);
    findings.push({ kind: 'trace-echo', index, excerpt: excerptAt(input.visible, index), traceIndex });
  });
  return findings;
}

/**
 * Flags reasoning that reached visible text: (a) the opening of a trace (its first
 * `probeLength` characters, whitespace collapsed and case-folded) found in the
 * visible text, one finding per echoed trace; (b) every reasoning tag marker
 * (`<think>`, `</think>`, ... ASCII case ignored); (c) every Harmony special token.
 * Findings are ordered by position.
 */
export function checkReasoningLeak(input: LeakCheckInput, options: LeakCheckOptions = {}): LeakFinding[] {
  // Most steps answer with tool calls only: nothing visible, nothing to find.
  if (input.visible === '') return [];
  const tagPattern = options.tags ? tagPatternOf(options.tags) : (defaultTagPattern ??= tagPatternOf(DEFAULT_REASONING_TAGS));
  return [
    ...traceEchoes(input, options),
    ...markerFindings(input.visible, tagPattern, 'tag-marker'),
    ...markerFindings(input.visible, SERVICE_TOKEN_PATTERN, 'service-token'),
  ].sort((left, right) => left.index - right.index);
}

/** {@link checkReasoningLeak} over one assistant message: its reasoning parts against its text parts. */
export function checkAssistantLeak(message: AssistantMessage, options: LeakCheckOptions = {}): LeakFinding[] {
  const reasoning = message.content.flatMap((part) => (part.type === 'reasoning' ? [part.text] : []));
  return checkReasoningLeak({ reasoning, visible: assistantText(message) }, options);
}
