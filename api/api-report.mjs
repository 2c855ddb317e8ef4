/**
 * The public API of every package, as API Extractor reports it from the built
 * declaration files (`dist/*.d.ts`): one `api/<name>.api.md` per entry point that a
 * package's `exports` map publishes (`@episodic/core/internal` excepted: it promises
 * nothing). `test/api-report.test.ts` fails when a report differs from the built
 * packages, so a change to a public name or signature is always a visible diff.
 *
 * After a deliberate change, rebuild and regenerate the reports, then commit them:
 *
 *     npm run api:update
 *
 * (`tsc -b && node api/api-report.mjs --update`).
 */
import { readFileSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { CompilerState, Extractor, ExtractorConfig } from '@microsoft/api-extractor';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..');
/** Where the reports live. */
export const reportFolder = join(root, 'api');
/** The command that regenerates the reports. */
export const updateCommand = 'npm run api:update';

/** Subpaths of a package's `exports` map that carry no API promise, so get no report. */
const unpromised = new Set(['./internal']);

/**
 * Every published entry point: `{ report, folder, entry }`, e.g. report `core-testing` for
 * `@episodic/core/testing`. Read from the workspaces and their `exports` maps, so a
 * new package or subpath gets a report without being listed here.
 */
export function entryPoints() {
  const workspaces = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')).workspaces;
  const entries = [];
  for (const workspace of workspaces.filter((path) => path.startsWith('packages/'))) {
    const folder = join(root, workspace);
    const manifest = JSON.parse(readFileSync(join(folder, 'package.json'), 'utf8'));
    const base = manifest.name.replace(/^@episodic\//, '');
    const exports = Object.entries(manifest.exports ?? {});
    for (const [subpath, target] of exports) {
      if (unpromised.has(subpath)) continue;
      const report = subpath === '.' ? base : `${base}-${subpath.replace(/^\.\//, '').replaceAll('/', '-')}`;
      entries.push({ report, folder, entry: join(folder, target.types) });
    }
  }
  return entries;
}

const compilerOptions = JSON.parse(readFileSync(join(root, 'tsconfig.base.json'), 'utf8')).compilerOptions;

function configFor({ report, folder, entry }, temporaryFolder) {
  return ExtractorConfig.prepare({
    configObject: {
      projectFolder: folder,
      mainEntryPointFilePath: entry,
      // Declarations only: the options matter, the file list is the entry point.
      compiler: { overrideTsconfig: { compilerOptions, files: [entry] } },
      apiReport: {
        enabled: true,
        reportFileName: `${report}.api.md`,
        reportFolder,
        reportTempFolder: temporaryFolder,
      },
      docModel: { enabled: false },
      dtsRollup: { enabled: false },
      tsdocMetadata: { enabled: false },
      messages: {
        compilerMessageReporting: { default: { logLevel: 'error' } },
        extractorMessageReporting: {
          default: { logLevel: 'error' },
          // Every export is public; there are no alpha or beta releases to tag.
          'ae-missing-release-tag': { logLevel: 'none' },
          // The report marks undocumented declarations itself; the test refuses undocumented exports.
          'ae-undocumented': { logLevel: 'none' },
          'ae-internal-missing-underscore': { logLevel: 'none' },
        },
        tsdocMessageReporting: { default: { logLevel: 'error' } },
      },
    },
    configObjectFullPath: join(folder, 'api-extractor.json'),
    packageJsonFullPath: join(folder, 'package.json'),
  });
}

/**
 * Runs API Extractor on every entry point. With `update`, rewrites the reports in
 * `api/`; without, leaves them alone. Returns, per entry point, whether its report
 * differs from the built package, the problems found (errors and warnings, report
 * differences excluded) and the difference as a patch.
 */
export async function checkApiReports({ update = false } = {}) {
  const temporaryFolder = await mkdtemp(join(tmpdir(), 'episodic-api-'));
  try {
    const entries = entryPoints();
    const configs = entries.map((entry) => configFor(entry, temporaryFolder));
    // One program for all entry points: the packages share most declarations.
    const compilerState = CompilerState.create(configs[0], {
      additionalEntryPoints: configs.slice(1).map((config) => config.mainEntryPointFilePath),
    });
    const checker = compilerState.program.getTypeChecker();
    const exportedNames = (file) => {
      const module = checker.getSymbolAtLocation(compilerState.program.getSourceFile(file));
      return new Set(module ? checker.getExportsOfModule(module).map((symbol) => symbol.name) : []);
    };
    return entries.map((entry, index) => {
      const problems = [];
      let diff = '';
      // An entry point may mention types that another published entry point of the same
      // package exports (the root's `AgentEvent` mentions `PackStats` of
      // `@episodic/core/packing`; `@episodic/core/testing` mentions root types): they are
      // in that report, not forgotten. `internal` does not count: it promises nothing.
      const siblingNames = new Set(
        entries.filter((other) => other.folder === entry.folder && other !== entry).flatMap((other) => [...exportedNames(other.entry)]),
      );
      const exportedBySibling = (message) =>
        message.messageId === 'ae-forgotten-export' && siblingNames.has(/^The symbol "([^"]+)"/.exec(message.text)?.[1]);
      const result = Extractor.invoke(configs[index], {
        localBuild: update,
        compilerState,
        printApiReportDiff: !update,
        messageCallback: (message) => {
          message.handled = true;
          if (message.messageId === 'console-api-report-diff') diff = message.text;
          else if (exportedBySibling(message)) return;
          else if (message.logLevel === 'error' || (message.logLevel === 'warning' && !/^console-api-report/.test(message.messageId))) {
            const where = message.sourceFilePath ? `${message.sourceFilePath}:${message.sourceFileLine}: ` : '';
            problems.push(`${where}${message.text} (${message.messageId})`);
          }
        },
      });
      return { report: entry.report, changed: result.apiReportChanged, problems, diff };
    });
  } finally {
    await rm(temporaryFolder, { recursive: true, force: true });
  }
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const update = process.argv.includes('--update');
  const results = await checkApiReports({ update });
  for (const { report, changed, problems, diff } of results) {
    const state = changed ? (update ? 'updated' : 'differs') : 'unchanged';
    console.log(`api/${report}.api.md: ${state}`);
    if (!update && diff) console.log(diff);
    for (const problem of problems) console.log(`  ${problem}`);
  }
  if (results.some(({ problems, changed }) => problems.length > 0 || (changed && !update))) process.exitCode = 1;
}
