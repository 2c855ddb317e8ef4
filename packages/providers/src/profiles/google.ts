/**
 * Gemini model profiles (data, first match wins). Facts from docs/providers.md,
 * https://ai.google.dev/gemini-api/docs/thinking,
 * https://ai.google.dev/gemini-api/docs/thought-signatures and
 * https://ai.google.dev/gemini-api/docs/pricing (see `prices-collected.ts`).
 */
import type { ModelProfile } from '@episodic/core';

/** A `thinkingLevel` (Gemini 3 and later); `xhigh` is taken by Gemini 4 Hydrogen only (docs/providers.md). */
export type GoogleThinkingLevel = 'minimal' | 'low' | 'medium' | 'high' | 'xhigh';

/** `thinkingConfig` as a profile states it: a budget (2.5) or a level (3 and later), never both. */
export type GoogleThinkingSetting =
  | { budget: number; includeThoughts?: boolean }
  | { level: GoogleThinkingLevel; includeThoughts?: boolean }
  | { off: true };

/** The Google-specific fields of a profile. */
export interface GoogleProfileFields {
  thinking: GoogleThinkingSetting;
  /**
   * `required`: the first function call of each step in the current turn must carry
   * a thought signature (Gemini 3); `optional`: sent back when present (2.5).
   */
  functionCallSignatures: 'required' | 'optional';
  /** What to send on a current-turn call the model did not produce (documented placeholder). */
  placeholderSignature: string;
  /**
   * The thinking levels the model takes, where Google documents them; a level outside
   * the list is refused when the adapter is made. Unset: `minimal` to `high` go to the API
   * as they are (it answers 400 for one the model does not take), `xhigh` is refused.
   */
  thinkingLevels?: readonly GoogleThinkingLevel[];
}

/** A profile of a Gemini model: the common fields plus the Google ones. */
export type GoogleModelProfile = ModelProfile & GoogleProfileFields;

const provider = {
  provider: 'google',
  retention: 'episode',
  cacheStyle: 'gemini-implicit',
  tokenizerFactor: 1.05,
  // Thoughts come back as signatures only; earlier turns are not validated or billed as thought text.
  pastReasoning: 'stripped',
  placeholderSignature: 'skip_thought_signature_validator',
} as const;

/**
 * What Google fixes for every model: the fallback's provider fields for a model
 * without a row (a model name outside the `gemini-` families, e.g. Gemma, keeps
 * the fallback's conservative limits).
 */
export const googleDefaults: Partial<GoogleModelProfile> = { ...provider, minCacheableTokens: 1024 };

const base = { ...provider, contextWindow: 1_048_576, maxOutputTokens: 65_536 } as const;

// Gemini 3 answers in JSON while it calls functions; 2.5 refuses a JSON answer next to
// function declarations ("Function calling with a response mime type: 'application/json'
// is unsupported"), so its answers come through the final_answer tool.
// https://ai.google.dev/gemini-api/docs/structured-output
/** Gemini 3: thinking by level, signatures validated on the current turn's calls, JSON answers natively. */
const gemini3 = {
  ...base,
  thinking: { level: 'high', includeThoughts: true },
  functionCallSignatures: 'required',
  structuredOutput: 'native',
} as const;
/** Gemini 2.5: thinking by (dynamic) budget, signatures sent back when present. */
const gemini25 = { ...base, thinking: { budget: -1, includeThoughts: true }, functionCallSignatures: 'optional' } as const;

/**
 * Gemini 4 (Google Cloud's developer guides for Hydrogen, Carbon and Argon and the Gemini
 * API's latest-model page, checked 2026-12-05): levels `low`, `medium`, `high`, and
 * `xhigh` on Hydrogen only; the default level is `high` on Hydrogen and `medium` on Carbon
 * and Argon, which the rows send. Implicit caching from 4,096 prompt tokens (6,144 on
 * Argon). No prices collected yet.
 */
const gemini4 = { ...gemini3, thinkingLevels: ['low', 'medium', 'high'] } as const;

/**
 * Gemini 3.x levels and default levels, as Google's pages give them (read 2026-12-05;
 * docs/providers.md, "Thinking levels", names the page for each row): the Gemini Enterprise
 * Agent Platform *Thinking* page's table, the developer guides for Gemini 3.5 Flash, 3.6
 * Flash and 3.8 Flash, the Gemini 3 Flash model page, and the Gemini API's what's-new pages
 * for 3.6 and 3.7. Each row sends its model's documented default, not `high` everywhere: a
 * model that defaults to `medium` or `minimal` would otherwise think (and bill) more than
 * the user asked for. Gemini 3 Pro has no row of its own: no Google page found lists its
 * levels. Prices: Gemini 3 Flash's and 3 Pro's list prices on their rows and on 3.1 Pro; the
 * later Flash rows carry none (3.6 Flash's differs from 3 Flash's, the others were not
 * collected), so a cost is not estimated with a wrong price.
 */
const allLevels = ['minimal', 'low', 'medium', 'high'] as const;
const lowToHigh = ['low', 'medium', 'high'] as const;
const flash3 = { ...gemini3, minCacheableTokens: 1024, pricing: { input: 0.5, cachedInput: 0.05, output: 3 } } as const;
/** A 3.x Flash row whose price is not collected (3.6 Flash's is not 3 Flash's): no price rather than a wrong one. */
const { pricing: _flashPrice, ...flashUnpriced } = flash3;
const pro3 = { ...gemini3, minCacheableTokens: 4096, pricing: { input: 2, cachedInput: 0.2, output: 12 } } as const;
const defaultLevel = (level: GoogleThinkingLevel) => ({ level, includeThoughts: true }) as const;

/** Gemini 3.x rows with documented levels; the more specific pattern comes first. */
const gemini3Levelled: readonly GoogleModelProfile[] = [
  { ...flashUnpriced, pattern: 'gemini-3\\.8-flash(?!-lite).*', thinkingLevels: lowToHigh, thinking: defaultLevel('medium') },
  { ...flashUnpriced, pattern: 'gemini-3\\.7-flash(?!-lite).*', thinkingLevels: lowToHigh, thinking: defaultLevel('medium') },
  { ...flashUnpriced, pattern: 'gemini-3\\.6-flash(?!-lite).*', thinkingLevels: allLevels, thinking: defaultLevel('medium') },
  { ...flashUnpriced, pattern: 'gemini-3\\.5-flash-lite.*', thinkingLevels: allLevels, thinking: defaultLevel('minimal') },
  { ...flashUnpriced, pattern: 'gemini-3\\.5-flash.*', thinkingLevels: allLevels, thinking: defaultLevel('medium') },
  { ...flashUnpriced, pattern: 'gemini-3\\.1-flash-lite.*', thinkingLevels: allLevels, thinking: defaultLevel('minimal') },
  { ...pro3, pattern: 'gemini-3\\.1-pro.*', thinkingLevels: lowToHigh, thinking: defaultLevel('high') },
  { ...flash3, pattern: 'gemini-3-flash(?!-lite).*', thinkingLevels: allLevels, thinking: defaultLevel('high') },
];

/** Built-in Gemini profiles. */
export const googleProfiles: readonly GoogleModelProfile[] = [
  {
    ...gemini4,
    pattern: 'gemini-4-hydrogen.*',
    thinking: { level: 'high', includeThoughts: true },
    thinkingLevels: ['low', 'medium', 'high', 'xhigh'],
    minCacheableTokens: 4096,
  },
  {
    ...gemini4,
    pattern: 'gemini-4-carbon.*',
    thinking: { level: 'medium', includeThoughts: true },
    minCacheableTokens: 4096,
  },
  {
    ...gemini4,
    pattern: 'gemini-4-argon.*',
    thinking: { level: 'medium', includeThoughts: true },
    minCacheableTokens: 6144,
  },
  ...gemini3Levelled,
  // Gemini 3 Pro and any other 3.x Pro or Flash: levels not listed, `high` sent.
  { ...pro3, pattern: 'gemini-3(?:\\.\\d+)?-pro.*' },
  { ...flash3, pattern: 'gemini-3(?:\\.\\d+)?-flash.*' },
  {
    ...gemini3,
    pattern: 'gemini-3.*',
    minCacheableTokens: 1024,
  },
  {
    ...gemini25,
    pattern: 'gemini-2\\.5-pro.*',
    minCacheableTokens: 4096,
    pricing: { input: 1.25, cachedInput: 0.125, output: 10 },
  },
  {
    ...gemini25,
    pattern: 'gemini-2\\.5-flash-lite.*',
    minCacheableTokens: 1024,
    pricing: { input: 0.1, cachedInput: 0.01, output: 0.4 },
  },
  {
    ...gemini25,
    pattern: 'gemini-2\\.5-flash.*',
    minCacheableTokens: 1024,
    pricing: { input: 0.3, cachedInput: 0.03, output: 2.5 },
  },
  {
    // Unknown Gemini models: assume a newer one that validates signatures.
    ...gemini3,
    pattern: 'gemini-.*',
    minCacheableTokens: 1024,
  },
];
