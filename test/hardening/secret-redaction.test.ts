/**
 * Keys in the agent's environment never reach the transcript or an event, whatever
 * the tool: the built-in ones (including `cat /proc/$PPID/environ` through
 * run_command, which reads the agent's own environment), custom tools, their errors
 * and a provider error that echoes the key. The agent runs in a child process so
 * that the planted keys are in its real environment.
 */
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Agent, type AgentTool, MemorySessionStore, type Message, type ModelRequest, type ToolMessage } from '@episodic/core';
import { scriptedModel } from '@episodic/core/testing';
import { createAnthropicAdapter } from '@episodic/providers/anthropic';
import { createOpenAIResponsesAdapter } from '@episodic/providers/openai';
import { afterEach, describe, expect, it } from 'vitest';

const child = fileURLToPath(new URL('./leak-child.mjs', import.meta.url));
const builtTools = fileURLToPath(new URL('../../packages/tools/dist/index.js', import.meta.url));
const key = 'sk-planted-8d1f0c2a9b7e4f63a5d2';
const token = 'tok-planted-55c3e9a1b2d4';

describe('secret redaction', () => {
  let directory: string | undefined;
  afterEach(async () => {
    if (directory) await rm(directory, { recursive: true, force: true });
  });

  it('keeps planted keys out of every tool result, event, error and the saved transcript', async () => {
    expect(existsSync(builtTools), 'the child imports the built packages: run `npx tsc -b`').toBe(true);
    directory = await mkdtemp(join(tmpdir(), 'episodic-leak-'));
    const run = spawnSync(process.execPath, [child, join(directory, 'store'), join(directory, 'root')], {
      env: { PATH: process.env.PATH, HOME: process.env.HOME, OPENAI_API_KEY: key, ACME_SERVICE_TOKEN: token },
      encoding: 'utf8',
    });
    expect(run.stderr).toBe('');
    const transcript = await readFile(join(directory, 'store', 's.jsonl'), 'utf8');
    const messages = transcript.trimEnd().split('\n').map((line) => JSON.parse(line) as Message);
    const results = messages.filter((message): message is ToolMessage => message.role === 'tool');
    expect(results).toHaveLength(9);
    // Each tool really met a key: the redaction marker stands where it was.
    for (const result of results) expect(result.content, result.toolCallId).toContain('[redacted]');
    // Tool-call arguments are the model's own output: a model that never sees a key cannot write it.
    const assistantLines = transcript.split('\n').filter((line) => line.startsWith('{"role":"assistant"'));
    const saved = transcript.split('\n').filter((line) => !assistantLines.includes(line)).join('\n');
    expect(saved).not.toContain(key);
    expect(saved).not.toContain(token);

    const events = run.stdout.trimEnd().split('\n').map((line) => JSON.parse(line) as { type: string });
    expect(events.map((event) => event.type)).toEqual(expect.arrayContaining(['tool-result', 'error', 'thrown']));
    // Everything an event shows but the model's own calls (`call`, and the assistant `message`).
    const shown = events.map((event) =>
      JSON.stringify(event.type === 'thrown' ? event : { ...event, call: undefined, message: undefined }),
    );
    expect(shown.filter((line) => line.includes(key) || line.includes(token))).toEqual([]);
    expect(run.stdout).toContain('Incorrect API key provided: [redacted]');
  });

  it("keeps the adapter's own key and the agent's `secrets` out, though neither is in the environment", async () => {
    const adapterKey = 'adapter-key-not-in-env-1234';
    const extra = 'database-password-5678';
    const model = {
      ...scriptedModel({ steps: [{ toolCalls: [{ id: 'c1', name: 'dump', args: {} }] }, { text: 'done' }] }),
      secretValues: () => [adapterKey],
    };
    const dump: AgentTool = {
      spec: { name: 'dump', description: 'Dumps config.', inputSchema: { type: 'object' } },
      execute: async () => ({ content: `key=${adapterKey} password=${extra}` }),
    };
    const session = await new Agent({ model, tools: [dump], secrets: [extra], context: { budget: 100_000 } }).session();
    await session.send('go');
    const result = session.messages.find((message): message is ToolMessage => message.role === 'tool');
    expect(result?.content).toBe('key=[redacted] password=[redacted]');
  });

  it("keeps the fallback models' and the summarizer's keys out too, before any of them is called", async () => {
    const fallbackKey = 'sk-fallback-openai-9c2e71d4';
    const chainKey = 'sk-ant-fallback-options-3b8a';
    const summarizerKey = 'sk-ant-summarizer-7f41b0c2';
    // Real adapters, never called: a port nothing listens on.
    const unreachable = 'http://127.0.0.1:9';
    const openai = createOpenAIResponsesAdapter({ model: 'gpt-5', apiKey: fallbackKey, baseURL: unreachable });
    const claude = createAnthropicAdapter({ model: 'claude-opus-4-5', apiKey: chainKey, baseURL: unreachable });
    const summarizer = createAnthropicAdapter({ model: 'claude-haiku-4-5', apiKey: summarizerKey, baseURL: unreachable });
    const dump: AgentTool = {
      spec: { name: 'dump', description: 'Dumps config.', inputSchema: { type: 'object' } },
      execute: async () => ({ content: `openai=${fallbackKey} anthropic=${chainKey} summarizer=${summarizerKey}` }),
    };
    const steps = [{ toolCalls: [{ id: 'c1', name: 'dump', args: {} }] }, { text: 'done' }];
    for (const fallback of [[openai, { model: claude }], { models: [openai, claude] }]) {
      const model = scriptedModel({ steps });
      const context = { budget: 100_000, summarizer: { model: summarizer } };
      const agent = new Agent({ model, tools: [dump], context, modelCalls: { fallback } });
      const session = await agent.session();
      const events: string[] = [];
      await session.send('go', { onEvent: (event) => events.push(JSON.stringify(event)) });
      const result = session.messages.find((message): message is ToolMessage => message.role === 'tool');
      expect(result?.content).toBe('openai=[redacted] anthropic=[redacted] summarizer=[redacted]');
      for (const secret of [fallbackKey, chainKey, summarizerKey]) expect(events.join('\n')).not.toContain(secret);
    }
  });

  it('keeps the keys of an agent and of the agent it hands a task to out of both transcripts', async () => {
    const callerKey = 'sk-caller-model-41d9e2a7';
    const helperKey = 'sk-helper-model-8b03f5c1';
    const dump: AgentTool = {
      spec: { name: 'dump', description: 'Dumps config.', inputSchema: { type: 'object' } },
      execute: async () => ({ content: `caller=${callerKey} helper=${helperKey}` }),
    };
    const store = new MemorySessionStore();
    const helperModel = {
      ...scriptedModel({
        steps: (request: ModelRequest) => {
          const result = request.messages.findLast((message) => message.role === 'tool');
          return result ? { text: `config: ${String(result.content)}` } : { toolCalls: [{ id: 'h1', name: 'dump', args: {} }] };
        },
      }),
      secretValues: () => [helperKey],
    };
    const helper = new Agent({ model: helperModel, tools: [dump], store, context: { budget: 100_000 } });
    const callerModel = {
      ...scriptedModel({
        steps: [{ toolCalls: [{ id: 'c1', name: 'dump', args: {} }, { id: 'c2', name: 'helper', args: { task: 'Read the config.' } }] }, { text: 'done' }],
      }),
      secretValues: () => [callerKey],
    };
    const tool = helper.asTool({ name: 'helper', description: 'Reads the config.' });
    const caller = new Agent({ model: callerModel, tools: [dump, tool], store, context: { budget: 100_000 } });
    const session = await caller.session({ id: 'caller' });
    await session.send('go');
    const stored = await Promise.all((await store.list()).map(async (id) => JSON.stringify((await store.load(id))?.messages)));
    expect(stored.length).toBe(2);
    for (const transcript of stored) {
      expect(transcript).not.toContain(callerKey);
      expect(transcript).not.toContain(helperKey);
      expect(transcript).toContain('caller=[redacted] helper=[redacted]');
    }
  });
});
