/**
 * The defaults the README quotes are the code's: each quoted figure is read out of the
 * README and compared with what the code does, so a changed default fails here until
 * the README says the new one.
 */
import { readdir, readFile } from 'node:fs/promises';
import { toolResultCaps } from '@episodic/core/internal';
import { TRANSCRIPT_VERSION } from '@episodic/core/transcript';
import { DEFAULT_LEASE_MS } from '@episodic/postgres';
import { describe, expect, it } from 'vitest';

const root = new URL('../', import.meta.url);
const readme = () => readFile(new URL('README.md', root), 'utf8');
const number = (text: string | undefined) => Number(String(text).replaceAll(',', ''));

/** The groups of `pattern` in `text`, or a failure naming what the README should say. */
function quoted(text: string, pattern: RegExp): string[] {
  const found = pattern.exec(text);
  expect(found, `the README quotes ${pattern}`).not.toBeNull();
  return found!.slice(1);
}

describe('defaults quoted in the README', () => {
  it('the current episode\'s tool-result cap: a quarter of the budget, at most the limit quoted', async () => {
    const text = (await readme()).replace(/\s+/g, ' ');
    const [limit, atLarge, large, atSmall, small] = quoted(
      text,
      /`currentToolResultCap` \(default a quarter of the budget, at most ([\d,]+) tokens: ([\d,]+) at a (\d+)k budget, ([\d,]+) at (\d+)k\)/,
    );
    expect(toolResultCaps({ budget: number(large) * 1000 }).currentCap).toBe(number(atLarge));
    expect(toolResultCaps({ budget: number(small) * 1000 }).currentCap).toBe(number(atSmall));
    expect(toolResultCaps({ budget: 10_000_000 }).currentCap).toBe(number(limit));
    expect(toolResultCaps({ budget: 40_000 }).currentCap).toBe(10_000);
    const [cliLimit] = quoted(text, /the current episode's is a quarter of the budget, at most ([\d,]+) tokens/);
    expect(number(cliLimit)).toBe(number(limit));
  });

  it('the past episodes\' tool-result cap: 1% of the budget, between the floor and the limit quoted', async () => {
    const text = (await readme()).replace(/\s+/g, ' ');
    const [limit, floor, from] = quoted(
      text,
      /`toolResultCap` tokens \(default 1% of the budget, at most ([\d,]+) tokens, about [\d.]+ KB of text, and at least ([\d,]+) from a ([\d,]+)-token budget up\)/,
    );
    expect(toolResultCaps({ budget: 10_000_000 }).pastCap).toBe(number(limit));
    expect(toolResultCaps({ budget: 70_000 }).pastCap).toBe(700);
    expect(toolResultCaps({ budget: number(from) }).pastCap).toBe(number(floor));
    expect(toolResultCaps({ budget: number(from) - 100 }).pastCap).toBeLessThan(number(floor));
  });

  it('the transcript format version', async () => {
    const readmes = [await readme()];
    for (const folder of await readdir(new URL('packages/', root))) {
      readmes.push(await readFile(new URL(`packages/${folder}/README.md`, root), 'utf8'));
    }
    const versions = readmes.flatMap((text) => [...text.matchAll(/format v(\d+(?:\.\d+)?)/g)].map((match) => match[1]));
    expect(versions.length).toBeGreaterThan(2);
    expect(new Set(versions)).toEqual(new Set([TRANSCRIPT_VERSION]));
  });

  it('the Postgres store\'s lease', async () => {
    const [seconds] = quoted(await readme(), /`leaseMs` for the Postgres store \(default (\d+) s\)/);
    expect(number(seconds) * 1000).toBe(DEFAULT_LEASE_MS);
  });

  it('the CLI\'s commands, in the package table and the package description', async () => {
    const files = await readdir(new URL('packages/cli/src/commands/', root));
    const commands = files.filter((file) => /^[a-z-]+\.ts$/.test(file)).map((file) => file.replace(/\.ts$/, ''));
    expect(commands.length).toBeGreaterThanOrEqual(7);
    const row = (await readme()).split('\n').find((line) => line.startsWith('| `@episodic/cli` |')) ?? '';
    const manifest = JSON.parse(await readFile(new URL('packages/cli/package.json', root), 'utf8')) as { description: string };
    for (const command of commands) {
      expect(row, `README package table lists ${command}`).toContain(`\`${command}\``);
      expect(manifest.description, `@episodic/cli description lists ${command}`).toMatch(new RegExp(`\\b${command}\\b`));
    }
  });
});
