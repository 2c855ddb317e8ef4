/**
 * Time to first request (issue 41): what a CLI, a serverless function or a web page
 * pays before its first model request leaves. Episodic's agent with one tool against
 * the AI SDK's (`generateText` with `@ai-sdk/openai` and one tool), both asking one
 * question of a loopback OpenAI Responses server in this process, in alternating runs
 * of the same bench (A B A B ...) after one unmeasured run each, each pair giving a
 * ratio; every run's request and answer are checked.
 *
 * - Node: a fresh process imports, builds the agent and sends the message; from the
 *   spawn to the request's arrival at the server.
 * - Browser: each agent bundled with esbuild (minified ESM, browser platform) and
 *   loaded as a page in headless Chromium, a fresh context per run; from the page's
 *   document request (and from its bundle's request) to the model request's arrival.
 *
 * Both applications are installed outside the repository like `bench -- install`
 * does, offline: the packed tarballs of the working tree, and the lockfile's `ai`,
 * `@ai-sdk/openai`, `openai` and `zod`.
 *
 *   npm run bench -- first-request
 */
import { spawn } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { loadavg } from 'node:os';
import { performance } from 'node:perf_hooks';
import { aiSdkBrowserAgent, aiSdkNodeProgram, episodicBrowserAgent, episodicNodeProgram, QUESTION } from './agent-programs.js';
import { launchBrowser, runPage, startPageServer } from './chromium-agent.js';
import { app, bundleText, lockedVersion, median, pack } from './install-footprint.js';
import { ANSWER, checkModelRequest, startResponsesServer } from './responses-server.js';

const RUNS = Number(process.env.FIRST_REQUEST_RUNS ?? 7);
const load = () => loadavg().map((value) => value.toFixed(2)).join(' ');
const ms = (values) => values.map((value) => value.toFixed(0)).join(', ');

/**
 * CPU ms a process has used so far, all its threads (Linux's per-thread schedstat, in
 * nanoseconds): steadier than wall time when the machine is busy.
 */
function processCpuMs(pid) {
  const threads = readdirSync(`/proc/${pid}/task`);
  return threads.reduce((sum, thread) => sum + Number(readFileSync(`/proc/${pid}/task/${thread}/schedstat`, 'utf8').split(' ')[0]) / 1e6, 0);
}

/**
 * One fresh process running `program` in `folder`: ms from the spawn to its first
 * request, and its CPU ms by then (read while the server holds the answer).
 */
async function firstRequest(folder, program, loopback) {
  loopback.resetArrivals();
  const started = performance.now();
  let cpu;
  const child = spawn(process.execPath, ['--input-type=module', '-e', program], {
    cwd: folder,
    env: { PATH: process.env.PATH, BASE_URL: loopback.baseURL },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  loopback.state.onArrival = () => (cpu = processCpuMs(child.pid));
  let output = '';
  child.stdout.on('data', (chunk) => (output += chunk));
  child.stderr.on('data', (chunk) => (output += chunk));
  const code = await new Promise((resolve) => child.on('close', resolve));
  if (code !== 0 || output.trim() !== ANSWER || loopback.state.arrival === undefined) {
    throw new Error(`first-request run in ${folder} failed (exit ${code}): ${output.slice(0, 2000)}`);
  }
  checkModelRequest(loopback.state.bodies, QUESTION, folder);
  return { wall: loopback.state.arrival - started, cpu };
}

/** Runs `measure(side)` for both sides alternately, after one unmeasured run each; the samples per side. */
async function alternate(measure) {
  await measure('episodic');
  await measure('aiSdk');
  const samples = { episodic: [], aiSdk: [] };
  for (let run = 0; run < RUNS; run += 1) {
    samples.episodic.push(await measure('episodic'));
    samples.aiSdk.push(await measure('aiSdk'));
  }
  return samples;
}

/** The table rows of a metric: each side's median and runs, and the per-pair ratios. */
function rows(episodic, aiSdk) {
  const ratios = episodic.map((value, index) => value / aiSdk[index]);
  return `| Episodic | ${median(episodic).toFixed(0)} | ${ms(episodic)} |
| AI SDK | ${median(aiSdk).toFixed(0)} | ${ms(aiSdk)} |
| Episodic / AI SDK, per pair | ${median(ratios).toFixed(2)}x | ${ratios.map((value) => value.toFixed(2)).join(', ')} |`;
}

async function nodeSection(apps, loopback) {
  const startLoad = load();
  const programs = { episodic: episodicNodeProgram, aiSdk: aiSdkNodeProgram };
  const samples = await alternate((side) => firstRequest(apps[side], programs[side], loopback));
  const metric = (side, key) => samples[side].map((sample) => sample[key]);
  return `### Node

A fresh Node process (${process.version}) imports, builds the agent and sends one message; from the spawn to the
request's arrival at the server; and the process's CPU time by then (all its threads, from Linux's schedstat, read
while the server holds the answer; it moves less than wall time on a busy machine). ${RUNS} runs each, alternating,
after one unmeasured run each; load average ${startLoad} at the start, ${load()} at the end.

Wall time, spawn to request:

| | median ms | runs (ms) |
| --- | --- | --- |
${rows(metric('episodic', 'wall'), metric('aiSdk', 'wall'))}

CPU time to the request:

| | median ms | runs (ms) |
| --- | --- | --- |
${rows(metric('episodic', 'cpu'), metric('aiSdk', 'cpu'))}`;
}

async function browserSection(apps, loopback) {
  const sources = { episodic: episodicBrowserAgent, aiSdk: aiSdkBrowserAgent };
  const bundles = {};
  for (const side of ['episodic', 'aiSdk']) bundles[side] = await bundleText(apps[side], sources[side], 'browser');
  const pages = await startPageServer(bundles, loopback.baseURL);
  const browser = await launchBrowser();
  try {
    const version = browser.version();
    const startLoad = load();
    const runs = { episodic: [], aiSdk: [] };
    await alternate(async (side) => {
      const run = await runPage(browser, pages, side, loopback);
      checkModelRequest(run.bodies, QUESTION, `the ${side} page`);
      runs[side].push(run);
    });
    // The first run of each side was the unmeasured one.
    const metric = (side, key) => runs[side].slice(1).map((run) => run[key]);
    const kb = (side) => (Buffer.byteLength(bundles[side]) / 1024).toFixed(0);
    return `### Browser

Each agent bundled with esbuild (minified ESM, browser platform; Episodic with core's browser default counter, the
UTF-8 byte bound: ${kb('episodic')} KB, the AI SDK's ${kb('aiSdk')} KB) and loaded as a page in headless Chromium ${version}, a fresh
browser context per run (cold HTTP, code and CORS preflight caches); the page (served from 127.0.0.1) calls the
Responses server on another loopback port, so each request follows a CORS preflight. Times are taken by the
servers, in one clock: from the page's document request (navigation start, as the network sees it) to the model
request's arrival, and from the bundle's request (so without the page's own load) to it. Each run's answer is read
back from the page and its request checked. CPU time: Chromium's own metrics (\`Performance.getMetrics\`, thread
time) read while the server holds the answer, the renderer process's (with the off-thread compiling; its own start
is in it) and the main thread's. ${RUNS} runs each, alternating, after one unmeasured run each; load
average ${startLoad} at the start, ${load()} at the end.

From navigation start:

| | median ms | runs (ms) |
| --- | --- | --- |
${rows(metric('episodic', 'fromNavigation'), metric('aiSdk', 'fromNavigation'))}

From the bundle's request (download, parse, compile, module initialisation, building the agent, the first pack):

| | median ms | runs (ms) |
| --- | --- | --- |
${rows(metric('episodic', 'fromScript'), metric('aiSdk', 'fromScript'))}

Renderer process CPU time to the request:

| | median ms | runs (ms) |
| --- | --- | --- |
${rows(metric('episodic', 'processCpu'), metric('aiSdk', 'processCpu'))}

Main thread CPU time to the request:

| | median ms | runs (ms) |
| --- | --- | --- |
${rows(metric('episodic', 'mainThreadCpu'), metric('aiSdk', 'mainThreadCpu'))}`;
  } finally {
    await browser.close();
    await pages.close();
  }
}

export default async function firstRequestBench() {
  const tarballs = await pack(['packages/core', 'packages/providers']);
  const file = (name) => `file:${tarballs[name]}`;
  const locked = (...names) => Object.fromEntries(names.map((name) => [name, lockedVersion(name)]));
  const apps = {
    episodic: await app('first-request-episodic', {
      '@episodic/core': file('@episodic/core'),
      '@episodic/providers': file('@episodic/providers'),
      ...locked('openai'),
    }),
    aiSdk: await app('first-request-ai-sdk', locked('ai', '@ai-sdk/openai', 'zod')),
  };
  const loopback = await startResponsesServer();
  try {
    const node = await nodeSection(apps, loopback);
    const browser = await browserSection(apps, loopback);
    return `## Time to first request

Episodic's agent (\`Agent\` + \`createOpenAIResponsesAdapter\`, packed tarballs of the working tree, default token
counter, \`openai\` ${lockedVersion('openai')}) against the AI SDK's (\`generateText\` + \`createOpenAI\`, \`ai\` ${lockedVersion('ai')} +
\`@ai-sdk/openai\` ${lockedVersion('@ai-sdk/openai')}), one tool each, one message to a loopback OpenAI Responses server;
${new Date().toISOString().slice(0, 10)}. Each run's request (model, question, tool) and answer are checked.

${node}

${browser}

Target (issue 41): at most 1.2x.
`;
  } finally {
    await loopback.close();
  }
}
