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
import { execFile } from 'node:child_process';
import { access, lstat, mkdtemp, readFile, realpath, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startAnthropicServer } from '../servers/anthropic-server.js';
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
  let aiSdkApp: string | undefined;

  beforeAll(async () => {
    tarballs = await mkdtemp(join(tmpdir(), 'episodic-tarballs-'));
    packed = await packAll(tarballs);
    app = await installApp(packed, tarballs, { zod: '^4.1.0', '@types/node': '^20.19.0' });
  }, 150_000);

  afterAll(async () => {
    for (const folder of [tarballs, app, zod3App, aiSdkApp]) if (folder) await rm(folder, { recursive: true, force: true });
  });

  it('packs every package with its build, README and LICENSE, and no tests or build info', () => {
    expect(packed.map((entry) => entry.name).sort()).toEqual(packageFolders.map((folder) => `@episodic/${folder}`).sort());
    for (const { name, files } of packed) {
      expect(files, name).toContain('README.md');
      expect(files, name).toContain('LICENSE');
      expect(files, name).toContain('package.json');
      // A bundled package ships its bundle as its code, and of `dist` only the declarations.
      expect(files, name).toContain(bundledPackages.includes(name) ? 'bundle/index.js' : 'dist/index.js');
      if (bundledPackages.includes(name)) expect(files.filter((file) => /^dist\/.*\.js(\.map)?$/.test(file)), name).toEqual([]);
      expect(files, name).toContain('dist/index.d.ts');
      expect(files, name).toContain('dist/index.d.ts.map');
      expect(files.filter((file) => /\.test\.|\.fixture\.|tsbuildinfo|(^|\/)testing\/.*harness/.test(file)), name).toEqual([]);
    }
  });

  // Issue 41: a cold start loads a package as a few bundled files, not its two hundred modules.
  it('ships the bundle each runtime export and import points at, with types at the tsc declarations', async () => {
    for (const { name, files } of packed) {
      const manifest = JSON.parse(await readFile(join(repoRoot, 'packages', name.slice('@episodic/'.length), 'package.json'), 'utf8')) as Manifest;
      const bundled = bundledPackages.includes(name);
      for (const [subpath, target] of [...Object.entries(manifest.exports ?? {}), ...Object.entries(manifest.imports ?? {})]) {
        for (const [condition, file] of Object.entries(target)) {
          expect(files, `${name} ${subpath} ${condition}`).toContain(file.slice(2));
          const folder = condition === 'types' || !bundled ? /^\.\/dist\// : /^\.\/bundle\//;
          expect(file, `${name} ${subpath} ${condition}`).toMatch(folder);
        }
      }
    }
  });

  it('loads @episodic/core and the OpenAI provider from their bundles alone, each class once', async () => {
    await writeFile(join(app, 'loaded-modules.mjs'), loadedModulesProgram);
    const report = JSON.parse(await runCommand(process.execPath, [join(app, 'loaded-modules.mjs')], app)) as LoadedModules;
    const ours = report.urls.filter((url) => url.includes('/node_modules/@episodic/'));
    expect(ours.filter((url) => !/\/node_modules\/@episodic\/(core|providers)\/bundle\//.test(url))).toEqual([]);
    // The entries, the platform modules and their shared chunks (without bundling: about 200 modules).
    expect(ours.length).toBeLessThan(60);
    expect(report.sameClass).toBe(true);
    // Error classes name themselves from `new.target.name`: bundling must not have renamed the class.
    expect(report.errorName).toBe('InvalidArgumentError');
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

  // The AI SDK's current major with its Anthropic provider and the packed middleware: a
  // two-episode tool loop, every call packed, against the strict loopback Messages server.
  it('runs an ai@7 + @ai-sdk/anthropic tool loop packed by @episodic/ai-sdk, type-checked under strict', { timeout: 240_000 }, async () => {
    const aiSdk = { ai: '^7.0.173', '@ai-sdk/anthropic': '^4.0.105' };
    aiSdkApp = await installApp(packed, tarballs, { ...aiSdk, zod: '^4.1.0', '@types/node': '^20.19.0' });
    const server = await startAnthropicServer();
    try {
      for (const episode of [1, 2]) {
        server.enqueue(
          { type: 'reply', reasoning: [`e${episode}: read run 1`], toolCalls: [{ name: 'get_ci_log', args: { run: 1 } }] },
          { type: 'reply', reasoning: [`e${episode}: read run 2`], toolCalls: [{ name: 'get_ci_log', args: { run: 2 } }] },
          { type: 'reply', reasoning: [`e${episode}: answer`], text: `Episode ${episode}: a flaky test.` },
        );
      }
      const output = await checkAndRun(aiSdkApp, 'ai-sdk-app.ts', aiSdkLoopApp, { LOOPBACK_URL: server.url });
      expect(output).toMatch(/^3 Episode 1: a flaky test\. \d+\n3 Episode 2: a flaky test\. \d+\n$/);
      const calls = server.modelCalls();
      expect(calls.map((call) => call.status)).toEqual([200, 200, 200, 200, 200, 200]);
      // Within an episode the signed thinking goes back; the second episode starts without the first one's.
      expect(calls.map((call) => call.view?.echoedReasoning.length)).toEqual([0, 1, 2, 0, 1, 2]);
    } finally {
      await server.close();
    }
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
/** The packages whose runtime entries are esbuild bundles (scripts/bundle-packages.mjs). */
const bundledPackages = ['@episodic/core', '@episodic/providers', '@episodic/tools'];

/** The fields of a package.json read here. */
interface Manifest {
  exports?: Record<string, Record<string, string>>;
  imports?: Record<string, Record<string, string>>;
}

/** What `loadedModulesProgram` prints. */
interface LoadedModules {
  urls: string[];
  sameClass: boolean;
  errorName?: string;
}

/**
 * Imports what the first-request bench's agent imports (its token counter on the
 * platform's `#default-encoder` included) and prints every module URL Node resolved,
 * from a resolve hook, and whether the packing entry's error for a missing budget is the main entry's class, and its name.
 */
const loadedModulesProgram = `import { register } from 'node:module';
import { MessageChannel } from 'node:worker_threads';
const urls = new Set();
const { port1, port2 } = new MessageChannel();
port1.on('message', (url) => urls.add(url));
const hooks = 'export async function initialize({ port }) { globalThis.port = port; }'
  + ' export async function resolve(specifier, context, next) { const result = await next(specifier, context); globalThis.port.postMessage(result.url); return result; }';
register(\`data:text/javascript,\${encodeURIComponent(hooks)}\`, import.meta.url, { data: { port: port2 }, transferList: [port2] });
const core = await import('@episodic/core');
await import('@episodic/providers/openai');
const packing = await import('@episodic/core/packing');
core.createTokenCounter().countText('hello world');
let sameClass = false;
let errorName;
try {
  packing.packContext([], {});
} catch (error) {
  sameClass = error instanceof core.EpisodicError;
  errorName = error.name;
}
await new Promise((resolve) => setTimeout(resolve, 200));
port1.close();
console.log(JSON.stringify({ urls: [...urls], sameClass, errorName }));
`;

/** A fresh app's AI SDK tool loop with Episodic packing, as a user would write it. */
const aiSdkLoopApp = `import { createAnthropic } from '@ai-sdk/anthropic';
import { episodicPacking } from '@episodic/ai-sdk';
import { jsonSchema, type ModelMessage, stepCountIs, streamText, tool, wrapLanguageModel } from 'ai';

const anthropic = createAnthropic({ baseURL: \`\${process.env.LOOPBACK_URL}/v1\`, apiKey: 'test-key' });
const packing = episodicPacking();
const model = wrapLanguageModel({ model: anthropic('claude-opus-4-5'), middleware: packing });
const tools = {
  get_ci_log: tool({
    description: 'Returns the CI log of a run.',
    inputSchema: jsonSchema<{ run: number }>({ type: 'object', properties: { run: { type: 'integer' } }, required: ['run'] }),
    execute: async ({ run }) => \`run \${run}: 1 test failed\`,
  }),
  ...packing.tools,
};
const messages: ModelMessage[] = [];
for (const question of ['Why is CI red?', 'And on the release branch?']) {
  messages.push({ role: 'user', content: question });
  const result = streamText({
    model,
    system: 'You debug CI failures.',
    messages,
    tools,
    stopWhen: stepCountIs(5),
    maxRetries: 0,
    providerOptions: { anthropic: { thinking: { type: 'enabled', budgetTokens: 2048 } } },
    onError: ({ error }) => {
      throw error;
    },
  });
  await result.consumeStream();
  messages.push(...(await result.responseMessages));
  console.log((await result.steps).length, await result.text, packing.stats?.tokens.total);
}
`;

/** Writes `code` as `file` in `folder`, type-checks it under the app tsconfig, runs it, and returns what it printed. */
async function checkAndRun(folder: string, file: string, code: string, env: Record<string, string> = {}): Promise<string> {
  await writeFile(join(folder, file), code);
  await writeFile(join(folder, 'tsconfig.json'), JSON.stringify(appTsconfig, null, 2));
  const tsc = join(repoRoot, 'node_modules/typescript/bin/tsc');
  await runCommand(process.execPath, [tsc, '-p', folder], folder).catch((error: { stdout?: string }) => {
    throw new Error(`tsc failed in the packed app:\n${error.stdout ?? String(error)}`);
  });
  return new Promise((resolve, reject) => {
    const script = join(folder, 'dist', file.replace(/\.ts$/, '.js'));
    execFile(process.execPath, [script], { cwd: folder, env: { ...process.env, ...env } }, (error, stdout, stderr) =>
      error ? reject(new Error(`${error.message}\n${stderr}`)) : resolve(stdout));
  });
}

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
