// Each official SDK loads with its adapter's first request, not with the entry point:
// importing the adapters in a fresh process must not load one (checked in child
// processes, on the built dist, since this process's module graph is shared with
// other tests), and what an SDK throws after that load is still recognised.
import { execFile } from 'node:child_process';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createAnthropicAdapter } from '../anthropic/index.js';
import { createGoogleAdapter } from '../google/index.js';
import { createOpenAIResponsesAdapter } from '../openai/index.js';

const run = promisify(execFile);
const dist = (path: string) => JSON.stringify(fileURLToPath(new URL(`../../dist/${path}`, import.meta.url)));
const SDKS = ['openai', '@anthropic-ai/sdk', '@google/genai'];

// A module resolve hook that writes each SDK specifier (or subpath) the process resolves to stderr.
const resolveHook = `export async function resolve(s, c, n) {
  if (${JSON.stringify(SDKS)}.some((sdk) => s === sdk || s.startsWith(sdk + '/'))) process._rawDebug('RESOLVED ' + s);
  return n(s, c);
}`;
const asModule = (source: string) => `data:text/javascript,${encodeURIComponent(source)}`;
const hook = asModule(`import { register } from "node:module"; register(${JSON.stringify(asModule(resolveHook))});`);

/** The SDK specifiers a fresh process resolves while running `script`, and what it printed. */
async function inChild(script: string): Promise<{ resolved: string[]; stdout: string }> {
  const { stdout, stderr } = await run(process.execPath, ['--import', hook, '--input-type=module', '-e', script]);
  return { resolved: stderr.split('\n').filter((line) => line.startsWith('RESOLVED ')), stdout };
}

// Every request is refused with each API's own 429 body.
let server: Server;
let baseURL: string;
beforeAll(async () => {
  server = createServer((request, response) => {
    const url = request.url ?? '';
    const body = url.includes(':streamGenerateContent')
      ? { error: { code: 429, message: 'Resource has been exhausted.', status: 'RESOURCE_EXHAUSTED' } }
      : url.endsWith('/messages')
        ? { type: 'error', error: { type: 'rate_limit_error', message: 'Number of requests has exceeded your rate limit.' } }
        : { error: { message: 'Rate limit reached.', type: 'requests', code: 'rate_limit_exceeded' } };
    request.resume();
    response.writeHead(429, { 'content-type': 'application/json' }).end(JSON.stringify(body));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  baseURL = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

const entries = () => `
  const openai = await import(${dist('openai/index.js')});
  const compatible = await import(${dist('openai-compatible/index.js')});
  const anthropic = await import(${dist('anthropic/index.js')});
  const google = await import(${dist('google/index.js')});
  const adapters = {
    'openai': openai.createOpenAIResponsesAdapter({ model: 'gpt-5', apiKey: 'sk-test', baseURL: '${baseURL}/v1' }),
    'openai-chat': openai.createOpenAIChatAdapter({ model: 'gpt-4.1', apiKey: 'sk-test', baseURL: '${baseURL}/v1' }),
    'compatible': compatible.createOpenAICompatibleAdapter({ provider: 'deepseek', model: 'deepseek-chat', apiKey: 'sk-test', baseURL: '${baseURL}/v1' }),
    'anthropic': anthropic.createAnthropicAdapter({ model: 'claude-sonnet-4-6', apiKey: 'sk-ant-test', baseURL: '${baseURL}' }),
    'google': google.createGoogleAdapter({ model: 'gemini-2.5-flash', apiKey: 'gm-test', baseURL: '${baseURL}' }),
  };`;

/** Streams once from the named adapters, printing how each one's error was classified. */
const firstRequests = (names: string[]) => `${entries()}
  const seen = {};
  for (const name of ${JSON.stringify(names)}) {
    try {
      for await (const _ of adapters[name].stream({ messages: [{ role: 'user', content: 'hi' }], tools: [] })) {}
    } catch (error) {
      seen[name] = { name: error.name, kind: error.kind, status: error.status, retryable: error.retryable };
    }
  }
  console.log(JSON.stringify(seen));`;

describe('the official SDKs are loaded on the first request', () => {
  it('not by importing the four provider entry points, nor by creating adapters', async () => {
    expect((await inChild(entries())).resolved).toEqual([]);
  });

  it.each([
    ['anthropic', '@anthropic-ai/sdk'],
    ['google', '@google/genai'],
    ['openai', 'openai'],
  ])('the first %s request loads %s, and only that SDK', async (adapter, sdk) => {
    const { resolved } = await inChild(firstRequests([adapter]));
    expect(resolved).toContain(`RESOLVED ${sdk}`);
    expect(resolved.filter((line) => !line.startsWith(`RESOLVED ${sdk}`))).toEqual([]);
  });

  it('what the SDK throws after it is loaded is still recognised (its error classes, by instanceof)', async () => {
    const names = ['anthropic', 'google', 'openai', 'openai-chat', 'compatible'];
    const seen = JSON.parse((await inChild(firstRequests(names))).stdout) as Record<string, unknown>;
    // Unrecognised SDK errors would come back as `protocol` (or `unknown`) without the status.
    const rateLimited = { name: 'ModelError', kind: 'rate-limit', status: 429, retryable: true };
    expect(seen).toEqual(Object.fromEntries(names.map((name) => [name, rateLimited])));
  });

  it.each([
    ['anthropic', () => createAnthropicAdapter({ model: 'claude-sonnet-4-6' }), ['ANTHROPIC_API_KEY']],
    ['google', () => createGoogleAdapter({ model: 'gemini-2.5-flash' }), ['GEMINI_API_KEY', 'GOOGLE_API_KEY']],
    ['openai', () => createOpenAIResponsesAdapter({ model: 'gpt-5' }), ['OPENAI_API_KEY']],
  ] as const)('%s: a missing API key is still reported when the adapter is created', (_provider, create, variables) => {
    const saved = variables.map((name) => [name, process.env[name]] as const);
    for (const name of variables) delete process.env[name];
    try {
      expect(create).toThrow(new RegExp(variables.join(' or ')));
    } finally {
      for (const [name, value] of saved) if (value !== undefined) process.env[name] = value;
    }
  });
});
