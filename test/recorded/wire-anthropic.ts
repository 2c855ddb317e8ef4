/**
 * The Anthropic Messages API as the recorded suite reads it
 * (https://docs.claude.com/en/api/messages, streaming events:
 * https://docs.claude.com/en/docs/build-with-claude/streaming).
 */
import type { AssistantMessage, AssistantPart, Message, StopReason } from '@episodic/core';
import type { RecordedResponse } from './recordings.js';
import { lastUserMessage, type RecordedAnswer, sseData, textOf, type WireFormat, type WireTurn } from './recorded-wire.js';

type Json = Record<string, unknown>;
type Block = Json & { type: string };

/** A streamed message rebuilt from its events: blocks from their start and deltas, usage merged. */
function messageOf(response: RecordedResponse): Json {
  if (response.kind === 'json') return response.body as Json;
  let message: Json = {};
  const blocks: Block[] = [];
  const json: string[] = [];
  for (const event of sseData(response.text)) {
    if (event.type === 'message_start') message = { ...(event.message as Json) };
    if (event.type === 'content_block_start') blocks[event.index as number] = { ...(event.content_block as Block) };
    if (event.type === 'content_block_delta') {
      const block = blocks[event.index as number] as Block;
      const delta = event.delta as Json;
      if (delta.type === 'text_delta') block.text = `${String(block.text ?? '')}${String(delta.text)}`;
      if (delta.type === 'thinking_delta') block.thinking = `${String(block.thinking ?? '')}${String(delta.thinking)}`;
      if (delta.type === 'signature_delta') block.signature = `${String(block.signature ?? '')}${String(delta.signature)}`;
      if (delta.type === 'compaction_delta') block.content = `${String(block.content ?? '')}${String(delta.content)}`;
      if (delta.type === 'input_json_delta')
        json[event.index as number] = `${json[event.index as number] ?? ''}${String(delta.partial_json)}`;
    }
    if (event.type === 'message_delta') {
      message.stop_reason = (event.delta as Json).stop_reason;
      message.usage = { ...(message.usage as Json), ...(event.usage as Json) };
    }
  }
  json.forEach((text, index) => {
    if (blocks[index]) (blocks[index] as Block).input = text === '' ? {} : JSON.parse(text);
  });
  return { ...message, content: blocks.filter(Boolean) };
}

/** The block types the adapter reads itself; every other one it keeps whole. */
const readTypes = new Set(['text', 'thinking', 'redacted_thinking', 'tool_use']);
const unread = (blocks: readonly Block[]) => blocks.filter((block) => !readTypes.has(block.type)).map(withoutNulls);

const stopReasons: Record<string, StopReason> = {
  end_turn: 'stop',
  stop_sequence: 'stop',
  tool_use: 'tool-calls',
  max_tokens: 'max-tokens',
  refusal: 'content-filter',
};

function answer(response: RecordedResponse): RecordedAnswer {
  const message = messageOf(response);
  const blocks = (message.content ?? []) as Block[];
  const usage = (message.usage ?? {}) as Record<string, number | undefined | Json>;
  const number = (key: string) => (typeof usage[key] === 'number' ? (usage[key] as number) : 0);
  const thinking = (usage.output_tokens_details as Json | undefined)?.thinking_tokens;
  const calls = blocks.filter((block) => block.type === 'tool_use');
  return {
    reasoning: blocks.flatMap((block): Record<string, unknown>[] => {
      if (block.type === 'thinking') return [{ type: 'reasoning', text: String(block.thinking), signature: String(block.signature) }];
      if (block.type === 'redacted_thinking')
        return [{ type: 'reasoning', text: '', redacted: true, providerData: { data: block.data } }];
      return [];
    }),
    text: blocks.map((block) => (block.type === 'text' ? String(block.text) : '')).join(''),
    calls: calls.map((block) => ({ id: String(block.id), name: String(block.name), args: block.input, raw: JSON.stringify(block.input) })),
    usage: {
      inputTokens: number('input_tokens') + number('cache_read_input_tokens') + number('cache_creation_input_tokens'),
      cachedInputTokens: number('cache_read_input_tokens'),
      cacheWriteTokens: number('cache_creation_input_tokens'),
      outputTokens: number('output_tokens'),
      ...(typeof thinking === 'number' ? { reasoningTokens: thinking } : {}),
    },
    stopReason: stopReasons[String(message.stop_reason)] ?? 'other',
    opaque: unread(blocks),
    opaqueIn: (turn) => unread(turn as Block[]),
  };
}

const messagesOf = (body: unknown) => ((body as Json).messages ?? []) as { role: string; content: unknown }[];
const blocksOf = (content: unknown): Block[] =>
  typeof content === 'string' ? [{ type: 'text', text: content }] : (content as Block[]);

/** A value without its null-valued keys: the Python SDK sends unset optional fields as `null`, which the API reads as absent. */
function withoutNulls(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(withoutNulls);
  if (value === null || typeof value !== 'object') return value;
  return Object.fromEntries(Object.entries(value).flatMap(([key, inner]) => (inner === null ? [] : [[key, withoutNulls(inner)]])));
}

/**
 * A turn as compared: blocks without `cache_control` or null fields, and without
 * whitespace-only text blocks (the API refuses them in input, so the adapter leaves them out).
 */
function normalise(content: unknown): Block[] {
  return blocksOf(content)
    .filter((block) => !(block.type === 'text' && String(block.text).trim() === ''))
    .map(({ cache_control: _control, citations: _citations, ...block }) => withoutNulls(block) as Block);
}

function keysOfBlocks(blocks: readonly Block[]): string[] {
  return blocks.flatMap((block) => {
    if (block.type === 'tool_use') return [String(block.id)];
    if (block.type === 'thinking') return [String(block.signature)];
    if (block.type === 'redacted_thinking') return [String(block.data)];
    if (block.type === 'text') return [String(block.text)];
    return [];
  });
}

export const anthropicWire: WireFormat = {
  answer,
  start: (body) => lastUserMessage(messagesOf(body)),
  turns(body) {
    return messagesOf(body).flatMap((message, index): WireTurn[] => {
      if (message.role !== 'assistant') return [];
      const turn = normalise(message.content);
      return [{ keys: keysOfBlocks(turn), turn, end: index }];
    });
  },
  after(body, end) {
    const names = new Map<string, string>();
    for (const message of messagesOf(body))
      for (const block of blocksOf(message.content)) if (block.type === 'tool_use') names.set(String(block.id), String(block.name));
    const out: Message[] = [];
    for (const message of messagesOf(body).slice(end + 1)) {
      const blocks = blocksOf(message.content);
      if (message.role === 'assistant') {
        out.push({
          role: 'assistant',
          content: blocks.flatMap((block): AssistantPart[] =>
            block.type === 'text'
              ? [{ type: 'text' as const, text: String(block.text) }]
              : block.type === 'tool_use'
                ? [{ type: 'tool-call' as const, id: String(block.id), name: String(block.name), args: block.input }]
                : [],
          ),
        });
        continue;
      }
      for (const block of blocks) {
        if (block.type === 'tool_result') {
          const id = String(block.tool_use_id);
          out.push({ role: 'tool', toolCallId: id, toolName: names.get(id) ?? 'tool', content: textOf(block.content), isError: block.is_error === true });
        } else if (block.type === 'text') out.push({ role: 'user', content: String(block.text) });
      }
    }
    return out;
  },
  keysOf(message: AssistantMessage) {
    return message.content.flatMap((part) => {
      if (part.type === 'tool-call') return [part.id];
      if (part.type === 'reasoning') return [part.redacted ? String(part.providerData?.data) : String(part.signature)];
      if (part.type === 'text') return [part.text];
      return [];
    });
  },
};
