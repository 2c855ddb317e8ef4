/**
 * A model adapter that plays a script, for testing agents offline. Each model call
 * takes the next step of the script (or asks a function for it, given the request),
 * streams its reasoning, text and tool calls as deltas, and finishes with a message
 * and a plausible usage (input tokens counted with the approximate counter). A step
 * can also fail with a {@link ModelError} (after streaming its deltas) or wait first.
 * Every request is recorded for assertions.
 */
import type { AssistantPart, ModelRef, Usage } from '../message/message.js';
import {
  type ModelAdapter,
  ModelError,
  type ModelErrorKind,
  type ModelRequest,
  type ModelStreamEvent,
  type StopReason,
  type StreamOptions,
} from '../model/model-adapter.js';
import type { ModelProfile } from '../model/model-profile.js';
import { createApproximateCounter, FRAMING, type TokenCounter } from '../tokens/token-counter.js';

/** A tool call in a script. A string `args` is sent as raw, unparsed text (to test invalid JSON). */
export interface ScriptToolCall {
  /** Default `call_<step>_<n>` (1-based): give ids yourself when several models play one session. */
  id?: string;
  name: string;
  args?: unknown;
}

/** One model call of a script. */
export interface ScriptStep {
  reasoning?: string;
  /** Opaque signature put on the reasoning part (Anthropic-style). */
  signature?: string;
  text?: string;
  toolCalls?: readonly ScriptToolCall[];
  /**
   * A structured final answer, given the way the request asks for it: as JSON text
   * when the request carries an `output` format (native structured output), else as
   * a `final_answer` call when that tool is offered, else as JSON text. So one script
   * tests `send(input, { output })` in either mode.
   */
  output?: unknown;
  /** Overrides the computed usage fields. */
  usage?: Partial<Usage>;
  /** Default `tool-calls` when the step calls tools, else `stop`. */
  stopReason?: StopReason;
  /** Waits this long before streaming (overrides `latencyMs`). */
  delayMs?: number;
  /** Fails the call (after streaming the reasoning and text above) with this error. */
  error?: ModelError | { kind: ModelErrorKind; message?: string; retryAfter?: number; status?: number };
}

/** A list of steps played in order, or a function that computes each step from the request. */
export type Script =
  | readonly ScriptStep[]
  | ((request: ModelRequest, stepIndex: number) => ScriptStep | Promise<ScriptStep>);

/** Options of {@link scriptedModel}. */
export interface ScriptedModelOptions {
  steps: Script;
  /** Default `{ provider: 'scripted', id: 'scripted-model' }`. */
  model?: ModelRef;
  /** Delay before each call streams, in milliseconds. Default 0. */
  latencyMs?: number;
  /** Overrides fields of the default profile (200k context, 8k output, no pricing). */
  profile?: Partial<ModelProfile>;
  /** Characters per streamed delta. Default 16. */
  chunkSize?: number;
}

/** A scripted `ModelAdapter` that remembers what it was asked. */
export interface ScriptedModel extends ModelAdapter {
  readonly profile: ModelProfile;
  /** Every request received, in order (failed calls included). */
  readonly requests: readonly ModelRequest[];
}

const retryableKinds: readonly ModelErrorKind[] = ['rate-limit', 'overloaded', 'server', 'network', 'protocol'];

/** Creates a scripted model adapter; see {@link ScriptStep}. */
export function scriptedModel(options: ScriptedModelOptions): ScriptedModel {
  const model = options.model ?? { provider: 'scripted', id: 'scripted-model' };
  const profile = scriptProfile(model, options.profile);
  const counter = createApproximateCounter();
  const requests: ModelRequest[] = [];
  const chunkSize = options.chunkSize ?? 16;

  async function* stream(request: ModelRequest, streamOptions: StreamOptions = {}): AsyncGenerator<ModelStreamEvent> {
    const index = requests.length;
    requests.push({ ...request, messages: [...request.messages] });
    const step = await nextStep(options.steps, request, index);
    await wait(step.delayMs ?? options.latencyMs ?? 0, streamOptions.signal);
    const content: AssistantPart[] = [];
    yield* streamTexts(step, chunkSize, content);
    // A scripted error comes after the deltas before it, as a stream that breaks mid-answer.
    if (step.error) throw toModelError(step.error);
    yield* streamAnswer(step, request, index, chunkSize, content);
    yield finish(step, request, content, model, counter);
  }

  return { model, profile, requests, stream };
}

/** The default profile (200k context, 8k output, no pricing) with the caller's fields over it. */
function scriptProfile(model: ModelRef, overrides: Partial<ModelProfile> | undefined): ModelProfile {
  return {
    provider: model.provider,
    pattern: '.*',
    contextWindow: 200_000,
    maxOutputTokens: 8_000,
    retention: 'episode',
    cacheStyle: 'none',
    minCacheableTokens: 0,
    tokenizerFactor: 1,
    ...overrides,
  };
}

/** The step for call `index`: from the function, or the list (a call past its end is an error that says so). */
async function nextStep(steps: Script, request: ModelRequest, index: number): Promise<ScriptStep> {
  if (typeof steps === 'function') return steps(request, index);
  const step = steps[index];
  if (step) return step;
  throw new ModelError(
    'invalid-request',
    `The scripted model was called ${index + 1} times but its script has ${steps.length} steps: add steps.`,
  );
}

/** Streams the step's reasoning and text, and adds their parts to `content`. */
function* streamTexts(step: ScriptStep, chunkSize: number, content: AssistantPart[]): Generator<ModelStreamEvent> {
  if (step.reasoning !== undefined) {
    for (const text of chunks(step.reasoning, chunkSize)) yield { type: 'reasoning-delta', text };
    content.push({
      type: 'reasoning',
      text: step.reasoning,
      ...(step.signature === undefined ? {} : { signature: step.signature }),
    });
  }
  if (step.text !== undefined) {
    for (const text of chunks(step.text, chunkSize)) yield { type: 'text-delta', text };
    content.push({ type: 'text', text: step.text });
  }
}

/** Streams the structured answer and the tool calls of call `index`, and adds their parts to `content`. */
function* streamAnswer(
  step: ScriptStep,
  request: ModelRequest,
  index: number,
  chunkSize: number,
  content: AssistantPart[],
): Generator<ModelStreamEvent> {
  const answer = structuredAnswer(step, request);
  if (answer.text !== undefined) {
    for (const text of chunks(answer.text, chunkSize)) yield { type: 'text-delta', text };
    content.push({ type: 'text', text: answer.text });
  }
  for (const [position, call] of [...(step.toolCalls ?? []), ...answer.calls].entries()) {
    const id = call.id ?? `call_${index + 1}_${position + 1}`;
    const raw = typeof call.args === 'string' ? call.args : JSON.stringify(call.args ?? {});
    yield { type: 'tool-call-start', id, name: call.name };
    for (const argsDelta of chunks(raw, chunkSize)) yield { type: 'tool-call-delta', id, argsDelta };
    content.push({ type: 'tool-call', id, name: call.name, args: call.args ?? {} });
  }
}

/** The finish event: the message, its usage counted by `counter` (the step's own usage over it), the stop reason. */
function finish(
  step: ScriptStep,
  request: ModelRequest,
  content: AssistantPart[],
  model: ModelRef,
  counter: TokenCounter,
): ModelStreamEvent {
  let input = FRAMING.reply + (request.system ? counter.countSystem(request.system) : 0);
  if (request.tools?.length) input += counter.countTools(request.tools);
  for (const message of request.messages) input += counter.countMessage(message);
  const usage: Usage = {
    inputTokens: input,
    outputTokens: content.reduce((sum, part) => sum + counter.countText(JSON.stringify(part)), 0),
    reasoningTokens: step.reasoning ? counter.countText(step.reasoning) : 0,
    ...step.usage,
  };
  const calledTools = content.some((part) => part.type === 'tool-call');
  const stopReason = step.stopReason ?? (calledTools ? 'tool-calls' : 'stop');
  return { type: 'finish', message: { role: 'assistant', content, model }, usage, stopReason };
}

/** How a step's `output` goes out for this request (see {@link ScriptStep.output}). */
function structuredAnswer(step: ScriptStep, request: ModelRequest): { text?: string; calls: ScriptToolCall[] } {
  if (step.output === undefined) return { calls: [] };
  const offered = request.tools?.some((tool) => tool.name === 'final_answer') === true;
  if (!request.output && offered) return { calls: [{ name: 'final_answer', args: step.output }] };
  return { text: typeof step.output === 'string' ? step.output : JSON.stringify(step.output), calls: [] };
}

function toModelError(error: NonNullable<ScriptStep['error']>): ModelError {
  if (error instanceof ModelError) return error;
  return new ModelError(error.kind, error.message ?? `scripted ${error.kind} error`, {
    retryable: retryableKinds.includes(error.kind),
    retryAfter: error.retryAfter,
    status: error.status,
  });
}

function* chunks(text: string, size: number): Generator<string> {
  for (let start = 0; start < text.length; start += size) yield text.slice(start, start + size);
}

function wait(ms: number, signal: AbortSignal | undefined): Promise<void> {
  const aborted = () => new ModelError('aborted', 'The scripted model call was aborted.');
  if (signal?.aborted) return Promise.reject(aborted());
  if (ms <= 0) return Promise.resolve();
  return new Promise((resolve, reject) => {
    const onAbort = () => {
      clearTimeout(timer);
      reject(aborted());
    };
    const timer = setTimeout(() => {
      signal?.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    signal?.addEventListener('abort', onAbort, { once: true });
  });
}
