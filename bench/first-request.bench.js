/**
 * Time to first request (issue 41): what a CLI or a serverless function pays before
 * its first model request leaves. A fresh Node process imports, builds an agent with
 * one tool and sends one message to a loopback OpenAI Responses server in this
 * process; the time is from the spawn to the request's arrival at the server. The
 * same for the AI SDK (`generateText` with `@ai-sdk/openai` and one tool), in
 * alternating runs of the same bench (A B A B ...), each pair giving a ratio.
 *
 * Both applications are installed outside the repository like `bench -- install`
 * does: the packed tarballs of the working tree, and the registry's `ai` and
 * `@ai-sdk/openai`. The server answers every request with a minimal streamed text
 * response, so both programs finish normally (their output is checked).
 *
 *   npm run bench -- first-request
 */
import { spawn } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { createServer } from 'node:http';
import { loadavg } from 'node:os';
import { performance } from 'node:perf_hooks';
import { app, median, pack } from './install-footprint.js';

const RUNS = Number(process.env.FIRST_REQUEST_RUNS ?? 7);
const ANSWER = 'The fixture server did not start.';

const inputSchema = `{ type: 'object', properties: { run: { type: 'number' } }, required: ['run'] }`;

const episodicProgram = `import { Agent } from '@episodic/core';
import { createOpenAIResponsesAdapter } from '@episodic/providers/openai';
const model = createOpenAIResponsesAdapter({ model: 'gpt-5', apiKey: 'sk-test', baseURL: process.env.BASE_URL });
const readLog = {
  spec: { name: 'read_log', description: 'Reads a CI log', inputSchema: ${inputSchema} },
  execute: async () => ({ content: 'ok' }),
};
const session = await new Agent({ model, system: 'You debug CI failures.', tools: [readLog] }).session();
console.log((await session.send('Why did the build fail?')).text);
`;

const aiSdkProgram = `import { generateText, jsonSchema, tool } from 'ai';
import { createOpenAI } from '@ai-sdk/openai';
const openai = createOpenAI({ apiKey: 'sk-test', baseURL: process.env.BASE_URL });
const readLog = tool({ description: 'Reads a CI log', inputSchema: jsonSchema(${inputSchema}), execute: async () => 'ok' });
const result = await generateText({ model: openai('gpt-5'), system: 'You debug CI failures.', prompt: 'Why did the build fail?', tools: { read_log: readLog } });
console.log(result.text);
`;

const response = { id: 'resp_1', object: 'response', created_at: 1, model: 'gpt-5', output: [], status: 'in_progress' };
const content = [{ type: 'output_text', text: ANSWER, annotations: [] }];
const item = { type: 'message', id: 'msg_1', role: 'assistant', status: 'completed', content };
const usage = {
  input_tokens: 40,
  input_tokens_details: { cached_tokens: 0 },
  output_tokens: 8,
  output_tokens_details: { reasoning_tokens: 0 },
  total_tokens: 48,
};
/** A minimal completed Responses answer with one text item (what a request without `stream` gets). */
const completed = { ...response, status: 'completed', output: [item], incomplete_details: null, usage };

/** Server-sent events of the same answer (what a streaming request gets). */
function responseEvents() {
  const events = [
    { type: 'response.created', response },
    { type: 'response.output_item.added', output_index: 0, item: { ...item, status: 'in_progress', content: [] } },
    { type: 'response.output_text.delta', item_id: 'msg_1', output_index: 0, content_index: 0, delta: ANSWER, logprobs: [] },
    { type: 'response.output_item.done', output_index: 0, item },
    { type: 'response.completed', response: completed },
  ];
  return events.map((event, index) => `event: ${event.type}\ndata: ${JSON.stringify({ ...event, sequence_number: index })}\n\n`).join('');
}

/**
 * CPU ms a process has used so far, all its threads (Linux's per-thread schedstat, in
 * nanoseconds): steadier than wall time when the machine is busy.
 */
function processCpuMs(pid) {
  const threads = readdirSync(`/proc/${pid}/task`);
  return threads.reduce((sum, thread) => sum + Number(readFileSync(`/proc/${pid}/task/${thread}/schedstat`, 'utf8').split(' ')[0]) / 1e6, 0);
}

/**
 * A loopback Responses server; `arrival` holds the time the latest request arrived,
 * `cpu` the CPU ms process `pid` had used by then (read while the answer is held).
 */
async function startServer() {
  const state = { arrival: undefined, cpu: undefined, pid: undefined, requests: 0 };
  const server = createServer((request, response) => {
    if (state.arrival === undefined) {
      state.arrival = performance.now();
      state.cpu = processCpuMs(state.pid);
    }
    state.requests += 1;
    let body = '';
    request.on('data', (chunk) => (body += chunk));
    request.on('end', () => {
      // The AI SDK's generateText asks without streaming; Episodic's adapter streams.
      if (JSON.parse(body).stream === true) {
        response.writeHead(200, { 'content-type': 'text/event-stream' });
        response.end(responseEvents());
      } else {
        response.writeHead(200, { 'content-type': 'application/json' });
        response.end(JSON.stringify(completed));
      }
    });
  });
  await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { server, state, baseURL: `http://127.0.0.1:${server.address().port}/v1` };
}

/** One fresh process running `program` in `folder`: ms from the spawn to its first request, and its CPU ms by then. */
async function firstRequest(folder, program, loopback) {
  loopback.state.arrival = undefined;
  const started = performance.now();
  const child = spawn(process.execPath, ['--input-type=module', '-e', program], {
    cwd: folder,
    env: { PATH: process.env.PATH, BASE_URL: loopback.baseURL },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  loopback.state.pid = child.pid;
  let output = '';
  child.stdout.on('data', (chunk) => (output += chunk));
  child.stderr.on('data', (chunk) => (output += chunk));
  const code = await new Promise((resolve) => child.on('close', resolve));
  if (code !== 0 || output.trim() !== ANSWER || loopback.state.arrival === undefined) {
    throw new Error(`first-request run in ${folder} failed (exit ${code}): ${output.slice(0, 2000)}`);
  }
  return { wall: loopback.state.arrival - started, cpu: loopback.state.cpu };
}

/** The table rows of one metric: each side's median and runs, and the per-pair ratios. */
function rows(metric, episodic, aiSdk) {
  const ratios = episodic.map((value, index) => value / aiSdk[index]);
  const list = (values, digits = 0) => values.map((value) => value.toFixed(digits)).join(', ');
  return [
    `| Episodic, ${metric} | ${median(episodic).toFixed(0)} | ${list(episodic)} |`,
    `| AI SDK, ${metric} | ${median(aiSdk).toFixed(0)} | ${list(aiSdk)} |`,
    `| Episodic / AI SDK, ${metric}, per pair | ${median(ratios).toFixed(2)}x | ${list(ratios, 2)} |`,
  ].join('\n');
}

export default async function firstRequestBench() {
  const load = loadavg().map((value) => value.toFixed(2)).join(' ');
  const tarballs = await pack(['packages/core', 'packages/providers']);
  const file = (name) => `file:${tarballs[name]}`;
  const episodicApp = await app('first-request-episodic', {
    '@episodic/core': file('@episodic/core'),
    '@episodic/providers': file('@episodic/providers'),
    openai: '^6.30.1',
  });
  const aiSdkApp = await app('first-request-ai-sdk', { ai: 'latest', '@ai-sdk/openai': 'latest', zod: '^4.1.0' });
  const loopback = await startServer();
  try {
    // One unmeasured run each, so the file system cache holds both installations.
    await firstRequest(episodicApp, episodicProgram, loopback);
    await firstRequest(aiSdkApp, aiSdkProgram, loopback);
    const episodic = [];
    const aiSdk = [];
    for (let run = 0; run < RUNS; run += 1) {
      episodic.push(await firstRequest(episodicApp, episodicProgram, loopback));
      aiSdk.push(await firstRequest(aiSdkApp, aiSdkProgram, loopback));
    }
    const endLoad = loadavg().map((value) => value.toFixed(2)).join(' ');
    return `## Time to first request

A fresh Node process (${process.version}) imports, builds an agent with one tool and sends one message to a loopback
OpenAI Responses server; from the spawn to the request's arrival at the server. Episodic: \`Agent\` +
\`createOpenAIResponsesAdapter\` (packed tarballs of the working tree, default token counter); AI SDK: \`generateText\`
+ \`createOpenAI\` (registry \`ai\` + \`@ai-sdk/openai\`), one tool each. ${RUNS} runs each, alternating, after one
unmeasured run each; ${new Date().toISOString().slice(0, 10)}, load average ${load} at the start, ${endLoad} at the end.
CPU is the process's CPU time by the request's arrival (all its threads, Linux's schedstat): steadier than wall
time on a busy machine.

| | median | runs |
| --- | --- | --- |
${rows('wall ms', episodic.map((run) => run.wall), aiSdk.map((run) => run.wall))}
${rows('CPU ms', episodic.map((run) => run.cpu), aiSdk.map((run) => run.cpu))}

Target (issue 41): at most 1.2x.
`;
  } finally {
    loopback.server.close();
  }
}
