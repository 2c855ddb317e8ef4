/**
 * A recorded JSON response served as the stream the same API sends for a streaming
 * request. The adapters always stream, and many recordings were made without
 * streaming; the response's fields go out unchanged (text, thinking, signatures,
 * encrypted content, arguments, usage), only framed as events: one delta per block,
 * in the order each API documents. Stream recordings are served as recorded.
 */
import type { WireApi } from './recordings.js';

type Json = Record<string, unknown>;

/** The SSE text for a recorded JSON body of `wireApi`. */
export function jsonAsStream(wireApi: WireApi, body: unknown): string {
  const response = body as Json;
  if (wireApi === 'anthropic-messages') return anthropicEvents(response);
  if (wireApi === 'openai-responses') return responsesEvents(response);
  if (wireApi === 'gemini') return `data: ${JSON.stringify(response)}\n\n`;
  return chatChunks(response);
}

const named = (events: Json[]) =>
  events.map((event) => `event: ${String(event.type)}\ndata: ${JSON.stringify(event)}\n\n`).join('');

/** https://docs.claude.com/en/docs/build-with-claude/streaming */
function anthropicEvents(message: Json): string {
  const content = (message.content ?? []) as Json[];
  const events: Json[] = [
    { type: 'message_start', message: { ...message, content: [], stop_reason: null, stop_sequence: null } },
  ];
  content.forEach((block, index) => {
    const delta = (value: Json) => events.push({ type: 'content_block_delta', index, delta: value });
    if (block.type === 'text') {
      events.push({ type: 'content_block_start', index, content_block: { ...block, text: '' } });
      delta({ type: 'text_delta', text: block.text });
    } else if (block.type === 'thinking') {
      events.push({ type: 'content_block_start', index, content_block: { type: 'thinking', thinking: '', signature: '' } });
      if (block.thinking) delta({ type: 'thinking_delta', thinking: block.thinking });
      delta({ type: 'signature_delta', signature: block.signature });
    } else if (block.type === 'tool_use') {
      events.push({ type: 'content_block_start', index, content_block: { ...block, input: {} } });
      delta({ type: 'input_json_delta', partial_json: JSON.stringify(block.input ?? {}) });
    } else {
      // redacted_thinking and server tool blocks arrive whole in their start event.
      events.push({ type: 'content_block_start', index, content_block: block });
    }
    events.push({ type: 'content_block_stop', index });
  });
  events.push(
    {
      type: 'message_delta',
      delta: { stop_reason: message.stop_reason, stop_sequence: message.stop_sequence ?? null },
      usage: message.usage,
    },
    { type: 'message_stop' },
  );
  return named(events);
}

/** https://platform.openai.com/docs/api-reference/responses-streaming */
function responsesEvents(response: Json): string {
  const output = (response.output ?? []) as Json[];
  const events: Json[] = [{ type: 'response.created', response: { ...response, output: [], status: 'in_progress' } }];
  output.forEach((item, outputIndex) => {
    const where = { item_id: item.id, output_index: outputIndex };
    const started =
      item.type === 'reasoning'
        ? { ...item, summary: [] }
        : item.type === 'message'
          ? { ...item, content: [], status: 'in_progress' }
          : item.type === 'function_call'
            ? { ...item, arguments: '', status: 'in_progress' }
            : item;
    events.push({ type: 'response.output_item.added', output_index: outputIndex, item: started });
    if (item.type === 'reasoning') {
      ((item.summary ?? []) as Json[]).forEach((part, summaryIndex) => {
        const at = { ...where, summary_index: summaryIndex };
        events.push({ type: 'response.reasoning_summary_part.added', ...at, part: { ...part, text: '' } });
        events.push({ type: 'response.reasoning_summary_text.delta', ...at, delta: part.text });
        events.push({ type: 'response.reasoning_summary_text.done', ...at, text: part.text });
        events.push({ type: 'response.reasoning_summary_part.done', ...at, part });
      });
      ((item.content ?? []) as Json[]).forEach((part, contentIndex) =>
        events.push({ type: 'response.reasoning_text.delta', ...where, content_index: contentIndex, delta: part.text }),
      );
    } else if (item.type === 'message') {
      ((item.content ?? []) as Json[]).forEach((part, contentIndex) => {
        if (part.type === 'output_text')
          events.push({ type: 'response.output_text.delta', ...where, content_index: contentIndex, delta: part.text });
      });
    } else if (item.type === 'function_call') {
      events.push({ type: 'response.function_call_arguments.delta', ...where, delta: item.arguments });
    }
    events.push({ type: 'response.output_item.done', output_index: outputIndex, item });
  });
  const done = response.status === 'incomplete' ? 'response.incomplete' : 'response.completed';
  events.push({ type: done, response });
  return named(events.map((event, index) => ({ ...event, sequence_number: index })));
}

/** https://platform.openai.com/docs/api-reference/chat-streaming */
function chatChunks(completion: Json): string {
  const choice = ((completion.choices ?? []) as Json[])[0] ?? {};
  const { tool_calls: calls, ...message } = (choice.message ?? {}) as Json;
  const toolCalls = ((calls ?? []) as Json[]).map((call, index) => ({ index, ...call }));
  const delta = { ...message, ...(toolCalls.length > 0 ? { tool_calls: toolCalls } : {}) };
  const base = { id: completion.id, object: 'chat.completion.chunk', created: completion.created, model: completion.model };
  const chunks = [
    { ...base, choices: [{ index: 0, delta, finish_reason: null }] },
    { ...base, choices: [{ index: 0, delta: {}, finish_reason: choice.finish_reason }] },
    { ...base, choices: [], usage: completion.usage },
  ];
  return `${chunks.map((chunk) => `data: ${JSON.stringify(chunk)}\n\n`).join('')}data: [DONE]\n\n`;
}
