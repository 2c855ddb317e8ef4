/**
 * The markers that delimit reasoning when it travels inside visible text: XML-like
 * tags (`<think>` and friends) and the special tokens of OpenAI's Harmony format.
 * The splitters consume them; the leak check flags them when they reach visible text.
 */
import { InvalidArgumentError } from '../../errors/input-errors.js';

/**
 * Tag names that wrap reasoning in `content` on OpenAI-compatible servers (MiniMax,
 * Groq's raw reasoning format, some vLLM and Ollama chat templates). See
 * docs/providers.md, "Reasoning that shows up as visible text".
 */
export const DEFAULT_REASONING_TAGS: readonly string[] = ['think', 'thinking', 'reasoning', 'thought', 'analysis'];

/**
 * The special tokens of the Harmony response format used by gpt-oss, as they appear
 * when a server hands back raw text.
 * @see https://cookbook.openai.com/articles/openai-harmony#special-tokens
 */
export const HARMONY_TOKENS = {
  start: '<|start|>',
  end: '<|end|>',
  message: '<|message|>',
  channel: '<|channel|>',
  constrain: '<|constrain|>',
  /** Stop token: the final answer is complete. */
  return: '<|return|>',
  /** Stop token: the model wants a tool call. */
  call: '<|call|>',
  /** End of the whole text (o200k_harmony); may trail a completion. */
  endOfText: '<|endoftext|>',
} as const;

/** A Harmony special token. */
export type HarmonyToken = (typeof HARMONY_TOKENS)[keyof typeof HARMONY_TOKENS];

/** Every Harmony special token: none of them may reach visible text. */
export const HARMONY_SERVICE_TOKENS: readonly HarmonyToken[] = Object.values(HARMONY_TOKENS);

const TAG_NAME = /^[A-Za-z][A-Za-z0-9_:-]*$/;

/**
 * Checks tag names and returns them lower-cased, without duplicates. Names must be
 * plain XML names, because the splitter relies on `>` ending every marker.
 */
export function normalizeTagNames(names: readonly string[]): string[] {
  if (names.length === 0)
    throw new InvalidArgumentError('tags must not be empty: pass at least one tag name, e.g. "think"');
  for (const name of names) {
    if (!TAG_NAME.test(name)) {
      throw new InvalidArgumentError(
        `invalid reasoning tag name "${name}": use a plain name such as "think" (letters, digits, "_", ":" or "-"), without < or >`,
      );
    }
  }
  return [...new Set(names.map((name) => name.toLowerCase()))];
}

/** The opening and closing markers of the given (normalised) tag names. */
export function tagMarkers(names: readonly string[]): { open: string[]; close: string[] } {
  return { open: names.map((name) => `<${name}>`), close: names.map((name) => `</${name}>`) };
}
