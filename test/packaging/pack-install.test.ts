/**
 * The packages as a user gets them: every package packed from the working tree,
 * the tarballs checked for what they must and must not ship, then installed into a
 * fresh application outside the repository (no workspace links), where the
 * README's agent example is type-checked under `strict` + `nodenext` and run
 * offline on the scripted model; and each package installed alone into an app made
 * by `tsc --init` (its defaults, `skipLibCheck: false`), where a snippet for it is
 * type-checked (and run where it needs no server). Needs npm and its registry (or a
 * warm cache): without them the install fails, and so does this test.
 */
import { access, lstat, mkdtemp, readFile, realpath, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { installApp, packageFolders, packAll, type PackedPackage, repoRoot, runCommand } from './packed-app.js';
import { packageSnippets } from './package-snippets.js';

/** The README's offline agent example: the ts block of "## Build an agent", which builds an Agent on the scripted model. */
async function readmeAgentExample(): Promise<string> {
  const readme = await readFile(join(repoRoot, 'README.md'), 'utf8');
  const section = readme.split('\n## Build an agent\n')[1]?.split(/\n## /)[0] ?? '';
  const example = /```ts\n([\s\S]*?)```/.exec(section)?.[1];
  if (!example?.includes('new Agent(') || !example.includes('scriptedModel')) {
    throw new Error('README.md has no "## Build an agent" ts block with `new Agent(` on `scriptedModel`');
  }
  return example;
}

/** What a user's `tsc --init` app would check with: strict, nodenext, no DOM. */
const appTsconfig = {
  compilerOptions: {
    target: 'es2022',
    module: 'nodenext',
    moduleResolution: 'nodenext',
    strict: true,
    skipLibCheck: true, // as `tsc --init` writes it; the example is checked against the packages' declarations
    types: ['node'],
    outDir: 'dist',
  },
  include: ['*.ts'],
};

describe('packed packages in a fresh application', () => {
  let tarballs: string;
  let packed: PackedPackage[];
  let app: string;
  let zod3App: string | undefined;

  beforeAll(async () => {
    tarballs = await mkdtemp(join(tmpdir(), 'episodic-tarballs-'));
    packed = await packAll(tarballs);
    app = await installApp(packed, tarballs, { zod: '^4.1.0', '@types/node': '^20.19.0' });
  }, 150_000);

  afterAll(async () => {
    for (const folder of [tarballs, app, zod3App]) if (folder) await rm(folder, { recursive: true, force: true });
  });

  it('packs every package with its build, README and LICENSE, and no tests or build info', () => {
    expect(packed.map((entry) => entry.name).sort()).toEqual(packageFolders.map((folder) => `@episodic/${folder}`).sort());
    for (const { name, files } of packed) {
      expect(files, name).toContain('README.md');
      expect(files, name).toContain('LICENSE');
      expect(files, name).toContain('package.json');
      expect(files, name).toContain('dist/index.js');
      expect(files, name).toContain('dist/index.d.ts');
      expect(files, name).toContain('dist/index.d.ts.map');
      expect(files.filter((file) => /\.test\.|\.fixture\.|tsbuildinfo|(^|\/)testing\/.*harness/.test(file)), name).toEqual([]);
    }
  });

  it('installs the tarballs themselves, not links into the repository', async () => {
    for (const { name } of packed) {
      const installed = join(app, 'node_modules', name);
      expect((await lstat(installed)).isSymbolicLink(), name).toBe(false);
      expect(await realpath(installed), name).not.toContain(repoRoot);
    }
  });

  it('links the episodic command from the CLI tarball', async () => {
    const version = await runCommand(join(app, 'node_modules/.bin/episodic'), ['--version'], app);
    expect(version.trim()).toMatch(/\d+\.\d+\.\d+/);
  });

  it('type-checks the README agent example under strict + nodenext and runs it', { timeout: 180_000 }, async () => {
    expect(await checkAndRunReadmeAgent(app)).toMatch(/^2 \+ 3 = 5 \d+\n$/);
  });

  // zod is a peer: an application on zod 3 gets its tools checked and converted by
  // its own zod (before, this failed with TS2740 and "Cannot read properties of
  // undefined (reading 'def')").
  it('runs the same example in an application on zod 3', { timeout: 180_000 }, async () => {
    zod3App = await installApp(packed, tarballs, { zod: '^3.25.76', '@types/node': '^20.19.0' });
    const zodVersion = JSON.parse(await readFile(join(zod3App, 'node_modules/zod/package.json'), 'utf8')) as { version: string };
    expect(zodVersion.version).toMatch(/^3\./);
    expect(await checkAndRunReadmeAgent(zod3App)).toMatch(/^2 \+ 3 = 5 \d+\n$/);
  });
});

describe('each package installed alone into a fresh strict app', () => {
  let tarballs: string;
  let packed: PackedPackage[];
  const apps: string[] = [];

  beforeAll(async () => {
    tarballs = await mkdtemp(join(tmpdir(), 'episodic-tarballs-'));
    packed = await packAll(tarballs);
  }, 150_000);

  afterAll(async () => {
    for (const folder of [tarballs, ...apps]) if (folder) await rm(folder, { recursive: true, force: true });
  });

  it('has a snippet for every package', () => {
    expect(Object.keys(packageSnippets).sort()).toEqual(packageFolders.map((folder) => `@episodic/${folder}`).sort());
  });

  for (const [name, snippet] of Object.entries(packageSnippets)) {
    it(`${name}: installs alone, type-checks under tsc --init with skipLibCheck false${snippet.prints ? ', and runs' : ''}`, { timeout: 300_000 }, async () => {
      const app = await installApp(packed, tarballs, snippet.extra, name);
      apps.push(app);
      for (const missing of snippet.absent ?? []) {
        await expect(access(join(app, 'node_modules', missing)), `${missing} is not installed with ${name}`).rejects.toThrow();
      }
      const tsc = join(repoRoot, 'node_modules/typescript/bin/tsc');
      await runCommand(process.execPath, [tsc, '--init', '--skipLibCheck', 'false', '--types', 'node'], app);
      await writeFile(join(app, 'snippet.ts'), snippet.code);
      await runCommand(process.execPath, [tsc, '-p', app], app).catch((error: { stdout?: string }) => {
        const errors = (error.stdout ?? String(error)).split('\n').filter((line) => /^\S.*\(\d+,\d+\): error TS/.test(line));
        const ours = errors.filter((line) => !snippet.upstreamErrors?.test(line));
        if (errors.length === 0 || ours.length > 0) {
          throw new Error(`tsc failed for ${name} alone:\n${error.stdout ?? String(error)}`);
        }
      });
      // With upstream errors tsc still emits: the snippet runs as written.
      await access(join(app, 'snippet.js'));
      if (snippet.prints) expect(await runCommand(process.execPath, [join(app, 'snippet.js')], app)).toMatch(snippet.prints);
    });
  }
});

/** Type-checks the README's agent example in `folder` under the app tsconfig, runs it, and returns what it printed. */
async function checkAndRunReadmeAgent(folder: string): Promise<string> {
  await writeFile(join(folder, 'agent.ts'), await readmeAgentExample());
  await writeFile(join(folder, 'tsconfig.json'), JSON.stringify(appTsconfig, null, 2));
  const tsc = join(repoRoot, 'node_modules/typescript/bin/tsc');
  await runCommand(process.execPath, [tsc, '-p', folder], folder).catch((error: { stdout?: string }) => {
    throw new Error(`tsc failed in the packed app:\n${error.stdout ?? String(error)}`);
  });
  return runCommand(process.execPath, [join(folder, 'dist/agent.js')], folder);
}
