/**
 * Prices for `episodic budget`: the built-in table, a user's `--pricing FILE` placed
 * in front of it, and the lookup of one model. The file is validated with zod and
 * every problem names the file and the field.
 */
import { EpisodicError, type Pricing } from '@episodic/core';
import { BoundedRegex } from '@episodic/tools';
import { z } from 'zod';
import { readCappedFile, unreadableReason } from '../read-capped-file.js';
import { builtinPrices, type PriceRow } from './pricing-table.js';

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

/** A price row that may match any provider (rows from a user's file). */
export type PriceEntry = Omit<PriceRow, 'provider'> & { provider?: string };

/** The rows to look prices up in, the user's first, and where they came from. */
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

/** The built-in prices, with the rows of `file` (if any) in front. */
export async function loadPrices(file: string | undefined): Promise<PriceList> {
  const builtin = builtinPrices.models.map((row) => ({ ...row, source: `built-in (${builtinPrices.collected})` }));
  if (file === undefined) return { rows: builtin, collected: builtinPrices.collected };
  const parsed = await readPricingFile(file);
  const user = parsed.models.map((row) => ({ ...withoutUndefined(row), source: file }));
  return { rows: [...user, ...builtin], collected: builtinPrices.collected };
}

/**
 * The price of `provider`/`model` (provider may be unknown when only an id was
 * given). Falls back to `profilePricing` (the provider profile's) before giving up.
 */
export function findPrice(
  list: PriceList,
  model: { provider: string | undefined; id: string },
  profilePricing?: Pricing,
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
  if (profilePricing) return { pricing: profilePricing, source: 'model profile', provider: model.provider };
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
