/**
 * Prices for `episodic budget`: a user's `--pricing FILE` rows first, then the one
 * built-in price table: the `pricing` of the model profiles, read through
 * `resolveProfile` as the adapters read their profiles. The file is validated
 * with zod and every problem names the file and the field.
 */
import { EpisodicError, type Pricing } from '@episodic/core';
import { builtinProfiles, resolveProfile } from '@episodic/providers';
import { pricesCollected } from '@episodic/providers/internal';
import { BoundedRegex } from '@episodic/tools';
import { z } from 'zod';
import { readCappedFile, unreadableReason } from '../read-capped-file.js';

const price = z.number().finite().nonnegative();

/** One row of a pricing file. `provider` may be left out to match any provider. */
export const PriceRowFile = z.strictObject({
  provider: z.string().min(1).optional(),
  pattern: z
    .string()
    .min(1)
    .refine((source) => isRegExp(source), 'not a valid regular expression'),
  input: price,
  cachedInput: price,
  cacheWrite: price.optional(),
  output: price,
});

/** A pricing file: `{ "collected"?: "YYYY-MM-DD", "models": [row, ...] }`. */
export const PricingFile = z.strictObject({
  collected: z.string().optional(),
  note: z.string().optional(),
  models: z.array(PriceRowFile),
});
export type PricingFile = z.infer<typeof PricingFile>;

/** A row of a user's pricing file; without `provider` it matches any provider. */
export interface PriceEntry extends Pricing {
  provider?: string;
  /** RegExp source over the model id, anchored at both ends by the lookup. */
  pattern: string;
}

/** The user's rows to look prices up in before the profiles, and where they came from. */
export interface PriceList {
  rows: readonly (PriceEntry & { source: string })[];
  /** When the built-in prices were collected. */
  collected: string;
}

/** A `--pricing` file that cannot be read or does not match the format. */
export class PricingFileError extends EpisodicError {
  constructor(file: string, detail: string, options?: { cause?: unknown }) {
    super('invalid_pricing', `pricing file ${file}: ${detail}`, options);
  }
}

/** No price is known for the model being priced. */
export class UnknownPriceError extends EpisodicError {
  constructor(model: { provider: string | undefined; id: string }) {
    const name = model.provider ? `${model.provider}/${model.id}` : model.id;
    const provider = model.provider ? `"provider":${JSON.stringify(model.provider)},` : '';
    super(
      'unknown_model_price',
      `no price known for model "${name}": pass --pricing FILE with a row for it, e.g. ` +
        `{"models":[{${provider}"pattern":"${escapeForPattern(model.id)}","input":1.25,"cachedInput":0.125,"output":10}]} ` +
        '(USD per million tokens), or --model to price it as another model',
    );
  }
}

/** The rows of `file` (if any), to be tried before the built-in prices. */
export async function loadPrices(file: string | undefined): Promise<PriceList> {
  if (file === undefined) return { rows: [], collected: pricesCollected.date };
  const parsed = await readPricingFile(file);
  const rows = parsed.models.map((row) => ({ ...withoutUndefined(row), source: file }));
  return { rows, collected: pricesCollected.date };
}

/**
 * The price of `provider`/`model`: the first matching row of the user's file, else
 * the `pricing` of the model's profile. Without a provider (a bare `--model` id),
 * the provider is the one of the first priced profile row that matches the id.
 */
export function findPrice(
  list: PriceList,
  model: { provider: string | undefined; id: string },
): { pricing: Pricing; source: string; provider: string | undefined } {
  const row = list.rows.find(
    (candidate) =>
      (candidate.provider === undefined || model.provider === undefined || candidate.provider === model.provider) &&
      patternMatches(candidate, model.id),
  );
  if (row) {
    const { input, cachedInput, cacheWrite, output } = row;
    const pricing: Pricing = { input, cachedInput, output, ...(cacheWrite === undefined ? {} : { cacheWrite }) };
    return { pricing, source: row.source, provider: model.provider ?? row.provider };
  }
  const provider =
    model.provider ??
    builtinProfiles.find((profile) => profile.pricing !== undefined && matches(profile.pattern, model.id))?.provider;
  const pricing = provider === undefined ? undefined : resolveProfile(provider, model.id).pricing;
  if (pricing) return { pricing, source: `built-in (${list.collected})`, provider };
  throw new UnknownPriceError(model);
}

/** Longest a price pattern may take on one model id; real ones take microseconds. */
export const PATTERN_TIMEOUT_MS = 200;

const compiledPatterns = new Map<string, BoundedRegex>();

/**
 * Whether a row's pattern matches the whole model id. A pattern from a pricing file
 * is the user's regex and may backtrack without bound (`(a+)+$`); it runs under a
 * time limit and one that passes it is a {@link PricingFileError}.
 */
function patternMatches(row: PriceEntry & { source: string }, id: string): boolean {
  let bounded = compiledPatterns.get(row.pattern);
  if (!bounded) {
    bounded = new BoundedRegex(new RegExp(`^(?:${row.pattern})$`), PATTERN_TIMEOUT_MS);
    compiledPatterns.set(row.pattern, bounded);
  }
  const matches = bounded.matchingLines([id]);
  if (matches === undefined) {
    throw new PricingFileError(
      row.source,
      `pattern ${JSON.stringify(row.pattern)} took over ${PATTERN_TIMEOUT_MS} ms on model id ${JSON.stringify(id)} ` +
        '(nested repetition such as (a+)+ backtracks without end): write it without nesting quantifiers',
    );
  }
  return matches.length > 0;
}

/** Whether a built-in profile pattern (ours, safe) matches the whole model id. */
function matches(pattern: string, id: string): boolean {
  return new RegExp(`^(?:${pattern})$`).test(id);
}

async function readPricingFile(file: string): Promise<PricingFile> {
  let text: string;
  try {
    text = await readCappedFile(file);
  } catch (error) {
    throw new PricingFileError(file, unreadableReason(error), { cause: error });
  }
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (error) {
    throw new PricingFileError(file, `not valid JSON (${(error as Error).message})`, { cause: error });
  }
  const result = PricingFile.safeParse(json);
  if (!result.success) {
    const issue = result.error.issues[0]!;
    const field = issue.path.length > 0 ? issue.path.map(String).join('.') : '(top level)';
    throw new PricingFileError(file, `${field}: ${issue.message}`);
  }
  return result.data;
}

function isRegExp(source: string): boolean {
  try {
    new RegExp(source);
    return true;
  } catch {
    return false;
  }
}

function escapeForPattern(model: string): string {
  // Shown inside a JSON string, so the backslash itself is doubled.
  return model.replace(/[.*+?^${}()|[\]\\]/g, '\\\\$&');
}

function withoutUndefined(row: z.infer<typeof PriceRowFile>): PriceEntry {
  const { provider, cacheWrite, ...rest } = row;
  return {
    ...rest,
    ...(provider === undefined ? {} : { provider }),
    ...(cacheWrite === undefined ? {} : { cacheWrite }),
  };
}
