/**
 * A fresh application outside the repository that installs the packed tarballs,
 * as a user of the published packages would: `npm pack` of every package from the
 * working tree (which runs each package's `prepack` build), then `npm install` of
 * the tarballs into a temporary folder with no workspace above it. The npm cache
 * serves what it holds (`--prefer-offline`); a failed install throws.
 */
import { execFile } from 'node:child_process';
import { mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';

const run = promisify(execFile);

/** The repository root. */
export const repoRoot = fileURLToPath(new URL('../..', import.meta.url));

/** The publishable packages, as folders under `packages/`. */
export const packageFolders = ['core', 'tools', 'providers', 'postgres', 'dbos', 'restate', 'ai-sdk', 'chat', 'cli'];

/** One tarball `npm pack --json` made: its package, file name and the files it holds. */
export interface PackedPackage {
  name: string;
  filename: string;
  files: string[];
}

/**
 * The environment for a child npm: without the variables `npm test` sets for the
 * workspace (`npm_config_workspace`, `npm_package_*`, ...), which would point a
 * child npm back at this repository.
 */
export function childEnvironment(): NodeJS.ProcessEnv {
  const keep = new Set(['npm_config_cache', 'npm_config_registry', 'npm_config_userconfig']);
  return Object.fromEntries(Object.entries(process.env).filter(([key]) => !key.startsWith('npm_') || keep.has(key)));
}

/** Runs npm (or another command) and returns its standard output; throws with stderr on a non-zero exit. */
export async function runCommand(command: string, args: string[], cwd: string, timeoutMs = 120_000): Promise<string> {
  const { stdout } = await run(command, args, { cwd, env: childEnvironment(), timeout: timeoutMs, maxBuffer: 64 * 1024 * 1024 });
  return stdout;
}

/** Packs every publishable package into `destination` and returns what each tarball holds. */
export async function packAll(destination: string): Promise<PackedPackage[]> {
  const workspaces = packageFolders.flatMap((folder) => ['--workspace', `packages/${folder}`]);
  const stdout = await runCommand('npm', ['pack', '--json', '--pack-destination', destination, ...workspaces], repoRoot);
  // Lifecycle output (the prepack build) may precede the JSON array.
  const json = stdout.slice(stdout.indexOf('\n[') + 1 || stdout.indexOf('['));
  const packed = JSON.parse(json) as { name: string; filename: string; files: { path: string }[] }[];
  return packed.map(({ name, filename, files }) => ({ name, filename, files: files.map((file) => file.path) }));
}

/**
 * Creates an ESM application in a new temporary folder whose dependencies are the
 * tarballs (pinned by `overrides` too, so no `@episodic/*` comes from the registry),
 * or only the package `only`, plus `extra` registry packages, and installs them.
 * Returns the folder.
 */
export async function installApp(
  packed: PackedPackage[],
  tarballFolder: string,
  extra: Record<string, string>,
  only?: string,
): Promise<string> {
  const app = await mkdtemp(join(tmpdir(), 'episodic-packed-app-'));
  const tarballs = Object.fromEntries(packed.map(({ name, filename }) => [name, `file:${join(tarballFolder, filename)}`]));
  // `only`: that package alone (its own @episodic dependencies still come from the tarballs).
  const chosen = only === undefined ? tarballs : { [only]: tarballs[only] as string };
  const overrides = only === undefined ? tarballs : Object.fromEntries(Object.entries(tarballs).filter(([name]) => name !== only));
  const manifest = { name: 'packed-app', private: true, type: 'module', dependencies: { ...chosen, ...extra }, overrides };
  await writeFile(join(app, 'package.json'), `${JSON.stringify(manifest, null, 2)}\n`);
  await runCommand('npm', ['install', '--prefer-offline', '--no-audit', '--no-fund', '--ignore-scripts', '--loglevel=error'], app);
  return app;
}
