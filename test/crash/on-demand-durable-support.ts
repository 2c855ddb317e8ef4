/**
 * The crash scenario of on-demand compaction under a real durable engine (DBOS, Restate),
 * shared by on-demand-dbos.test.ts and on-demand-restate.test.ts: three episodes on
 * Claude Sonnet 4.6 (the strict loopback Anthropic server), on-demand compaction in the
 * foreground after each one (one episode kept), and the worker running episode 1 killed
 * with SIGKILL at one point of its compaction; a fresh worker takes the episode over.
 * Nothing may be lost or doubled: the transcript is the one a run without the crash
 * writes, no model call is made twice, and the model is asked for a compaction again only
 * when the crash cut its answer off.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import type { EpisodeSummary, Message } from '@episodic/core';
import { FileSessionStore } from '@episodic/core/node';
import { expect } from 'vitest';
import type { AnthropicServer } from '../servers/anthropic-server.js';
import type { RecordedRequest } from '../servers/scripted-server.js';

const child = fileURLToPath(new URL('./on-demand-durable-child.mjs', import.meta.url));

/** Where the first worker dies: before the request is sent, while it waits for the answer, after the answer, after the swap. */
export type CompactionCrash = 'before-request' | 'during' | 'after-answer' | 'after-swap';
export const CRASH_POINTS: readonly CompactionCrash[] = ['before-request', 'during', 'after-answer', 'after-swap'];
/** Each crash point in words, for test names. */
export const CRASH_NAMES: Record<CompactionCrash, string> = {
  'before-request': 'before the compaction request',
  during: 'during the compaction request',
  'after-answer': 'after the compaction answer, before its swap',
  'after-swap': 'after the compaction\'s swap',
};

/** A worker process (on-demand-durable-child.mjs). */
export interface Worker {
  process: ChildProcess;
  output: () => string;
  exited: Promise<void>;
}

/** Starts a worker with `config` (the child's JSON config) and waits until it takes work. */
export async function startWorker(config: Record<string, unknown>): Promise<Worker> {
  const process_ = spawn(process.execPath, [child, JSON.stringify(config)], { stdio: ['ignore', 'pipe', 'pipe'] });
  let output = '';
  process_.stdout?.on('data', (chunk: Buffer) => (output += chunk.toString()));
  process_.stderr?.on('data', (chunk: Buffer) => (output += chunk.toString()));
  const exited = new Promise<void>((resolve) => process_.once('exit', () => resolve()));
  await waitFor(() => `the worker starting (${output})`, () => output.includes('ready') || process_.exitCode !== null, 60_000);
  if (!output.includes('ready')) throw new Error(`the worker exited: ${output}`);
  return { process: process_, output: () => output, exited };
}

export async function waitFor(what: () => string, condition: () => boolean | Promise<boolean>, timeoutMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await condition())) {
    if (Date.now() > deadline) throw new Error(`${what()}: not within ${timeoutMs} ms`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

const compactionRequests = (server: AnthropicServer) =>
  server.requests.filter((request) => (request.body as { compaction?: unknown }).compaction !== undefined);
type WireMessage = { role: string; content: string | { type: string }[] };
const messagesOf = (request: RecordedRequest | undefined) => ((request?.body as { messages?: WireMessage[] }).messages ?? []);

/** The transcript as compared across runs: roles, texts, and what each compaction stands for. */
export function shape(messages: readonly Message[]): string[] {
  return messages.map((message) => {
    if (message.role !== 'assistant') return `${message.role}:${typeof message.content === 'string' ? message.content : ''}`;
    const part = message.content[0];
    if (part?.type === 'compaction') return `compaction:${part.summarizedMessages}:${part.failed === true ? 'failed' : part.text}`;
    return `assistant:${message.content.map((item) => (item.type === 'text' ? item.text : item.type)).join('')}`;
  });
}

/** What a run of the three episodes writes without a crash (the compaction after episode 2 summarizes the block again). */
export const EXPECTED_TRANSCRIPT = [
  'user:u1',
  'assistant:a1',
  'user:u2',
  'assistant:a2',
  'compaction:2:Summary of 2 messages: u1 | a1',
  'user:u3',
  'assistant:a3',
  'compaction:5:Summary of 3 messages: (Summary of 2 messages: u1 | a1) | u2 | a2',
];

/** How the scenario drives an engine. */
export interface EngineDriver {
  server: AnthropicServer;
  /** The file store's directory the workers share. */
  directory: string;
  sessionId: string;
  /** What the engine's runtime says of `DurableRuntime.concurrentSteps`. */
  concurrentSteps: boolean;
  /** Starts a worker that dies at `crash` (none: it does not). */
  worker: (crash: CompactionCrash | 'none') => Promise<Worker>;
  send: (episode: number, input: string) => Promise<void>;
  result: (episode: number) => Promise<EpisodeSummary>;
}

/** What a background run writes: asked at episode 2's start, run beside it, swapped in at its end. */
export const BACKGROUND_TRANSCRIPT = ['user:u1', 'assistant:a1', 'user:u2', 'assistant:a2', 'user:u3', 'assistant:a3', 'compaction:2:Summary of 2 messages: u1 | a1'];

/**
 * Runs the scenario with the first worker dying at `crash` (in the foreground: in episode
 * 1's compaction; in the background: in episode 2's, once that episode's model call is
 * recorded beside it); checks the transcript and the calls the server saw. Asked for in the
 * background on an engine without `concurrentSteps`, it runs as in the foreground, with a warning.
 */
export async function crashDuringCompaction(engine: EngineDriver, crash: CompactionCrash, asked: 'foreground' | 'background' = 'foreground'): Promise<void> {
  const { server } = engine;
  // A runtime that cannot run steps side by side runs a background compaction in the foreground, and says so.
  const background = asked === 'background' && engine.concurrentSteps;
  server.enqueue(...['a1', 'a2', 'a3'].map((text) => ({ type: 'reply' as const, text })));
  let open = () => {};
  if (crash === 'during') server.compactions.enqueue({ until: new Promise<void>((resolve) => (open = resolve)) });
  const crashed = background ? 2 : 1;
  const workers: Worker[] = [];
  // An episode that does not end says why: what the workers printed and what the store holds.
  const resultOf = async (episode: number) => {
    let timer: NodeJS.Timeout | undefined;
    const late = new Promise<never>((_resolve, reject) => {
      timer = setTimeout(async () => {
        const stored = await new FileSessionStore({ directory: engine.directory }).load(engine.sessionId).catch(() => undefined);
        const printed = workers.map((worker) => worker.output()).join('\n---\n');
        reject(new Error(`episode ${episode} did not end within 60 s; stored ${JSON.stringify(shape(stored?.messages ?? []))}; the workers printed:\n${printed}`));
      }, 60_000);
    });
    try {
      return await Promise.race([engine.result(episode), late]);
    } finally {
      clearTimeout(timer);
    }
  };
  try {
    workers.push(await engine.worker(crash === 'during' ? 'none' : crash));
    const [first] = workers as [Worker];
    for (const [episode, input] of ['u1', 'u2', 'u3'].entries()) {
      await engine.send(episode, input);
      if (episode === crashed) await killedAt(engine, first, crash, background);
      expect(await resultOf(episode)).toMatchObject({ reason: 'done', text: `a${episode + 1}` });
    }
    const stored = (await new FileSessionStore({ directory: engine.directory }).load(engine.sessionId))?.messages ?? [];
    expect(shape(stored)).toEqual(background ? BACKGROUND_TRANSCRIPT : EXPECTED_TRANSCRIPT);
    // No model call made twice; in the foreground, episode 2's call sends the block first, in place of u1 and a1.
    const calls = server.modelCalls();
    expect(calls.map((call) => call.status)).toEqual([200, 200, 200]);
    if (!background) expect(messagesOf(calls[2])[0]?.content).toMatchObject([{ type: 'compaction' }]);
    // In the foreground one compaction after episode 1 and one after episode 2, in the
    // background one beside episode 2; a crash during the request cost the one it cut off.
    expect(compactionRequests(server)).toHaveLength((background ? 1 : 2) + (crash === 'during' ? 1 : 0));
    if (asked === 'background' && !background) expect(workers.map((worker) => worker.output()).join('')).toContain('warning compaction-in-foreground');
  } finally {
    open();
    for (const worker of workers) worker.process.kill('SIGKILL');
  }

  /** Waits for the first worker to die at `crash` (killing it there when the crash is `during`), then starts another. */
  async function killedAt(driver: EngineDriver, first: Worker, point: CompactionCrash, beside: boolean): Promise<void> {
    if (point === 'during') {
      await waitFor(() => `the compaction request (${first.output()})`, () => compactionRequests(server).length === 1, 60_000);
      // In the background the episode's own call goes on meanwhile: killed once its answer is stored.
      const store = new FileSessionStore({ directory: driver.directory });
      const answered = async () => shape((await store.load(driver.sessionId))?.messages ?? []).includes('assistant:a3');
      if (beside) await waitFor(() => `episode 2's answer stored (${first.output()})`, answered, 60_000);
      first.process.kill('SIGKILL');
    }
    await waitFor(() => `the first worker dying at ${point} (${first.output()})`, () => first.process.exitCode !== null || first.process.signalCode !== null, 60_000);
    expect(first.process.signalCode).toBe('SIGKILL');
    workers.push(await driver.worker('none'));
  }
}
