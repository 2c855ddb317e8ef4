/**
 * One recording replayed through its adapter: the official SDK client talks to the
 * replay server on 127.0.0.1, each response becomes a transcript message checked
 * against what the recorded bytes say, and each follow-up the adapter builds is
 * compared with the request the real API accepted.
 */
import {
  type AssistantMessage,
  createTokenCounter,
  type Message,
  ModelError,
  type ModelRequest,
  type ModelStreamEvent,
  type ReasoningPart,
} from '@episodic/core';
import { packContext } from '@episodic/core/packing';
import type { ProviderAdapter } from '@episodic/providers';
import { createAnthropicAdapter } from '@episodic/providers/anthropic';
import { createGoogleAdapter } from '@episodic/providers/google';
import { createOpenAIChatAdapter, createOpenAIResponsesAdapter } from '@episodic/providers/openai';
import { createOpenAICompatibleAdapter } from '@episodic/providers/openai-compatible';
import { expect } from 'vitest';
import type { RecordedAnswer, WireFormat } from './recorded-wire.js';
import type { RecordingEntry } from './recordings.js';
import { anthropicWire } from './wire-anthropic.js';
import { chatWire } from './wire-chat.js';
import { geminiWire } from './wire-gemini.js';
import { responsesWire } from './wire-responses.js';

const apiKey = 'recorded-replay-key';

/** The adapter for a recording, pointed at the replay server. */
export function adapterFor(entry: RecordingEntry, baseURL: string): ProviderAdapter<unknown> {
  const model = entry.model;
  switch (entry.wireApi) {
    case 'anthropic-messages':
      return createAnthropicAdapter({ model, baseURL, apiKey });
    case 'openai-responses':
      return createOpenAIResponsesAdapter({ model, baseURL, apiKey });
    case 'openai-chat':
      return createOpenAIChatAdapter({ model, baseURL, apiKey });
    case 'gemini':
      return createGoogleAdapter({ model, baseURL, apiKey });
    default:
      return createOpenAICompatibleAdapter({ provider: entry.provider, model, baseURL, apiKey });
  }
}

/** How a recording's wire is read. */
export function wireOf(entry: RecordingEntry): WireFormat {
  if (entry.wireApi === 'anthropic-messages') return anthropicWire;
  if (entry.wireApi === 'openai-responses') return responsesWire;
  if (entry.wireApi === 'gemini') return geminiWire;
  return chatWire(['reasoning_content', 'reasoning'], entry.provider === 'openrouter');
}

/** What one call produced: its events, and the finished message or the error. */
export interface CallResult {
  events: ModelStreamEvent[];
  message?: AssistantMessage;
  error?: unknown;
}

export async function callAdapter(adapter: ProviderAdapter<unknown>, request: ModelRequest): Promise<CallResult> {
  const events: ModelStreamEvent[] = [];
  try {
    for await (const event of adapter.stream(request)) events.push(event);
  } catch (error) {
    return { events, error };
  }
  const finish = events.at(-1);
  return { events, ...(finish?.type === 'finish' ? { message: finish.message } : {}) };
}

const joined = (events: readonly ModelStreamEvent[], type: 'reasoning-delta' | 'text-delta') =>
  events.map((event) => (event.type === type ? event.text : '')).join('');

/**
 * The transcript holds what the response says: reasoning complete (the deltas add up
 * to it), opaque data exact, text, tool calls (with the model's own arguments
 * string), usage and stop reason.
 */
export function checkTranscript(
  result: CallResult,
  answer: RecordedAnswer,
  options: { combineReasoning: boolean; deltas: boolean; usage: boolean },
): void {
  expect(result.error).toBeUndefined();
  const finish = result.events.at(-1);
  if (finish?.type !== 'finish') throw new Error('the stream did not finish');
  const { message } = finish;
  expect(finish.stopReason).toBe(answer.stopReason);
  if (options.usage) expect(finish.usage).toMatchObject(answer.usage);
  const reasoning = message.content.filter((part): part is ReasoningPart => part.type === 'reasoning');
  const reasoningText = reasoning.map((part) => part.text).join('');
  if (options.deltas) expect(joined(result.events, 'reasoning-delta')).toBe(reasoningText);
  if (options.combineReasoning) expect(reasoningText).toBe(answer.reasoning.map((part) => ('text' in part ? part.text : '')).join(''));
  else {
    expect(reasoning).toHaveLength(answer.reasoning.length);
    answer.reasoning.forEach((expected, index) => expect(reasoning[index]).toMatchObject(expected));
  }
  const text = message.content.map((part) => (part.type === 'text' ? part.text : '')).join('');
  expect(text).toBe(answer.text);
  if (options.deltas) expect(joined(result.events, 'text-delta')).toBe(answer.text);
  const calls = message.content.filter((part) => part.type === 'tool-call');
  expect(calls.map((call) => ({ name: call.name, args: call.args }))).toEqual(answer.calls.map(({ name, args }) => ({ name, args })));
  answer.calls.forEach((expected, index) => {
    const call = calls[index];
    if (expected.id !== undefined) expect(call?.id).toBe(expected.id);
    // The model's own string is kept when it is not what JSON.stringify makes of the arguments.
    if (expected.raw !== JSON.stringify(expected.args)) expect(call?.providerData?.arguments).toBe(expected.raw);
  });
  if (answer.signatures) {
    const signatures = message.content.flatMap((part) => {
      // A part the adapter kept whole (code execution, a server tool's call) holds its signature inside.
      const kept = part.type === 'provider-tool' ? (part.providerData?.part as { thoughtSignature?: unknown } | undefined) : undefined;
      const signature = kept ? kept.thoughtSignature : part.providerData?.thoughtSignature;
      return typeof signature === 'string' ? [signature] : [];
    });
    expect(signatures).toEqual(answer.signatures);
  }
  if (answer.phases) {
    const phases = message.content.flatMap((part) => (part.type === 'text' ? [part.providerData?.phase as string | undefined] : []));
    expect(phases).toEqual(answer.phases);
  }
  if (answer.streamError) {
    const warning = result.events.find((event) => event.type === 'warning' && event.code === 'error-after-max-tokens');
    expect(warning?.type === 'warning' ? warning.message : '').toContain(answer.streamError);
  }
}

/**
 * Reasoning weighs what the provider reported for it (opaque reasoning too): the
 * parts share the call's reasoning tokens, and the counter counts at least them.
 */
export function checkReasoningWeight(message: AssistantMessage, reported: number | undefined): void {
  const parts = message.content.filter((part): part is ReasoningPart => part.type === 'reasoning');
  if (parts.length === 0 || reported === undefined) return;
  expect(parts.reduce((sum, part) => sum + (part.tokens ?? 0), 0)).toBe(reported);
  expect(createTokenCounter().countMessage(message)).toBeGreaterThanOrEqual(reported);
}

/**
 * At the next user message every thought signature leaves with its episode, on
 * whichever part it rode (Gemini puts them on calls and answer text).
 */
export function checkSignaturesLeave(messages: readonly Message[]): void {
  const before = messages.flatMap((message) => (message.role === 'assistant' ? message.content : []));
  const signed = before.filter((part) => part.providerData?.thoughtSignature !== undefined);
  for (const part of signed)
    if (part.type !== 'reasoning') expect(part.providerData?.reasoningFields).toEqual(['thoughtSignature']);
  const packed = packContext({ messages: [...messages, { role: 'user', content: 'And next?' }], budget: 1_000_000 });
  const left = packed.messages.flatMap((message) => (message.role === 'assistant' ? message.content : []));
  expect(left.filter((part) => part.providerData?.thoughtSignature !== undefined)).toEqual([]);
}

/** A recorded error answer reaches the caller as a typed error carrying the provider's own text. */
export function checkRecordedError(result: CallResult, body: unknown): void {
  expect(result.error).toBeInstanceOf(ModelError);
  const error = (body as { error?: { message?: string } }).error;
  const text = error?.message ?? JSON.stringify(body);
  expect((result.error as Error).message).toContain(text.slice(0, 60));
}

/**
 * What the adapter kept whole goes back whole: the follow-up it builds after
 * `messages` (ending with the answer) carries every unread block of the recorded
 * answer, verbatim and in order.
 */
export function checkKeptWhole(
  adapter: ProviderAdapter<unknown>,
  wire: WireFormat,
  messages: readonly Message[],
  answer: RecordedAnswer,
): void {
  if (!answer.opaque?.length || !answer.opaqueIn) return;
  const { body } = adapter.prepare({ messages: [...messages, { role: 'user', content: 'And next?' }] });
  const turn = wire.turns(body).at(-1)?.turn;
  expect(answer.opaqueIn(turn), 'the blocks kept whole, in the next request').toEqual(answer.opaque);
}

/** The turn of `wire` in `body` that holds one of `keys` (the last one that does). */
export function turnWith(wire: WireFormat, body: unknown, keys: readonly string[]) {
  return wire.turns(body).findLast((turn) => turn.keys.some((key) => keys.includes(key)));
}

/** Builds the follow-up the adapter would send after `messages` and returns its turn for `ours`. */
export function followUpTurn(
  adapter: ProviderAdapter<unknown>,
  wire: WireFormat,
  messages: readonly Message[],
  ours: AssistantMessage,
): unknown {
  const { body } = adapter.prepare({ messages });
  return turnWith(wire, body, wire.keysOf(ours))?.turn;
}
