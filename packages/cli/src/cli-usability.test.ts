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
