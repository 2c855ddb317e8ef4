/**
 * What an application pays to install and load Episodic, against the AI SDK, in one
 * run: fresh applications outside the repository installing the packed tarballs of
 * the working tree (core alone; core + @episodic/providers + one provider's SDK, for
 * OpenAI, Anthropic and Google) and the lockfile's `ai` + the matching `@ai-sdk/*`
 * provider (+ zod, the AI SDK's peer). Per application:
 * installed bytes and packages, the median import time of 5 fresh processes, and
 * the minified esbuild bundle of a one-provider agent for Node and for the browser,
 * and the browser bundle run as a page in headless Chromium against a loopback
 * OpenAI Responses server (its request and answer checked).
 *
 * Installs are offline, of the lockfile's versions (see `lockedVersion`).
 *
 *   npm run bench -- install
 */
import os from 'node:os';
import { aiSdkBrowserAgent, episodicBrowserAgent, QUESTION } from './agent-programs.js';
import { launchBrowser, runPage, startPageServer } from './chromium-agent.js';
import { app, bundleText, footprint, importMs, importSample, lockedVersion, median, pack } from './install-footprint.js';
import { checkModelRequest, startResponsesServer } from './responses-server.js';

/** Minified bundle source for a platform, or the error when it does not build. */
async function bundle(folder, source, platform) {
  try {
    return { source: await bundleText(folder, source, platform) };
  } catch (error) {
    return { error: `fails (${error.errors?.length ?? '?'} errors)` };
  }
}

const size = (built) => built.error ?? `${(Buffer.byteLength(built.source) / 1024 / 1024).toFixed(2)} MB`;

/**
 * Loads each row's browser bundle as a page in Chromium, one after the other, and
 * checks that the page's agent sent its request to the loopback server and got the
 * answer back; `row.chromium` says so (or the bench fails).
 */
async function runBundlesInChromium(rows) {
  const bundled = rows.filter((row) => row.browser?.source);
  const loopback = await startResponsesServer();
  const pages = await startPageServer(Object.fromEntries(bundled.map((row) => [row.label, row.browser.source])), loopback.baseURL);
  const browser = await launchBrowser();
  try {
    for (const row of bundled) {
      const run = await runPage(browser, pages, row.label, loopback);
      checkModelRequest(run.bodies, QUESTION, `the ${row.label} page`);
      row.chromium = 'answered';
    }
    return browser.version();
  } finally {
    await browser.close();
    await pages.close();
    await loopback.close();
  }
}

const sdkOf = { anthropic: '@anthropic-ai/sdk', google: '@google/genai' };
/** `{ name: its locked version }` for each name. */
const locked = (...names) => Object.fromEntries(names.map((name) => [name, lockedVersion(name)]));

/** Core + one more provider entry, and the AI SDK with the same provider as its baseline. */
function providerApps(provider, file) {
  const sdk = sdkOf[provider];
  return [
    {
      label: `core-${provider}`,
      dependencies: { '@episodic/core': file('@episodic/core'), '@episodic/providers': file('@episodic/providers'), ...locked(sdk) },
      imports: ['@episodic/core', `@episodic/providers/${provider}`],
      baseline: `ai-sdk-${provider}`,
    },
    {
      label: `ai-sdk-${provider}`,
      dependencies: locked('ai', `@ai-sdk/${provider}`, 'zod'),
      imports: ['ai', `@ai-sdk/${provider}`],
      baseline: `ai-sdk-${provider}`,
    },
  ];
}

/** The browser bundle of core + the OpenAI provider against the AI SDK's, as a ratio. */
function bundleRatio(rows) {
  const bytes = (label) => Buffer.byteLength(rows.find((row) => row.label === label)?.browser?.source ?? '');
  return `${(bytes('core-openai') / bytes('ai-sdk')).toFixed(2)}x`;
}

const IMPORT_ROUNDS = 9;
const mb = (bytes) => (bytes / 1024 / 1024).toFixed(1);

export default async function installBench() {
  const load = os.loadavg().map((value) => value.toFixed(2)).join(' ');
  const tarballs = await pack(['packages/core', 'packages/providers']);
  const file = (name) => `file:${tarballs[name]}`;
  const apps = [
    { label: 'core', dependencies: { '@episodic/core': file('@episodic/core') }, imports: ['@episodic/core'] },
    {
      label: 'core-openai',
      dependencies: { '@episodic/core': file('@episodic/core'), '@episodic/providers': file('@episodic/providers'), ...locked('openai') },
      imports: ['@episodic/core', '@episodic/providers/openai'],
      agent: episodicBrowserAgent,
    },
    {
      // With js-tiktoken, core's optional peer for exact counts outside Node (the agent bundled is the same).
      label: 'core-openai-js-tiktoken',
      dependencies: {
        '@episodic/core': file('@episodic/core'),
        '@episodic/providers': file('@episodic/providers'),
        ...locked('openai', 'js-tiktoken'),
      },
      imports: ['@episodic/core', '@episodic/providers/openai', 'js-tiktoken'],
      agent: episodicBrowserAgent,
    },
    { label: 'ai-sdk', dependencies: locked('ai', '@ai-sdk/openai', 'zod'), imports: ['ai', '@ai-sdk/openai'], agent: aiSdkBrowserAgent },
    ...['anthropic', 'google'].flatMap((provider) => providerApps(provider, file)),
  ];
  const rows = [];
  for (const entry of apps) {
    const folder = await app(entry.label, entry.dependencies);
    const { bytes, packages } = await footprint(folder);
    const firstCount = entry.label.startsWith('core') ? await importMs(folder, ['@episodic/core'], 5, "m0.createTokenCounter().countText('hello world');") : undefined;
    const node = entry.agent ? await bundle(folder, entry.agent, 'node') : undefined;
    const browser = entry.agent ? await bundle(folder, entry.agent, 'browser') : undefined;
    rows.push({ ...entry, folder, bytes, packages, firstCount, node, browser, samples: [] });
  }
  const chromium = await runBundlesInChromium(rows);
  // Imports are timed in rounds, one process per application per round, so a change in
  // the machine's load falls on every application alike.
  for (let round = 0; round < IMPORT_ROUNDS; round += 1) {
    for (const row of rows) row.samples.push(await importSample(row.folder, row.imports));
  }
  for (const row of rows) {
    row.ms = median(row.samples.map((sample) => sample.wall));
    row.cpu = median(row.samples.map((sample) => sample.cpu));
  }
  const lines = rows.map((row) => {
    // Each application against the AI SDK with the same provider (OpenAI's for core alone).
    const ai = rows.find((other) => other.label === (row.baseline ?? 'ai-sdk'));
    return `| ${row.imports.join(' + ')} | ${mb(row.bytes)} | ${row.packages} | ${row.ms.toFixed(0)} | ${(row.ms / ai.ms).toFixed(2)}x | ${row.cpu.toFixed(0)} | ${(row.cpu / ai.cpu).toFixed(2)}x | ${row.firstCount === undefined ? '' : row.firstCount.toFixed(0)} | ${row.node ? size(row.node) : ''} | ${row.browser ? size(row.browser) : ''} | ${row.chromium ?? ''} |`;
  });
  return `## Install footprint

Fresh applications outside the repository (\`npm install --offline\` of the packed tarballs and the lockfile's
versions: \`ai\` ${lockedVersion('ai')}, \`@ai-sdk/openai\` ${lockedVersion('@ai-sdk/openai')}, \`openai\` ${lockedVersion('openai')}), ${new Date().toISOString().slice(0, 10)}, Node ${process.version}, ${os.cpus().length} cores, load average ${load} at the start.
Import: median of ${IMPORT_ROUNDS} fresh processes per application, taken in alternating rounds, \`await import()\` of the
listed entries: wall-clock ms and CPU ms (user + system; steadier on a busy machine); "vs ai" is against the AI SDK
application with the same provider (OpenAI's for core alone). Bundles: esbuild, minified ESM, of a
one-provider agent with one tool (Episodic: \`Agent\` + \`createOpenAIResponsesAdapter\` given an \`openai\` client made
with \`dangerouslyAllowBrowser\`; AI SDK: \`generateText\` + \`createOpenAI\`). In Chromium: each browser bundle loaded as a
page in headless Chromium ${chromium} ("answered": the page's agent sent its request, with the question and
its tool, to a loopback Responses server on 127.0.0.1, another origin, and got the server's answer back).

| application | installed MB | packages | import ms | vs ai | import CPU ms | vs ai | first token count ms | Node bundle | browser bundle | in Chromium |
| --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- |
${lines.join('\n')}

First token count: \`createTokenCounter().countText()\` once after the import (the tokenizer's load: tiktoken and its WASM
on Node, which core requires on the first count; each provider's SDK likewise loads with the first request).
Browser bundles count with core's default outside Node, the UTF-8 byte bound (no rank table); js-tiktoken, the optional
peer for exact counts there, is installed only in the third application and not used by its agent.
Targets: core + one provider at most 45 MB installed and at most 1.2x the AI SDK's import time; the browser bundle of
core + the OpenAI provider at most 1.5x the AI SDK's (issue 41): ${bundleRatio(rows)}.
`;
}
