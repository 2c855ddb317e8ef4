/**
 * Reasoning in visible text on a host nobody configured a splitter for: some
 * servers (raw Groq output, vLLM and Ollama chat templates, gpt-oss without a
 * Harmony parser) put it in `content`. This splitter looks only at the start of
 * the stream: when the answer opens (after whitespace) with `<think>`,
 * `<thinking>` or `<reasoning>`, the rest goes through the tag splitter; when it
 * opens with a Harmony token, through the Harmony parser; otherwise every
 * character is visible text, so an answer that merely mentions a tag later is
 * never touched.
 */
import { createHarmonyParser, type HarmonyPiece } from './harmony-parser.js';
import { HARMONY_TOKENS } from './markers.js';
import type { SplitPiece, StreamSplitter } from './stream-splitter.js';
import { createTagSplitter } from './tag-splitter.js';

/** Options of {@link createLeadingReasoningDetector}. */
export interface LeadingReasoningOptions {
  /** Tags that open a reasoning block at the start. Default `think`, `thinking`, `reasoning`. */
  tags?: readonly string[];
  /** Most leading whitespace characters looked through before deciding. Default 64. */
  window?: number;
}

const harmonyOpeners = [HARMONY_TOKENS.start, HARMONY_TOKENS.channel];

/**
 * A splitter that decides from the first non-blank characters whether the stream
 * carries reasoning in text (see the file comment). It holds back at most the
 * leading whitespace (up to `window`) plus one opener's length.
 */
export function createLeadingReasoningDetector(
  options: LeadingReasoningOptions = {},
): StreamSplitter<SplitPiece | HarmonyPiece> {
  const tags = options.tags ?? ['think', 'thinking', 'reasoning'];
  const window = options.window ?? 64;
  const tagOpeners = tags.map((tag) => `<${tag.toLowerCase()}>`);
  let held = '';
  let delegate: StreamSplitter<SplitPiece | HarmonyPiece> | 'plain' | undefined;

  /** What the held text shows: a decision, or undefined while it could still be an opener. */
  const decide = (): StreamSplitter<SplitPiece | HarmonyPiece> | 'plain' | undefined => {
    const start = held.trimStart();
    if (start === '') return held.length > window ? 'plain' : undefined;
    const lower = start.toLowerCase();
    if (tagOpeners.some((opener) => lower.startsWith(opener))) return createTagSplitter({ tags });
    if (harmonyOpeners.some((opener) => start.startsWith(opener))) return createHarmonyParser();
    const possible = [...tagOpeners, ...harmonyOpeners].some((opener) => opener.startsWith(lower));
    return possible ? undefined : 'plain';
  };

  const route = (text: string): (SplitPiece | HarmonyPiece)[] => {
    if (delegate === 'plain') return text === '' ? [] : [{ kind: 'text', text }];
    return delegate ? delegate.push(text) : [];
  };

  return {
    get heldBack() {
      if (delegate === undefined) return held.length;
      return delegate === 'plain' ? 0 : delegate.heldBack;
    },
    push(chunk) {
      if (delegate !== undefined) return route(chunk);
      held += chunk;
      delegate = decide();
      if (delegate === undefined) return [];
      // Whitespace before a reasoning block is not part of the answer.
      const text = delegate === 'plain' ? held : held.trimStart();
      held = '';
      return route(text);
    },
    end() {
      const pieces: (SplitPiece | HarmonyPiece)[] =
        delegate === undefined ? (held === '' ? [] : [{ kind: 'text', text: held }]) : delegate === 'plain' ? [] : delegate.end();
      held = '';
      delegate = undefined;
      return pieces;
    },
  };
}
