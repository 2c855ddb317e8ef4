/**
 * The OpenAI Responses API as the recorded suite reads it
 * (https://platform.openai.com/docs/api-reference/responses, streaming:
 * https://platform.openai.com/docs/api-reference/responses-streaming).
 */
import type { AssistantMessage, Message } from '@episodic/core';
import type { RecordedResponse } from './recordings.js';
import { lastUserMessage, parsedArguments, type RecordedAnswer, sseData, textOf, type WireFormat, type WireTurn } from './recorded-wire.js';

type Json = Record<string, unknown>;

/** A streamed response rebuilt: items from `output_item.done` in output order, the rest from its last event. */
function responseOf(response: RecordedResponse): Json {
  if (response.kind === 'json') return response.body as Json;
  const items: Json[] = [];
  let last: Json = {};
  for (const event of sseData(response.text)) {
    if (event.type === 'response.output_item.done') items[event.output_index as number] = event.item as Json;
    if (/^response\.(completed|incomplete|failed)$/.test(String(event.type))) last = event.response as Json;
  }
  return { ...last, output: items.filter(Boolean) };
}

function answer(response: RecordedResponse): RecordedAnswer {
  const body = responseOf(response);
  const output = (body.output ?? []) as Json[];
  const usage = (body.usage ?? {}) as Json;
  const details = (key: string) => (usage[key] ?? {}) as Json;
  const calls = output.filter((item) => item.type === 'function_call');
  const messages = output.filter((item) => item.type === 'message');
  const incomplete = (body.incomplete_details as Json | null)?.reason;
  return {
    reasoning: output
      .filter((item) => item.type === 'reasoning')
      .map((item) => {
        const summary = ((item.summary ?? []) as Json[]).map((part) => String(part.text)).join('\n\n');
        const content = ((item.content ?? []) as Json[]).map((part) => String(part.text)).join('\n\n');
        const encrypted = item.encrypted_content ? { encrypted_content: item.encrypted_content } : {};
        return { type: 'reasoning', text: content || summary, providerData: { id: item.id, ...encrypted, summary: item.summary } };
      }),
    text: messages.map((item) => textOf(((item.content ?? []) as Json[]).map((part) => ({ text: part.text ?? part.refusal })))).join(''),
    calls: calls.map((item) => {
      const raw = String(item.arguments);
      return { id: String(item.call_id), name: String(item.name), args: parsedArguments(raw), raw };
    }),
    usage: {
      inputTokens: Number(usage.input_tokens ?? 0),
      cachedInputTokens: Number(details('input_tokens_details').cached_tokens ?? 0),
      outputTokens: Number(usage.output_tokens ?? 0),
      reasoningTokens: Number(details('output_tokens_details').reasoning_tokens ?? 0),
    },
    stopReason:
      body.status === 'incomplete'
        ? incomplete === 'content_filter' ? 'content-filter' : 'max-tokens'
        : calls.length > 0 ? 'tool-calls' : 'stop',
    phases: messages.map((item) => (typeof item.phase === 'string' ? item.phase : undefined)),
    opaque: unread(output),
    opaqueIn: (turn) => unread(turn as Json[]),
  };
}

const inputOf = (body: unknown): Json[] => {
  const input = (body as Json).input;
  return typeof input === 'string' ? [{ role: 'user', content: input }] : ((input ?? []) as Json[]);
};
/** What a client sends of its own: user-side messages, tool outputs, approvals, references. */
const inputTypes = new Set([
  'function_call_output',
  'custom_tool_call_output',
  'computer_call_output',
  'local_shell_call_output',
  'shell_call_output',
  'apply_patch_call_output',
  'mcp_approval_response',
  'item_reference',
]);
const isInputItem = (item: Json) => (item.role !== undefined && item.role !== 'assistant') || inputTypes.has(String(item.type));
/** Everything else is the model's output sent back: messages, reasoning, calls, and items of other types (server tools, compaction). */
const isAssistantItem = (item: Json) => !isInputItem(item);

/** The item types the adapter reads itself; every other one it keeps whole. */
const readTypes = new Set(['message', 'reasoning', 'function_call']);
const unread = (items: readonly Json[]) => items.filter((item) => item.type !== undefined && !readTypes.has(String(item.type)));

/**
 * An item as compared. A message sent without its id goes as `{role, content}` or as
 * a message item: both are read as role, text and phase.
 */
function normalise(item: Json): Json {
  if (item.type === 'reasoning')
    return {
      type: 'reasoning',
      id: item.id,
      encrypted_content: item.encrypted_content ?? undefined,
      summary: item.summary,
      content: item.content ?? undefined,
    };
  if (item.type === 'function_call')
    return { type: 'function_call', id: item.id, call_id: item.call_id, name: item.name, arguments: item.arguments };
  if (item.type !== undefined && item.type !== 'message') return item;
  return { type: 'message', id: item.id, text: textOf(item.content), phase: item.phase };
}

export const responsesWire: WireFormat = {
  answer,
  start: (body) => lastUserMessage(inputOf(body)),
  turns(body) {
    const input = inputOf(body);
    const turns: WireTurn[] = [];
    let open: { items: Json[]; end: number } | undefined;
    input.forEach((item, index) => {
      if (!isAssistantItem(item)) {
        if (open) turns.push(turnOf(open.items, open.end));
        open = undefined;
        return;
      }
      open ??= { items: [], end: index };
      // An empty assistant message without an id is not the model's output (a client's artifact).
      if (item.role === 'assistant' && item.id === undefined && textOf(item.content) === '') return;
      open.items.push(normalise(item));
      open.end = index;
    });
    if (open) turns.push(turnOf(open.items, open.end));
    return turns;
  },
  after(body, end) {
    const names = new Map(inputOf(body).flatMap((item) => (item.type === 'function_call' ? [[String(item.call_id), String(item.name)]] : [])));
    const out: Message[] = [];
    for (const item of inputOf(body).slice(end + 1)) {
      if (item.type === 'function_call_output') {
        const id = String(item.call_id);
        out.push({ role: 'tool', toolCallId: id, toolName: names.get(id) ?? 'tool', content: textOf(item.output) });
      } else if (item.role === 'user') out.push({ role: 'user', content: textOf(item.content) });
      else if (item.type === 'function_call')
        out.push({ role: 'assistant', content: [{ type: 'tool-call', id: String(item.call_id), name: String(item.name), args: parsedArguments(String(item.arguments)) }] });
      else if (item.role === 'assistant') out.push({ role: 'assistant', content: [{ type: 'text', text: textOf(item.content) }] });
    }
    return out;
  },
  keysOf(message: AssistantMessage) {
    return message.content.flatMap((part) => {
      const id = part.providerData?.id ?? (part.providerData?.item as Json | undefined)?.id;
      if (part.type === 'tool-call') return [part.id];
      // A message goes back with its id, or (as some clients send it) as role and text.
      return [...(typeof id === 'string' ? [id] : []), ...(part.type === 'text' ? [part.text] : [])];
    });
  },
};

function turnOf(items: Json[], end: number): WireTurn {
  const keys = items.flatMap((item) => [item.call_id, item.id, item.type === 'message' ? item.text : undefined]).filter(
    (key): key is string => typeof key === 'string',
  );
  return { keys, turn: items, end };
}
