/**
 * Helpers of the install benchmark: pack the workspace packages, install tarballs or
 * registry packages into fresh applications outside the repository, and measure
 * what an application pays for them (files on disk, packages, import time, bundles).
 */
import { execFile } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { mkdtemp, readdir, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { build } from 'esbuild';

const exec = promisify(execFile);
/** The repository root. */
export const repoRoot = fileURLToPath(new URL('..', import.meta.url));

/** Child npm without the variables `npm run` sets for this workspace. */
function environment() {
  return Object.fromEntries(Object.entries(process.env).filter(([key]) => !key.startsWith('npm_') || key === 'npm_config_cache'));
}

/** Runs a command, returning its standard output. */
export async function command(file, args, cwd) {
  const { stdout } = await exec(file, args, { cwd, env: environment(), maxBuffer: 64 * 1024 * 1024, timeout: 300_000 });
  return stdout;
}

/** Packs the given workspace folders into a new temporary folder: `{ name: tarball path }`. */
export async function pack(folders) {
  const destination = await mkdtemp(join(tmpdir(), 'episodic-bench-tarballs-'));
  const args = ['pack', '--json', '--pack-destination', destination, ...folders.flatMap((folder) => ['--workspace', folder])];
  const stdout = await command('npm', args, repoRoot);
  const packed = JSON.parse(stdout.slice(stdout.indexOf('\n[') + 1 || stdout.indexOf('[')));
  return Object.fromEntries(packed.map(({ name, filename }) => [name, join(destination, filename)]));
}

/**
 * The version of `name` the repository's lockfile holds: the benches install these
 * exact versions, from npm's cache, so they run offline and name what they compared.
 */
export function lockedVersion(name) {
  const lock = JSON.parse(readFileSync(join(repoRoot, 'package-lock.json'), 'utf8'));
  const version = lock.packages[`node_modules/${name}`]?.version;
  if (!version) throw new Error(`${name} is not in package-lock.json: the benches install only locked packages`);
  return version;
}

/**
 * A fresh ESM application with these dependencies (`file:` tarballs pinned by
 * `overrides`), installed offline (from npm's cache, as `npm ci` of the repository left it).
 */
export async function app(label, dependencies) {
  const folder = await mkdtemp(join(tmpdir(), `episodic-bench-${label}-`));
  const local = Object.fromEntries(Object.entries(dependencies).filter(([, spec]) => spec.startsWith('file:')));
  const manifest = { name: `bench-${label}`, private: true, type: 'module', dependencies, overrides: local };
  await writeFile(join(folder, 'package.json'), `${JSON.stringify(manifest, null, 2)}\n`);
  await command('npm', ['install', '--offline', '--no-audit', '--no-fund', '--ignore-scripts', '--loglevel=error'], folder);
  return folder;
}

async function bytesUnder(path) {
  const info = await stat(path);
  if (!info.isDirectory()) return info.size;
  let total = 0;
  for (const entry of await readdir(path)) total += await bytesUnder(join(path, entry));
  return total;
}

/** Bytes of every file under node_modules (apparent size) and the number of installed packages. */
export async function footprint(folder) {
  const bytes = await bytesUnder(join(folder, 'node_modules'));
  const parseable = await command('npm', ['ls', '--all', '--parseable'], folder).catch((error) => error.stdout ?? '');
  const packages = new Set(parseable.split('\n').filter((line) => line.includes('node_modules'))).size;
  return { bytes, packages };
}

/**
 * Median of `runs` fresh-process timings of importing `specifiers` in `folder`, in ms;
 * with `then`, of running that code after the imports instead (e.g. a first token count).
 */
export async function importMs(folder, specifiers, runs = 5, then = undefined) {
  const imports = specifiers.map((name, index) => `const m${index} = await import(${JSON.stringify(name)});`).join(' ');
  const script = then
    ? `${imports} const t = performance.now(); ${then} console.log(performance.now() - t);`
    : `const t = performance.now(); ${imports} console.log(performance.now() - t);`;
  const times = [];
  for (let index = 0; index < runs; index += 1) {
    times.push(Number(await command(process.execPath, ['--input-type=module', '-e', script], folder)));
  }
  return median(times);
}

/**
 * One fresh process importing `specifiers`: wall-clock ms and CPU ms (user + system)
 * of the imports. CPU time moves less than wall time when the machine is busy.
 */
export async function importSample(folder, specifiers) {
  const imports = specifiers.map((name, index) => `const m${index} = await import(${JSON.stringify(name)});`).join(' ');
  const script = `const t = performance.now(); const c = process.cpuUsage(); ${imports} const u = process.cpuUsage(c); console.log(performance.now() - t, (u.user + u.system) / 1000);`;
  const [wall, cpu] = (await command(process.execPath, ['--input-type=module', '-e', script], folder)).trim().split(' ').map(Number);
  return { wall, cpu };
}

/** `source` (an ES module importing from `folder`'s node_modules) as esbuild bundles it: minified ESM for `platform`. */
export async function bundleText(folder, source, platform) {
  const stdin = { contents: source, resolveDir: folder, sourcefile: 'agent.js', loader: 'js' };
  const result = await build({ stdin, bundle: true, minify: true, write: false, format: 'esm', platform, logLevel: 'silent' });
  return result.outputFiles[0].text;
}

/** The middle value. */
export function median(values) {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2;
}
