/**
 * The agent every worker runs: the scripted model from `@episodic/core/testing` (so
 * the example runs offline) with real tools on a workspace directory. Each episode
 * answers one job: `TOOL_STEPS` steps that reason and call a tool, then an answer.
 *
 * At every call the script checks that the request carries the reasoning of every
 * earlier step of the current episode, and writes what it found into the step's
 * text ("saw reasoning of steps 1..2", or "MISSING ..."), so the transcript itself
 * proves the current episode's reasoning survived every takeover.
 */
import { appendFile } from 'node:fs/promises';
import { join } from 'node:path';
import {
  Agent,
  type AssistantMessage,
  type Message,
  type ModelAdapter,
  type ModelRequest,
  type SessionStore,
  userText,
} from '@episodic/core';
import { createApproximateCounter } from '@episodic/core/testing';
import { type ScriptStep, scriptedModel } from '@episodic/core/testing';
import { defineTool, fileTools } from '@episodic/tools';
import { z } from 'zod';

/** Tool-calling steps per episode; the next call answers. */
export const TOOL_STEPS = 3;

/** The tool each step calls. */
export const STEP_TOOLS = ['list_files', 'read_file', 'record_step'] as const;

/** The job a user message answers: it starts with `[job <id>]`. */
export function jobOfMessage(message: Message): string | undefined {
  return message.role === 'user' ? /^\[job (\w+)\]/.exec(userText(message))?.[1] : undefined;
}

/** The reasoning text of step `step` of job `job`: unique, so its presence can be checked. */
export function reasoningOf(job: string, step: number): string {
  return `Job ${job}, step ${step}: I planned this step from what the earlier steps found.`;
}

/** What a step's text says about the reasoning it was sent. */
export function reasoningNote(missing: readonly number[], step: number): string {
  return missing.length === 0 ? `saw reasoning of steps 1..${step - 1}` : `MISSING reasoning of steps ${missing.join(',')}`;
}

/** Where the current episode of `messages` starts: its last user message. */
function episodeStart(messages: readonly Message[]): number {
  let start = messages.length - 1;
  while (start >= 0 && messages[start]?.role !== 'user') start -= 1;
  return start;
}

/** The job `request` works on, from the current episode's user message. */
function jobOfRequest(request: ModelRequest): string {
  const job = jobOfMessage(request.messages[episodeStart(request.messages)] ?? { role: 'user', content: '' });
  if (!job) throw new Error('the pool script needs a "[job <id>]" user message');
  return job;
}

/** The next step of the script for `request`. */
export function nextStep(request: ModelRequest): ScriptStep {
  const messages = request.messages;
  const start = episodeStart(messages);
  const job = jobOfRequest(request);
  const earlier = messages.slice(start + 1).filter((message): message is AssistantMessage => message.role === 'assistant');
  const step = earlier.length + 1;
  const missing = earlier
    .map((message, index) => (message.content.some((part) => part.type === 'reasoning' && part.text === reasoningOf(job, index + 1)) ? 0 : index + 1))
    .filter((index) => index > 0);
  const note = reasoningNote(missing, step);
  if (step > TOOL_STEPS) return { reasoning: reasoningOf(job, step), text: `Job ${job} done: ${note}.` };
  const name = STEP_TOOLS[step - 1]!;
  const args = name === 'list_files' ? { path: '.' } : name === 'read_file' ? { path: 'README.md' } : { job, step };
  return { reasoning: reasoningOf(job, step), text: `Job ${job}, step ${step}: ${note}.`, toolCalls: [{ id: `${job}-${step}`, name, args }] };
}

/** Where in a job a worker is: in a model call, in a tool, or between them (store writes, checkpoints). */
export type WorkPhase = 'model' | 'tool' | 'between';

/** Options of {@link poolAgent}. */
export interface PoolAgentOptions {
  store: SessionStore;
  /** The directory the file tools read and `record_step` writes `executions.log` in. */
  workspace: string;
  /** Model latency per call, so kills land mid-episode. */
  latencyMs: number;
  /** How long each tool call works on average: a random 0.5 to 1.5 times this (the file tools wait before they read). */
  toolMs: number;
  /** Who runs the tools (written to `executions.log`). */
  worker: string;
  /**
   * False declares `record_step` not idempotent: under a durable runtime a call that
   * may have begun before a crash is then never run again (its result says the
   * outcome is unknown). Default true (at least once).
   */
  recordIdempotent?: boolean;
  /**
   * Told when a model call or a tool of job `job` starts and ends (a tool's start with
   * its call id), so the fault run knows where its kills land.
   */
  onPhase?: (phase: WorkPhase, job: string, call?: string) => void;
}

/** The job of a tool call: call ids are `<job>-<step>` (see {@link nextStep}). */
function jobOfCall(callId: string): string {
  return callId.replace(/-\d+$/, '');
}

/** A tool's work: random lengths, so a kill aimed at a tool finds one at any point of its work. */
function toolWork(toolMs: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, toolMs * (0.5 + Math.random())));
}

/** A real tool with a side effect: one line per execution, so re-executions after a crash can be counted. */
function recordStepTool(options: PoolAgentOptions) {
  return defineTool({
    name: 'record_step',
    description: 'Records that a step of a job ran.',
    input: z.object({ job: z.string(), step: z.int() }),
    idempotent: options.recordIdempotent ?? true,
    execute: async ({ job, step }, context) => {
      options.onPhase?.('tool', jobOfCall(context.toolCallId), context.toolCallId);
      await toolWork(options.toolMs);
      await appendFile(join(options.workspace, 'executions.log'), `${job}-${step} ${options.worker}\n`);
      options.onPhase?.('between', jobOfCall(context.toolCallId));
      return { content: `recorded ${job}-${step}` };
    },
  });
}

/** `model` with every call reported to `onPhase` (its start and its end). */
function observedModel(model: ModelAdapter, onPhase: PoolAgentOptions['onPhase']): ModelAdapter {
  if (!onPhase) return model;
  return {
    ...model,
    async* stream(request, options) {
      const job = jobOfRequest(request);
      onPhase('model', job);
      try {
        yield* model.stream(request, options);
      } finally {
        onPhase('between', job);
      }
    },
  };
}

/** The file tools, each execution reported to `onPhase` and made to last about `toolMs`. */
function observedFileTools(options: PoolAgentOptions) {
  const { onPhase } = options;
  return fileTools({ root: options.workspace }).map((tool) =>
    onPhase
      ? {
          ...tool,
          execute: async (...args: Parameters<typeof tool.execute>) => {
            const job = jobOfCall(args[1].toolCallId);
            onPhase('tool', job, args[1].toolCallId);
            try {
              await toolWork(options.toolMs);
              return await tool.execute(...args);
            } finally {
              onPhase('between', job);
            }
          },
        }
      : tool,
  );
}

/** The worker's agent. */
export function poolAgent(options: PoolAgentOptions): Agent {
  return new Agent({
    model: observedModel(scriptedModel({ steps: nextStep, latencyMs: options.latencyMs }), options.onPhase),
    system: 'You handle jobs of a worker pool.',
    tools: [...observedFileTools(options), recordStepTool(options)],
    store: options.store,
    // The approximate counter: tiktoken's tables take seconds to load, and a worker
    // that replaces a killed one should start taking jobs at once.
    context: { tokenizer: createApproximateCounter() },
  });
}
