/**
 * The public API of every package is the one its checked-in report in `api/` shows,
 * so that a change to a public name or signature is always a visible diff (see
 * `api/api-report.mjs`). It reads the built declaration files: `npm test` builds
 * first; run `npx tsc -b` before running this file alone.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { checkApiReports, entryPoints, type ReportResult, reportFolder, updateCommand } from '../api/api-report.mjs';

/**
 * Reports whose doc problems are known and fixed elsewhere, with the reason. Their
 * report must still match: only the documentation checks are waived.
 */
const waived: Record<string, string> = {};

let results: Map<string, ReportResult>;

beforeAll(async () => {
  results = new Map((await checkApiReports()).map((result) => [result.report, result]));
}, 300_000);

describe('public API reports', () => {
  for (const { report } of entryPoints()) {
    it(`api/${report}.api.md matches the built package`, () => {
      const result = results.get(report);
      expect(result?.diff, `The public API of ${report} changed: if that is intended, run \`${updateCommand}\` and commit api/${report}.api.md.\n${result?.diff}`).toBe('');
      expect(result?.changed).toBe(false);
    });

    it.skipIf(report in waived)(`${report}: every export is documented and every type it mentions is exported`, () => {
      expect(results.get(report)?.problems).toEqual([]);
      const text = readFileSync(join(reportFolder, `${report}.api.md`), 'utf8');
      const undocumented = text.split('\n').flatMap((line, index, lines) =>
        line.startsWith('// @public (undocumented)') ? [lines[index + 1]] : [],
      );
      expect(undocumented, 'exports without a doc comment').toEqual([]);
    });
  }
});
