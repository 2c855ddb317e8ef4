import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { EpisodicError } from '@episodic/core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { findPrice, loadPrices, PricingFileError, UnknownPriceError } from './pricing.js';

let dir: string;
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'episodic-pricing-'));
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

async function file(name: string, content: unknown): Promise<string> {
  const path = join(dir, name);
  await writeFile(path, typeof content === 'string' ? content : JSON.stringify(content));
  return path;
}

describe('the built-in prices (the profiles\' pricing)', () => {
  it.each([
    ['anthropic', 'claude-sonnet-4-5', 3],
    ['anthropic', 'claude-opus-4-1', 15],
    ['anthropic', 'claude-opus-4-5', 5],
    ['anthropic', 'claude-haiku-4-5', 1],
    ['openai', 'gpt-5', 1.25],
    ['openai', 'gpt-5-mini', 0.25],
    ['openai', 'gpt-4.1-nano', 0.1],
    ['google', 'gemini-2.5-pro', 1.25],
    ['google', 'gemini-2.5-flash-lite', 0.1],
    ['deepseek', 'deepseek-chat', 0.28],
    ['anthropic', 'claude-3-5-haiku-20241022', 0.8],
    ['openai', 'gpt-4.1-mini', 0.4],
    ['openai', 'gpt-4o-mini', 0.15],
    ['openai', 'o4-mini', 1.1],
    ['google', 'gemini-3-flash-preview', 0.5],
  ])('prices %s/%s with the most specific row', async (provider, id, input) => {
    const list = await loadPrices(undefined);
    expect(findPrice(list, { provider, id })).toMatchObject({ pricing: { input }, source: /^built-in \(\d{4}-\d{2}-\d{2}\)$/ });
  });

  it('finds the provider of a bare id from the first priced row that matches it', async () => {
    const list = await loadPrices(undefined);
    expect(findPrice(list, { provider: undefined, id: 'gemini-2.5-flash-lite' })).toMatchObject({
      provider: 'google',
      pricing: { input: 0.1, cachedInput: 0.01, output: 0.4 },
    });
    expect(() => findPrice(list, { provider: undefined, id: 'deepseek-r1-distill' })).toThrow(UnknownPriceError);
  });
});

describe('--pricing files', () => {
  it('go in front of the built-in rows, with or without a provider', async () => {
    const path = await file('prices.json', {
      collected: '2026-11-01',
      models: [
        { provider: 'openai', pattern: 'gpt-5', input: 1, cachedInput: 0.1, output: 8 },
        { pattern: 'house-.*', input: 0.5, cachedInput: 0.05, cacheWrite: 0.6, output: 1 },
      ],
    });
    const list = await loadPrices(path);
    expect(findPrice(list, { provider: 'openai', id: 'gpt-5' })).toEqual({
      pricing: { input: 1, cachedInput: 0.1, output: 8 },
      source: path,
      provider: 'openai',
    });
    expect(findPrice(list, { provider: 'vllm', id: 'house-7b' }).pricing.cacheWrite).toBe(0.6);
    // Rows the file does not cover still come from the built-in table.
    expect(findPrice(list, { provider: 'openai', id: 'gpt-5-mini' }).source).toMatch(/^built-in/);
  });

  it.each([
    ['no file', undefined, /no such file/],
    ['not JSON', '{models: ]', /not valid JSON/],
    ['a missing field', { models: [{ pattern: 'x', input: 1, output: 2 }] }, /models\.0\.cachedInput: /],
    ['a negative price', { models: [{ pattern: 'x', input: -1, cachedInput: 0, output: 2 }] }, /models\.0\.input: /],
    [
      'a bad pattern',
      { models: [{ pattern: '(', input: 1, cachedInput: 0, output: 2 }] },
      /models\.0\.pattern: not a valid regular expression/,
    ],
    ['an unknown key', { models: [], currency: 'EUR' }, /\(top level\): .*currency/],
  ])('reject %s, naming the file and the field', async (name, content, message) => {
    const path = content === undefined ? join(dir, 'missing.json') : await file(`${name}.json`, content);
    const error = await loadPrices(path).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(PricingFileError);
    expect(EpisodicError.isInstance(error)).toBe(true);
    expect((error as Error).message).toContain(`pricing file ${path}: `);
    expect((error as Error).message).toMatch(message);
  });
});

describe('findPrice', () => {
  it('names a model no profile prices, and how to pass --pricing', async () => {
    const list = await loadPrices(undefined);
    expect(() => findPrice(list, { provider: 'acme', id: 'rocket-1.5' })).toThrow(UnknownPriceError);
    expect(() => findPrice(list, { provider: 'acme', id: 'rocket-1.5' })).toThrow(
      /no price known for model "acme\/rocket-1\.5": pass --pricing FILE .*\{"provider":"acme","pattern":"rocket-1\\\\\.5"/,
    );
  });
});
