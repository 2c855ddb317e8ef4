/**
 * Rough edges a first-time user met (issue 38, item 2): a mistyped flag or command gets
 * a "did you mean", and `import --help` lists every source `--from` takes.
 */
import { describe, expect, it } from 'vitest';
import { suggestion } from './did-you-mean.js';
import { importSources } from './import/import-result.js';
import { runCli } from './testing/cli-harness.js';

describe('did you mean', () => {
  it.each([
    [['budget', 'x.jsonl', '--budget', '64k'], "unknown option '--budget'; did you mean --budgets?"],
    [['pack', 'x.jsonl', '--budgets', '64k'], "unknown option '--budgets'; did you mean --budget?"],
    [['episodes', 'x.jsonl', '--jsn'], "unknown option '--jsn'; did you mean --json?"],
    [['budget', 'x.jsonl', '--retent', 'all'], "unknown option '--retent'; did you mean --retention?"],
    [['episode', 'x.jsonl'], "unknown command 'episode'; did you mean episodes?"],
  ])('%j says what was likely meant, with the usage (exit 2)', async (argv, reason) => {
    const output = await runCli(argv);
    expect(output.code).toBe(2);
    expect(output.stderr.split('\n')[0]).toBe(`episodic: ${reason}`);
    expect(output.stderr).toContain('Usage: episodic');
  });

  it('offers nothing when no name is close', async () => {
    expect(suggestion('--verbose', ['--json', '--html', '--budgets'])).toBeUndefined();
    const output = await runCli(['episodes', 'x.jsonl', '--verbose']);
    expect(output.stderr.split('\n')[0]).toBe("episodic: unknown option '--verbose'");
  });
});

describe('import --help', () => {
  it('lists every source --from takes', async () => {
    const help = (await runCli(['import', '--help'])).stdout;
    const listed = help.slice(help.indexOf('Sources:'), help.indexOf('Options:'));
    for (const source of importSources) expect(listed).toMatch(new RegExp(`^  ${source} `, 'm'));
  });
});

describe('budget report layout', () => {
  it('keeps the table aligned with an infeasible row, and writes every count and amount one way', async () => {
    const { fixtureDir, transcriptText } = await import('./testing/cli-harness.js');
    const { budgetSession } = await import('./testing/budget-sessions.js');
    const fixtures = await fixtureDir();
    try {
      const file = await fixtures.write('plain.jsonl', transcriptText(budgetSession({ episodes: 4, steps: 3, resultWords: 400, system: 'You debug CI.' })));
      const system = await fixtures.write('system.txt', 'Follow the repository conventions. '.repeat(400));
      const output = await runCli(['budget', file, '--budgets', '100,16k,64k', '--system', system, '-r', 'episode']);
      expect(output.code).toBe(0);
      const lines = output.stdout.split('\n');
      const heading = lines.findIndex((line) => /^\s*budget\s+calls/.test(line));
      const table = lines.slice(heading, heading + 4);
      expect(table[1]).toMatch(/^\s+100\s+infeasible/);
      // The last column is right-aligned: an aligned table has lines of one length.
      expect(new Set(table.map((line) => line.length)).size).toBe(1);
      // Counts are grouped (no bare 4-digit-or-more number), amounts are cents or two significant digits.
      const prose = lines.filter((line, index) => index < heading || index > heading + 3).join('\n');
      expect(prose).not.toMatch(/(?<![\d.,$x-])\d{4,}(?![\d.,-])/);
      for (const amount of prose.match(/\$\d+\.\d+/g) ?? []) expect(amount).toMatch(/^\$(\d+\.\d\d|0\.0*[1-9]\d?)$/);
    } finally {
      await fixtures.cleanup();
    }
  });
});
