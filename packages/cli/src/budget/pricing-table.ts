/**
 * List prices of common models, as data, for `episodic budget` cost estimates.
 * USD per million tokens. Prices change: check the vendor pages below and pass
 * `--pricing FILE` to override or extend this table (see `pricing.ts`).
 *
 * Sources (standard tier, prompts up to 200k tokens where a vendor has tiers):
 * - https://docs.claude.com/en/docs/about-claude/pricing (cache write = 5-minute TTL, 1.25x input)
 * - https://platform.openai.com/docs/pricing
 * - https://ai.google.dev/gemini-api/docs/pricing
 * - https://api-docs.deepseek.com/quick_start/pricing
 */

/** One priced model family: the first row whose provider and pattern match wins. */
export interface PriceRow {
  /** Provider name as in a transcript's `model.provider`. */
  provider: string;
  /** RegExp source over the model id, anchored at both ends by the lookup. */
  pattern: string;
  /** Uncached input. */
  input: number;
  /** Input read from the prompt cache. */
  cachedInput: number;
  /** Input written to the cache (Anthropic); absent where writes cost nothing extra. */
  cacheWrite?: number;
  output: number;
}

/** A pricing table and when its figures were collected. */
export interface PriceTable {
  /** ISO date the prices were collected. */
  collected: string;
  note: string;
  models: PriceRow[];
}

const claude = (pattern: string, input: number, output: number): PriceRow => ({
  provider: 'anthropic',
  pattern,
  input,
  cachedInput: input / 10,
  cacheWrite: input * 1.25,
  output,
});

/** The built-in table. Most specific patterns first. */
export const builtinPrices: PriceTable = {
  collected: '2026-11-22',
  note:
    'List prices collected from the vendor pricing pages named in pricing-table.ts; they change, ' +
    'so check them and pass --pricing FILE to override.',
  models: [
    claude('claude-opus-4-(?:[5-9])(?:-.*)?', 5, 25),
    claude('claude-opus-4(?:-[01])?(?:-\\d{8})?', 15, 75),
    claude('claude-sonnet-4(?:-.*)?|claude-3-7-sonnet.*', 3, 15),
    claude('claude-haiku-4-5(?:-.*)?', 1, 5),
    claude('claude-3-5-haiku.*', 0.8, 4),
    { provider: 'openai', pattern: 'gpt-5\\.(?:[2-9]|\\d{2,})(?:-.*)?', input: 1.75, cachedInput: 0.175, output: 14 },
    { provider: 'openai', pattern: 'gpt-5(?:\\.1)?-mini(?:-.*)?', input: 0.25, cachedInput: 0.025, output: 2 },
    { provider: 'openai', pattern: 'gpt-5(?:\\.1)?-nano(?:-.*)?', input: 0.05, cachedInput: 0.005, output: 0.4 },
    { provider: 'openai', pattern: 'gpt-5(?:\\.1)?(?:-.*)?', input: 1.25, cachedInput: 0.125, output: 10 },
    { provider: 'openai', pattern: 'gpt-4\\.1-mini(?:-.*)?', input: 0.4, cachedInput: 0.1, output: 1.6 },
    { provider: 'openai', pattern: 'gpt-4\\.1-nano(?:-.*)?', input: 0.1, cachedInput: 0.025, output: 0.4 },
    { provider: 'openai', pattern: 'gpt-4\\.1(?:-.*)?', input: 2, cachedInput: 0.5, output: 8 },
    { provider: 'openai', pattern: 'gpt-4o-mini(?:-.*)?', input: 0.15, cachedInput: 0.075, output: 0.6 },
    { provider: 'openai', pattern: 'gpt-4o(?:-.*)?', input: 2.5, cachedInput: 1.25, output: 10 },
    { provider: 'openai', pattern: 'o4-mini(?:-.*)?', input: 1.1, cachedInput: 0.275, output: 4.4 },
    { provider: 'openai', pattern: 'o3(?:-.*)?', input: 2, cachedInput: 0.5, output: 8 },
    { provider: 'google', pattern: 'gemini-3(?:\\.\\d+)?-pro.*', input: 2, cachedInput: 0.2, output: 12 },
    { provider: 'google', pattern: 'gemini-3(?:\\.\\d+)?-flash.*', input: 0.5, cachedInput: 0.05, output: 3 },
    { provider: 'google', pattern: 'gemini-2\\.5-pro.*', input: 1.25, cachedInput: 0.125, output: 10 },
    { provider: 'google', pattern: 'gemini-2\\.5-flash-lite.*', input: 0.1, cachedInput: 0.01, output: 0.4 },
    { provider: 'google', pattern: 'gemini-2\\.5-flash.*', input: 0.3, cachedInput: 0.03, output: 2.5 },
    { provider: 'deepseek', pattern: 'deepseek-(?:chat|reasoner)', input: 0.28, cachedInput: 0.028, output: 0.42 },
  ],
};
