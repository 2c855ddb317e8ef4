/**
 * Chat Completions (OpenAI and every OpenAI-compatible server) as the recorded suite
 * reads it (https://platform.openai.com/docs/api-reference/chat, streaming:
 * https://platform.openai.com/docs/api-reference/chat-streaming). Reasoning comes in
 * the field each server uses (`reasoning_content`, `reasoning`) and OpenRouter's
 * `reasoning_details`, merged by `index` while streaming.
 */
import type { AssistantMessage, Message, StopReason } from '@episodic/core';
import type { RecordedResponse } from './recordings.js';
import { lastUserMessage, parsedArguments, type RecordedAnswer, sseData, textOf, type WireFormat, type WireTurn } from './recorded-wire.js';

type Json = Record<string, unknown>;

/** Fields whose streamed pieces are concatenated. */
const joined = new Set(['content', 'reasoning_content', 'reasoning', 'text', 'summary', 'data', 'arguments']);

/** Merges one streamed delta into `target`: strings concatenated, array entries merged by `index` and `type`. */
function merge(target: Json, delta: Json): void {
  for (const [key, value] of Object.entries(delta)) {
    if (value === null || value === undefined) continue;
    if (Array.isArray(value)) {
      // Content may start as a string ("") and go on as a list of chunks (Mistral).
      if (!Array.isArray(target[key])) target[key] = [];
      const list = target[key] as Json[];
      for (const entry of value as Json[]) {
        const same = (existing: Json) => existing.index === entry.index && (entry.type === undefined || existing.type === entry.type);
        const at = typeof entry.index === 'number' ? list.find(same) : undefined;
        if (at) merge(at, entry);
        else list.push(structuredClone(entry));
      }
    } else if (typeof value === 'object') merge((target[key] ??= {}) as Json, value as Json);
    // Mistral goes on with string content ("" or text) after a list of chunks: a text chunk, not a reset.
    else if (Array.isArray(target[key]) && typeof value === 'string') {
      if (value !== '') (target[key] as Json[]).push({ type: 'text', text: value });
    } else if (joined.has(key) && typeof target[key] === 'string') target[key] = `${target[key] as string}${String(value)}`;
    // Qwen repeats a call's delta with `id: ""`: the id the call started with stays.
    else if (key === 'id' && value === '' && typeof target[key] === 'string') continue;
    else target[key] = value;
  }
}

/** A streamed completion rebuilt as the JSON one, plus the error chunk it may end with. */
function completionOf(response: RecordedResponse): { completion: Json; error?: string } {
  if (response.kind === 'json') return { completion: response.body as Json };
  const message: Json = {};
  let finish: unknown = null;
  let usage: unknown;
  let error: string | undefined;
  for (const chunk of sseData(response.text)) {
    if (chunk.usage) usage = chunk.usage;
    if (chunk.error) error = String((chunk.error as Json).message);
    const choice = ((chunk.choices ?? []) as Json[])[0];
    if (!choice) continue;
    if (choice.delta) merge(message, choice.delta as Json);
    if (choice.finish_reason) finish = choice.finish_reason;
  }
  return { completion: { choices: [{ message, finish_reason: finish }], usage }, ...(error ? { error } : {}) };
}

/** A value that says nothing: hosts send `refusal: null`, `annotations: []`. */
const isEmpty = (value: unknown) =>
  value === null || value === undefined || value === '' || (Array.isArray(value) && value.length === 0) ||
  (typeof value === 'object' && value !== null && Object.keys(value).length === 0);

/** Fields of a message the adapter reads (with the host's reasoning fields); every other non-empty one it keeps. */
const readFields = new Set(['role', 'content', 'tool_calls', 'channel', 'reasoning_content', 'reasoning', 'reasoning_details']);

/** The fields of `message` the adapter does not read, non-empty ones only. */
function unreadFields(message: Json): Json {
  return Object.fromEntries(Object.entries(message).filter(([key, value]) => !readFields.has(key) && !isEmpty(value)));
}

const stopReasons: Record<string, StopReason> = { stop: 'stop', tool_calls: 'tool-calls', length: 'max-tokens', content_filter: 'content-filter' };

/** What a recorded response says; `field` is where this server puts reasoning. */
function answerIn(response: RecordedResponse, fields: readonly string[], details: boolean): RecordedAnswer {
  const { completion, error } = completionOf(response);
  const choice = ((completion.choices ?? []) as Json[])[0] ?? {};
  const message = (choice.message ?? {}) as Json;
  const usage = (completion.usage ?? {}) as Json;
  const calls = ((message.tool_calls ?? []) as Json[]).map((call) => {
    const fn = (call.function ?? {}) as Json;
    const raw = String(fn.arguments ?? '');
    return { id: String(call.id), name: String(fn.name), args: parsedArguments(raw), raw };
  });
  const chunks = Array.isArray(message.content) ? (message.content as Json[]) : [];
  const chunkText = (type: string) =>
    chunks
      .filter((chunk) => chunk.type === type)
      .map((chunk) => (type === 'text' ? String(chunk.text) : ((chunk.thinking ?? []) as Json[]).map((inner) => String(inner.text ?? '')).join('')))
      .join('');
  // Reasoning in `<think>` tags at the start of content (R1 and Qwen3 served raw) is reasoning, not text.
  const tagged = typeof message.content === 'string' ? /^<think>([\s\S]*?)<\/think>/.exec(message.content) : null;
  const reasoning = (fields.map((field) => message[field]).find((value) => typeof value === 'string' && value !== '') ??
    (chunkText('thinking') || tagged?.[1] || undefined)) as string | undefined;
  const entries = details && Array.isArray(message.reasoning_details) ? (message.reasoning_details as Json[]) : [];
  const detailData = entries.length > 0 ? { providerData: { reasoning_details: entries } } : {};
  const cached = (usage.prompt_tokens_details as Json | undefined)?.cached_tokens ?? usage.prompt_cache_hit_tokens;
  const finish = String(choice.finish_reason);
  return {
    reasoning: reasoning || entries.length > 0 ? [{ type: 'reasoning', text: reasoning ?? '', ...detailData }] : [],
    text: typeof message.content === 'string' ? message.content.slice(tagged?.[0].length ?? 0) : chunkText('text'),
    calls,
    usage: {
      inputTokens: Number(usage.prompt_tokens ?? 0),
      cachedInputTokens: Number(cached ?? 0),
      outputTokens: Number(usage.completion_tokens ?? 0),
      reasoningTokens: Number((usage.completion_tokens_details as Json | undefined)?.reasoning_tokens ?? 0),
    },
    stopReason: finish === 'stop' && calls.length > 0 ? 'tool-calls' : (stopReasons[finish] ?? 'other'),
    opaque: Object.keys(unreadFields(message)).length > 0 ? [unreadFields(message)] : [],
    opaqueIn: (turn) => {
      const fields = unreadFields(turn as Json);
      return Object.keys(fields).length > 0 ? [fields] : [];
    },
    ...(error ? { streamError: error, fails: choice.finish_reason === null || choice.finish_reason === undefined } : {}),
  };
}

const messagesOf = (body: unknown) => ((body as Json).messages ?? []) as Json[];

/** An assistant message as compared: text, calls with their exact arguments, and every reasoning field it carries. */
function normalise(message: Json): Json {
  const calls = ((message.tool_calls ?? []) as Json[]).map((call) => {
    const fn = (call.function ?? {}) as Json;
    return { id: call.id, name: fn.name, arguments: fn.arguments };
  });
  const reasoning = Object.fromEntries(
    ['reasoning_content', 'reasoning', 'reasoning_details'].flatMap((field) => (message[field] === undefined ? [] : [[field, message[field]]])),
  );
  const content = typeof message.content === 'string' && message.content !== '' ? message.content : null;
  return { ...unreadFields(message), content, ...(calls.length > 0 ? { tool_calls: calls } : {}), ...reasoning };
}

/** The chat wire for a server that streams reasoning in `fields` (first non-empty wins). */
export function chatWire(fields: readonly string[], details = false): WireFormat {
  return {
    answer: (response) => answerIn(response, fields, details),
    start: (body) => lastUserMessage(messagesOf(body)),
    turns(body) {
      return messagesOf(body).flatMap((message, index): WireTurn[] => {
        if (message.role !== 'assistant') return [];
        const turn = normalise(message);
        // Text is matched without reasoning some clients put before it in <think> tags.
        const text = turn.content ? [String(turn.content).replace(/^<think>[\s\S]*?<\/think>\s*/, '').trim()] : [];
        const keys = [...((turn.tool_calls ?? []) as Json[]).map((call) => String(call.id)), ...text];
        return [{ keys, turn, end: index }];
      });
    },
    after(body, end) {
      const names = new Map<string, string>();
      for (const message of messagesOf(body))
        for (const call of (message.tool_calls ?? []) as Json[]) names.set(String(call.id), String((call.function as Json).name));
      return messagesOf(body)
        .slice(end + 1)
        .flatMap((message): Message[] => {
          if (message.role === 'tool') {
            const id = String(message.tool_call_id);
            return [{ role: 'tool', toolCallId: id, toolName: names.get(id) ?? 'tool', content: textOf(message.content) }];
          }
          if (message.role === 'user') return [{ role: 'user', content: textOf(message.content) }];
          if (message.role !== 'assistant') return [];
          const calls = ((message.tool_calls ?? []) as Json[]).map((call) => {
            const fn = call.function as Json;
            return { type: 'tool-call' as const, id: String(call.id), name: String(fn.name), args: parsedArguments(String(fn.arguments)) };
          });
          const text = typeof message.content === 'string' && message.content ? [{ type: 'text' as const, text: message.content }] : [];
          return [{ role: 'assistant', content: [...text, ...calls] }];
        });
    },
    keysOf(message: AssistantMessage) {
      return message.content.flatMap((part) => (part.type === 'tool-call' ? [part.id] : part.type === 'text' ? [part.text.trim()] : []));
    },
  };
}
