/**
 * Telling a model id the tables know from one that merely starts like one. Most
 * rows end in a wildcard (`gpt-5(\.1)?(-.*)?`, `gemini-2\.5-flash.*`) so that dated
 * snapshots and variants find their family; the same wildcard gives `gpt-5-typo`
 * the gpt-5 limits without a word. An id is known when its row matches it with
 * each wildcard narrowed to a chain of documented suffix words (dates, versions,
 * sizes, `latest`, `preview`, `mini`, `thinking`, ...); otherwise the adapter warns once.
 */
import type { ModelProfile, ModelRef } from '@episodic/core';
import { builtinProfiles } from './index.js';

/**
 * The words a published model id carries after its family name, as the providers'
 * model lists spell them: numbers, dates and versions (`2025-08-07`, `0905`, `4.6`,
 * `120b`, `a22b`) and the variant names below.
 */
const suffixWord = [
  '\\d+(?:\\.\\d+)*[a-z]?',
  'a\\d+b',
  'latest|preview|exp|experimental|stable|beta|alpha|free',
  'mini|nano|pro|lite|flash|max|air|turbo|plus|fast|spark|instant',
  'chat|codex|code|instruct|thinking|reasoning|reasoner|think|distill|llama|qwen',
  'image|audio|search|realtime|transcribe|tts|vision|deep|research|computer|use',
  'opus|sonnet|haiku|high|medium|low|minimal',
].join('|');

/** Zero or more suffix words, each after a separator. */
const suffixChain = `(?:[-.:_/](?:${suffixWord}))*`;

/**
 * The row's pattern with each wildcard narrowed to suffix words; undefined for a
 * row without a wildcard (already exact) or a catch-all `.*` (a host serving any model).
 */
function narrowedPattern(pattern: string): string | undefined {
  if (pattern === '.*' || !pattern.includes('.*')) return undefined;
  return pattern
    .replace(/\((?:\?:)?(?:-|\[-\.\])\.\*\)\?/g, suffixChain)
    .replace(/-\.\*/g, `(?:[-.:_/](?:${suffixWord}))+`)
    .replace(/\.\*/g, suffixChain);
}

/**
 * The warning for a built-in row that matched `model` only through its wildcard
 * (code `unknown-model-id`), naming the id and the row's pattern and limits; undefined
 * for a known id, an exact row, a host's catch-all, or a row the user supplied.
 */
export function unlistedModelWarning(model: ModelRef, profile: ModelProfile): { code: string; message: string } | undefined {
  const builtin = builtinProfiles.some((row) => row.provider === profile.provider && row.pattern === profile.pattern);
  const narrowed = builtin ? narrowedPattern(profile.pattern) : undefined;
  if (narrowed === undefined || new RegExp(`^(?:${narrowed})$`).test(model.id)) return undefined;
  return {
    code: 'unknown-model-id',
    message:
      `${model.provider}: model id "${model.id}" is not a known id; it only prefix-matches the profile ` +
      `"${profile.pattern}" and runs with its limits (context window ${profile.contextWindow.toLocaleString('en-US')}, ` +
      `max output ${profile.maxOutputTokens.toLocaleString('en-US')}). Check the id, or pass a profile override.`,
  };
}
