/**
 * What an application pays to install and load Episodic, against the AI SDK, in one
 * run: fresh applications outside the repository installing the packed tarballs of
 * the working tree (core alone; core + @episodic/providers + one provider's SDK, for
 * OpenAI, Anthropic and Google) and the registry's `ai` + the matching `@ai-sdk/*`
 * provider (+ zod, the AI SDK's peer). Per application:
 * installed bytes and packages, the median import time of 5 fresh processes, and
 * the minified esbuild bundle of a one-provider agent for Node and for the browser.
 *
 *   npm run bench -- install
 */
import { writeFile } from 'node:fs/promises';
import os from 'node:os';
import { join } from 'node:path';
import { build } from 'esbuild';
import { app, footprint, importMs, importSample, median, pack } from './install-footprint.js';

const episodicAgent = `import { Agent } from '@episodic/core';
import { createOpenAIResponsesAdapter } from '@episodic/providers/openai';
const model = createOpenAIResponsesAdapter({ model: 'gpt-5', apiKey: 'sk-test', baseURL: globalThis.BASE_URL });
const session = await new Agent({ model, system: 'Be terse.' }).session();
console.log((await session.send('Hi')).text);
`;
const aiSdkAgent = `import { generateText } from 'ai';
import { createOpenAI } from '@ai-sdk/openai';
const openai = createOpenAI({ apiKey: 'sk-test', baseURL: globalThis.BASE_URL });
const result = await generateText({ model: openai('gpt-5'), system: 'Be terse.', prompt: 'Hi' });
console.log(result.text);
`;

/** Minified bundle bytes for a platform, or the number of errors when it does not build. */
async function bundle(folder, source, platform) {
  const entry = join(folder, 'agent.js');
  await writeFile(entry, source);
  try {
    const result = await build({ entryPoints: [entry], bundle: true, minify: true, write: false, format: 'esm', platform, logLevel: 'silent' });
    return `${(result.outputFiles[0].contents.length / 1024 / 1024).toFixed(2)} MB`;
  } catch (error) {
    return `fails (${error.errors?.length ?? '?'} errors)`;
  }
}

const sdkOf = { anthropic: ['@anthropic-ai/sdk', '^1.12.0'], google: ['@google/genai', '^2.32.0'] };

/** Core + one more provider entry, and the AI SDK with the same provider as its baseline. */
function providerApps(provider, file) {
  const [sdk, range] = sdkOf[provider];
  return [
    {
      label: `core-${provider}`,
      dependencies: { '@episodic/core': file('@episodic/core'), '@episodic/providers': file('@episodic/providers'), [sdk]: range },
      imports: ['@episodic/core', `@episodic/providers/${provider}`],
      baseline: `ai-sdk-${provider}`,
    },
    {
      label: `ai-sdk-${provider}`,
      dependencies: { ai: 'latest', [`@ai-sdk/${provider}`]: 'latest', zod: '^4.1.0' },
      imports: ['ai', `@ai-sdk/${provider}`],
      baseline: `ai-sdk-${provider}`,
    },
  ];
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
      dependencies: { '@episodic/core': file('@episodic/core'), '@episodic/providers': file('@episodic/providers'), openai: '^6.30.1' },
      imports: ['@episodic/core', '@episodic/providers/openai'],
      agent: episodicAgent,
    },
    {
      // With js-tiktoken, core's optional peer for exact counts outside Node (the agent bundled is the same).
      label: 'core-openai-js-tiktoken',
      dependencies: {
        '@episodic/core': file('@episodic/core'),
        '@episodic/providers': file('@episodic/providers'),
        openai: '^6.30.1',
        'js-tiktoken': '^1.0.21',
      },
      imports: ['@episodic/core', '@episodic/providers/openai', 'js-tiktoken'],
      agent: episodicAgent,
    },
    { label: 'ai-sdk', dependencies: { ai: 'latest', '@ai-sdk/openai': 'latest', zod: '^4.1.0' }, imports: ['ai', '@ai-sdk/openai'], agent: aiSdkAgent },
    ...['anthropic', 'google'].flatMap((provider) => providerApps(provider, file)),
  ];
  const rows = [];
  for (const entry of apps) {
    const folder = await app(entry.label, entry.dependencies);
    const { bytes, packages } = await footprint(folder);
    const firstCount = entry.label.startsWith('core') ? await importMs(folder, ['@episodic/core'], 5, "m0.createTokenCounter().countText('hello world');") : undefined;
    const node = entry.agent ? await bundle(folder, entry.agent, 'node') : '';
    const browser = entry.agent ? await bundle(folder, entry.agent, 'browser') : '';
    rows.push({ ...entry, folder, bytes, packages, firstCount, node, browser, samples: [] });
  }
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
    return `| ${row.imports.join(' + ')} | ${mb(row.bytes)} | ${row.packages} | ${row.ms.toFixed(0)} | ${(row.ms / ai.ms).toFixed(2)}x | ${row.cpu.toFixed(0)} | ${(row.cpu / ai.cpu).toFixed(2)}x | ${row.firstCount === undefined ? '' : row.firstCount.toFixed(0)} | ${row.node} | ${row.browser} |`;
  });
  return `## Install footprint

Fresh applications outside the repository (\`npm install\` of the packed tarballs, or of the registry
packages), ${new Date().toISOString().slice(0, 10)}, Node ${process.version}, ${os.cpus().length} cores, load average ${load} at the start.
Import: median of ${IMPORT_ROUNDS} fresh processes per application, taken in alternating rounds, \`await import()\` of the
listed entries: wall-clock ms and CPU ms (user + system; steadier on a busy machine); "vs ai" is against the AI SDK
application with the same provider (OpenAI's for core alone). Bundles: esbuild, minified ESM, of a
one-provider agent (Episodic: \`Agent\` + \`createOpenAIResponsesAdapter\`; AI SDK: \`generateText\` + \`createOpenAI\`).

| application | installed MB | packages | import ms | vs ai | import CPU ms | vs ai | first token count ms | Node bundle | browser bundle |
| --- | --- | --- | --- | --- | --- | --- | --- | --- | --- |
${lines.join('\n')}

First token count: \`createTokenCounter().countText()\` once after the import (the tokenizer's load: tiktoken and its WASM
on Node, which core requires on the first count; each provider's SDK likewise loads with the first request).
Browser bundles count with core's default outside Node, the UTF-8 byte bound (no rank table); js-tiktoken, the optional
peer for exact counts there, is installed only in the third application and not used by its agent.
Targets: core + one provider at most 45 MB installed and at most 1.2x the AI SDK's import time.
`;
}
