/**
 * What the README's "Token counting" says a browser gets, checked against the code:
 * which counter each quoted export condition resolves to (core built as an
 * application bundles it, with esbuild), the byte bound it counts by, its quoted
 * error before and after the first calibration, and the js-tiktoken encoder it
 * offers for exact counts with that encoder's quoted bundle size. A changed default
 * or a drifted figure fails here until the README says the new one.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { createTokenCounter, type TokenCounter } from '@episodic/core';
import { build } from 'esbuild';
import { Tiktoken } from 'js-tiktoken/lite';
import o200kBase from 'js-tiktoken/ranks/o200k_base';
import { beforeAll, describe, expect, it } from 'vitest';
import { realDataMode, sharedFixturesRoot } from './support/shared-fixtures.js';

const root = fileURLToPath(new URL('../', import.meta.url));
const readme = readFileSync(join(root, 'README.md'), 'utf8');
const prose = readme.replace(/\s+/g, ' ');
const utf8 = (text: string) => Buffer.byteLength(text, 'utf8');

/** The groups of `pattern` in the README, or a failure naming what it should say. */
function quoted(pattern: RegExp): string[] {
  const found = pattern.exec(prose);
  expect(found, `the README quotes ${pattern}`).not.toBeNull();
  return found!.slice(1);
}

/** What a bundle of core's default counter reports, evaluated as the application would run it. */
interface BundledCounter {
  count(text: string): number;
  calibrated(system: string, reported: number): { before: number; after: number };
}

/** Core's default counter bundled with esbuild for `platform` under `conditions`, imported as a module. */
async function bundledCounter(platform: 'browser' | 'neutral', conditions: string[]): Promise<BundledCounter> {
  const contents = `import { createTokenCounter } from '@episodic/core';
export const count = (text) => createTokenCounter().countText(text);
export function calibrated(system, reported) {
  const counter = createTokenCounter();
  const before = counter.countSystem(system);
  counter.calibration.observe(before, reported);
  return { before, after: counter.countSystem(system) };
}`;
  const result = await build({
    stdin: { contents, resolveDir: root, sourcefile: 'counter.js', loader: 'js' },
    bundle: true,
    write: false,
    format: 'esm',
    platform,
    conditions,
    mainFields: ['module', 'main'],
    logLevel: 'silent',
  });
  const source = result.outputFiles[0]!.text;
  return (await import(`data:text/javascript;base64,${Buffer.from(source).toString('base64')}`)) as BundledCounter;
}

/** Bytes per o200k token of `text`: how many times the byte bound overcounts it. */
const overcount = (exact: TokenCounter, text: string) => utf8(text) / exact.countText(text);

const sample = 'Build failed: héllo 日本語 🙂 — see https://ci.example/run/42 (exit 1)';

describe("the README's browser counter", () => {
  const exact = createTokenCounter();
  let conditions: string[];

  beforeAll(() => {
    const [list] = quoted(/In browsers and edge runtimes \(the ((?:`[\w-]+`(?:, | and )?)+) conditions\) the default counter is a bound, not tiktoken: a text's UTF-8 length in bytes/);
    conditions = [...list!.matchAll(/`([\w-]+)`/g)].map((match) => match[1]!);
  });

  it('is what each quoted condition resolves to: the UTF-8 byte length, never under tiktoken', { timeout: 60_000 }, async () => {
    expect(conditions).toEqual(['browser', 'edge-light', 'workerd']);
    const manifest = JSON.parse(readFileSync(join(root, 'packages/core/package.json'), 'utf8')) as { imports: Record<string, Record<string, string>> };
    const encoder = manifest.imports['#default-encoder']!;
    for (const condition of conditions) {
      expect(encoder[condition], condition).toBe('./bundle/platform/edge-encoder.js');
      const bundled = await bundledCounter(condition === 'browser' ? 'browser' : 'neutral', condition === 'browser' ? [] : [condition]);
      expect(bundled.count(sample), condition).toBe(utf8(sample));
      expect(bundled.count(sample)).toBeGreaterThanOrEqual(exact.countText(sample));
    }
    // Node's own default (this test's) stays tiktoken: exact, well under the bytes.
    expect(encoder.node).toBe('./bundle/platform/node-encoder.js');
    expect(exact.countText(sample)).toBeLessThan(utf8(sample) / 2);
  });

  it('overcounts by the figures quoted, on this README, on core\'s TypeScript and on real Claude Code sessions', () => {
    const [low, high, onReadme, onTypeScript, sessionsLow, sessionsHigh] = quoted(
      /it overcounts about ([\d.]+)-([\d.]+)x \(([\d.]+) bytes a token on this README, ([\d.]+) on core's TypeScript sources, ([\d.]+)-([\d.]+) on the Claude Code sessions of the shared fixtures\)/,
    ).map(Number) as [number, number, number, number, number, number];
    const sources = (folder: string): string[] =>
      readdirSync(folder, { withFileTypes: true }).flatMap((entry) =>
        entry.isDirectory() ? sources(join(folder, entry.name)) : entry.name.endsWith('.ts') && !entry.name.includes('.test.') ? [join(folder, entry.name)] : [],
      );
    const typeScript = sources(join(root, 'packages/core/src')).map((file) => readFileSync(file, 'utf8')).join('\n');
    const ratios = [overcount(exact, readme), overcount(exact, typeScript)];
    // A README or the sources change as they are edited; the ratio of such text moves little.
    expect(Math.abs(ratios[0]! - onReadme)).toBeLessThanOrEqual(0.15);
    expect(Math.abs(ratios[1]! - onTypeScript)).toBeLessThanOrEqual(0.15);
    if (realDataMode().run) {
      const folder = join(sharedFixturesRoot(), 'sessions/claude-code');
      const sessions = readdirSync(folder).filter((name) => name.endsWith('.jsonl'));
      expect(sessions.length).toBeGreaterThan(10);
      const perSession = sessions.map((name) => overcount(exact, readFileSync(join(folder, name), 'utf8')));
      // The quoted range is the sessions' own, rounded to a tenth.
      expect(Math.min(...perSession)).toBeGreaterThanOrEqual(sessionsLow - 0.05);
      expect(Math.max(...perSession)).toBeLessThan(sessionsHigh + 0.05);
      expect(Math.min(...perSession)).toBeLessThan(sessionsLow + 0.1);
      expect(Math.max(...perSession)).toBeGreaterThan(sessionsHigh - 0.1);
      ratios.push(...perSession);
    }
    // On a clone without the shared fixtures the run says once that real data steps aside; README and sources still count.
    expect(Math.min(...ratios)).toBeGreaterThanOrEqual(low - 0.05);
    expect(Math.max(...ratios)).toBeLessThan(high + 0.05);
  });

  it('after the first call, is as close as the calibration: the latest ratio plus the quoted margin', { timeout: 60_000 }, async () => {
    const [margin] = quoted(/from then on it is as close as the calibration \(the ratio of the latest call, plus (\d+)%\)/).map(Number) as [number];
    const bundled = await bundledCounter('browser', []);
    const system = readme.slice(0, 20_000);
    const reported = exact.countSystem(system);
    const { before, after } = bundled.calibrated(system, reported);
    expect(before / reported).toBeGreaterThan(2.5);
    expect(after).toBeGreaterThanOrEqual(reported);
    expect(after).toBeLessThanOrEqual(Math.ceil(reported * (1 + margin / 100)) + 1);
    expect(after).toBeGreaterThanOrEqual(Math.floor(reported * (1 + margin / 100)) - 1);
  });

  it('counts exactly with the quoted js-tiktoken encoder, whose o200k ranks bundle to the quoted size', { timeout: 60_000 }, async () => {
    const [snippet] = quoted(/(createTokenCounter\(\{ encoder: \{ count: \(text\) => tiktoken\.encode\(text, \[\], \[\]\)\.length \} \}\))/);
    const [megabytes] = quoted(/its o200k ranks add about (\d+(?:\.\d+)?) MB to a bundle/).map(Number) as [number];
    expect(prose).toContain('with `tiktoken = new Tiktoken(o200k_base)` from `js-tiktoken/lite` and `js-tiktoken/ranks/o200k_base`');
    const tiktoken = new Tiktoken(o200kBase);
    const make = new Function('createTokenCounter', 'tiktoken', `return ${snippet};`) as (create: typeof createTokenCounter, encoder: Tiktoken) => TokenCounter;
    const counter = make(createTokenCounter, tiktoken);
    for (const text of [sample, readme.slice(0, 30_000), '<|endoftext|> is text here']) {
      expect(counter.countText(text)).toBe(exact.countText(text));
    }
    const ranks = await build({
      stdin: { contents: "import o200k_base from 'js-tiktoken/ranks/o200k_base'; console.log(o200k_base);", resolveDir: root, loader: 'js' },
      bundle: true,
      minify: true,
      write: false,
      format: 'esm',
      platform: 'browser',
      logLevel: 'silent',
    });
    const bundleMegabytes = ranks.outputFiles[0]!.contents.length / 1024 / 1024;
    expect(Math.abs(bundleMegabytes - megabytes)).toBeLessThanOrEqual(0.5);
  });
});
