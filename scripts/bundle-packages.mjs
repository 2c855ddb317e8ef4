/**
 * Bundles the built entry points of each package whose package.json points its
 * runtime conditions at `./bundle/` (issue 41: a fresh process importing two hundred
 * ES modules spends most of its time to the first request loading them).
 *
 * The package.json is the one source of truth: every runtime target `./bundle/X.js`
 * in `exports` and `imports` is bundled from the tsc output `./dist/X.js`, all of a
 * package's entries in one esbuild build with code splitting, so a class or a
 * module-level state reached from two entries (or from the `#...` platform modules)
 * is one shared chunk, never two copies that `instanceof` would tell apart.
 * Dependencies, other @episodic packages, Node built-ins and the `#...` subpath
 * imports stay imports, so the Node / browser choice of `imports` still happens
 * where the package is used. `types` keep pointing at the tsc declarations.
 *
 * The output goes to its own folder (never over `dist`, whose incremental `tsc -b`
 * would leave files it did not write), emptied first, with source maps that chain
 * through tsc's to `src`.
 *
 *   node scripts/bundle-packages.mjs [--if-stale] [package folder ...]   (default: every package)
 *
 * With `--if-stale`, a package is bundled only when a file of its `dist` is newer
 * than its bundle (what the test setup runs, after a plain `tsc -b`).
 */
import { readdir, readFile, rm, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';

const repoRoot = fileURLToPath(new URL('..', import.meta.url));
const BUNDLE = './bundle/';

/** Every string target of an `exports` or `imports` map, through nested conditions. */
function targets(map) {
  if (typeof map === 'string') return [map];
  if (map === null || typeof map !== 'object') return [];
  return Object.entries(map).flatMap(([condition, value]) => (condition === 'types' ? [] : targets(value)));
}

/** The `./dist/` entry files a package's bundled targets are built from (none when it is not bundled). */
function entryPoints(manifest) {
  const runtime = [...targets(manifest.exports), ...targets(manifest.imports)];
  const bundled = [...new Set(runtime.filter((target) => target.startsWith(BUNDLE)))];
  if (bundled.length === 0) return [];
  const unbundled = runtime.filter((target) => target.startsWith('./dist/'));
  if (unbundled.length > 0) {
    // A dist module beside the bundle would be a second copy of the classes it shares with it.
    throw new Error(`${manifest.name}: exports or imports point both at ${BUNDLE} and at ${unbundled.join(', ')}`);
  }
  return bundled.map((target) => `./dist/${target.slice(BUNDLE.length)}`);
}

/** The newest modification time of the files under `folder`, in ms. */
async function newest(folder) {
  const entries = await readdir(folder, { withFileTypes: true, recursive: true });
  const files = entries.filter((entry) => entry.isFile()).map((entry) => join(entry.parentPath ?? entry.path, entry.name));
  const times = await Promise.all(files.map(async (file) => (await stat(file)).mtimeMs));
  return Math.max(0, ...times);
}

/** Whether the bundle of `entries` (its first entry) is missing or older than a file of `dist`. */
async function stale(root, entries) {
  const first = join(root, 'bundle', entries[0].slice('./dist/'.length));
  const built = await stat(first).then((info) => info.mtimeMs, () => 0);
  return built < (await newest(join(root, 'dist')));
}

/** Bundles one package folder (relative to the repository root); returns the number of entries. */
async function bundlePackage(folder, ifStale) {
  const root = join(repoRoot, folder);
  const manifest = JSON.parse(await readFile(join(root, 'package.json'), 'utf8'));
  const entries = entryPoints(manifest);
  if (entries.length === 0 || (ifStale && !(await stale(root, entries)))) return 0;
  await rm(join(root, 'bundle'), { recursive: true, force: true });
  const { metafile } = await build({
    absWorkingDir: root,
    entryPoints: entries,
    outbase: 'dist',
    outdir: 'bundle',
    bundle: true,
    splitting: true,
    format: 'esm',
    platform: 'neutral',
    target: 'es2022',
    // Every bare specifier (dependencies, @episodic packages, node: built-ins) and every `#...` import stays external.
    packages: 'external',
    external: ['#*'],
    sourcemap: true,
    metafile: true,
    // The maps point at the package's own `src`, which it ships.
    sourcesContent: false,
    chunkNames: 'chunks/[name]-[hash]',
    logLevel: 'warning',
  });
  await checkClassNames(root, manifest.name, metafile);
  return entries.length;
}

/**
 * Fails when bundling renamed a class (two modules of the package declaring the same
 * name, one of which esbuild suffixes): error classes name themselves from
 * `new.target.name`. esbuild's `keepNames` would keep every name at a cost to every
 * application's bundle, so names are kept unique instead.
 */
async function checkClassNames(root, name, metafile) {
  const declared = /^\s*(?:export\s+)?(?:default\s+)?(?:abstract\s+)?class\s+([\w$]+)/gm;
  const inputs = await Promise.all(Object.keys(metafile.inputs).map((input) => readFile(join(root, input), 'utf8')));
  const outputs = await Promise.all(Object.keys(metafile.outputs).filter((output) => output.endsWith('.js')).map((output) => readFile(join(root, output), 'utf8')));
  const bundled = outputs.join('\n');
  const classes = new Set(inputs.flatMap((code) => [...code.matchAll(declared)].map((match) => match[1])));
  // esbuild renames by a number suffix; it writes a class as `class X {` or `var X = class {` (named by the assignment).
  const suffixed = (each) => new RegExp(`(?:\\bclass ${each}\\d+[\\s{]|(?:^|[^\\w$])${each}\\d+ = class[\\s{])`, 'm');
  const renamed = [...classes].filter((each) => suffixed(each.replace(/\$/g, '\\$')).test(bundled));
  if (renamed.length > 0) throw new Error(`${name}: bundling renamed class ${renamed.join(', ')} (declared twice in the package): give each its own name`);
}

const ifStale = process.argv.includes('--if-stale');
const folders = process.argv.slice(2).filter((arg) => arg !== '--if-stale');
const packages = folders.length > 0 ? folders : (await readdir(join(repoRoot, 'packages'))).map((name) => `packages/${name}`);
for (const folder of packages) await bundlePackage(folder, ifStale);
