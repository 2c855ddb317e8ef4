/**
 * The date and sources of the list prices in the built-in profile rows (the
 * `pricing` field): the one price table, used by the agent's cost estimate and
 * by `episodic budget`.
 */

/** When and where the built-in prices were collected. */
export const pricesCollected = {
  /** ISO date the prices were collected. */
  date: '2026-11-22',
  note:
    'List prices in USD per million tokens, standard tier, prompts up to 200k tokens where a vendor has tiers, ' +
    'collected from the vendor pricing pages. They change: check them, and override the pricing of a profile ' +
    '(or pass --pricing FILE to episodic budget).',
  sources: [
    'https://docs.claude.com/en/docs/about-claude/pricing (cache write = 5-minute TTL, 1.25x input)',
    'https://platform.openai.com/docs/pricing',
    'https://ai.google.dev/gemini-api/docs/pricing',
    'https://api-docs.deepseek.com/quick_start/pricing',
  ],
} as const;
