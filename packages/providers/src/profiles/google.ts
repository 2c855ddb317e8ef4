/**
 * Gemini model profiles (data, first match wins). Facts from docs/providers.md,
 * https://ai.google.dev/gemini-api/docs/thinking,
 * https://ai.google.dev/gemini-api/docs/thought-signatures and
 * https://ai.google.dev/gemini-api/docs/pricing (see `prices-collected.ts`).
 */
import type { ModelProfile } from '@episodic/core';

/** `thinkingConfig` as a profile states it: a budget (2.5) or a level (3), never both. */
export type GoogleThinkingSetting =
  | { budget: number; includeThoughts?: boolean }
  | { level: 'minimal' | 'low' | 'medium' | 'high'; includeThoughts?: boolean }
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

/** Built-in Gemini profiles. */
export const googleProfiles: readonly GoogleModelProfile[] = [
  {
    ...gemini3,
    pattern: 'gemini-3(?:\\.\\d+)?-pro.*',
    minCacheableTokens: 4096,
    pricing: { input: 2, cachedInput: 0.2, output: 12 },
  },
  {
    ...gemini3,
    pattern: 'gemini-3(?:\\.\\d+)?-flash.*',
    minCacheableTokens: 1024,
    pricing: { input: 0.5, cachedInput: 0.05, output: 3 },
  },
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
