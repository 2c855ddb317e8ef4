/**
 * Maps a Responses API event stream to neutral stream events and the finished
 * assistant message.
 *
 * Output items are taken whole from `response.output_item.done` (not `.added`):
 * only the finished reasoning item carries its `encrypted_content`. Deltas are
 * forwarded as they come for display.
 *
 * @see https://platform.openai.com/docs/api-reference/responses-streaming
 */
import type {
  AssistantMessage,
  AssistantPart,
  InputTransformation,
  ModelRef,
  ModelStreamEvent,
  ReasoningPart,
  StopReason,
  Usage,
} from '@episodic/core';
import { ModelError } from '@episodic/core';
import type { ResponseOutputItem, ResponseStreamEvent, ResponseUsage } from 'openai/resources/responses/responses';
import { classifyModelError } from '../shared/error-classification.js';
import { recordReasoningTokens } from '../shared/reasoning-tokens.js';
import { rawArgumentsField } from '../shared/tool-arguments.js';
import { mapOpenAIResponsesStopReason } from './map-openai-responses-stop-reason.js';
import { inputTransformationWarnings, responsesInputTransformations } from './openai-responses-input-transformations.js';

/** What joins the summary (or content) parts of one reasoning item in its part's text. */
const partSeparator = '\n\n';

/**
 * The separator to stream before a delta, so that a reasoning item's deltas add up
 * to the text its part stores (its summary parts joined by a blank line): the
 * first delta of each part after the first one starts with it.
 */
class ReasoningSeparators {
  private readonly current = new Map<string, number>();

  before(itemId: string, index: number): string {
    const previous = this.current.get(itemId);
    this.current.set(itemId, index);
    return previous !== undefined && previous !== index ? partSeparator : '';
  }
}

/** Neutral usage from a Responses `usage` object. */
export function mapOpenAIResponsesUsage(usage: ResponseUsage | null | undefined): Usage {
  if (!usage) return { inputTokens: 0, outputTokens: 0 };
  return {
    inputTokens: usage.input_tokens,
    cachedInputTokens: usage.input_tokens_details?.cached_tokens ?? 0,
    ...(usage.input_tokens_details?.cache_write_tokens
      ? { cacheWriteTokens: usage.input_tokens_details.cache_write_tokens }
      : {}),
    outputTokens: usage.output_tokens,
    reasoningTokens: usage.output_tokens_details?.reasoning_tokens ?? 0,
  };
}

/** Converts one finished output item to neutral parts (none for item types we do not use). */
function partsOfItem(item: ResponseOutputItem, model: ModelRef): AssistantPart[] {
  const tag = { provider: model.provider, model: model.id };
  if (item.type === 'reasoning') {
    const summary = item.summary.map((entry) => entry.text).join(partSeparator);
    const content = (item.content ?? []).map((entry) => entry.text).join(partSeparator);
    const part: ReasoningPart = {
      type: 'reasoning',
      text: content || summary,
      providerData: {
        ...tag,
        id: item.id,
        ...(item.encrypted_content ? { encrypted_content: item.encrypted_content } : {}),
        summary: item.summary,
        // Servers that return the reasoning itself (DeepSeek's Responses endpoint) want it back as it came.
        ...(item.content && item.content.length > 0 ? { content: item.content } : {}),
      },
    };
    return [part];
  }
  if (item.type === 'message') {
    const text = item.content.map((entry) => (entry.type === 'output_text' ? entry.text : entry.refusal)).join('');
    // `phase` (commentary / final_answer) must go back on every assistant message (gpt-5.3-codex and later).
    const phase = item.phase ? { phase: item.phase } : {};
    return [{ type: 'text', text, providerData: { ...tag, id: item.id, ...phase } }];
  }
  if ((item.type as string) === 'compaction') {
    // Opaque: it goes back verbatim, as it came, and only to this model.
    return [{ type: 'compaction', providerData: { ...tag, item: { ...item } } }];
  }
  if (item.type === 'function_call') {
    const args = parseArguments(item.arguments, item.name);
    const raw = rawArgumentsField(item.arguments, args);
    return [
      {
        type: 'tool-call',
        id: item.call_id,
        name: item.name,
        args,
        providerData: { ...tag, ...(item.id ? { id: item.id } : {}), ...raw },
      },
    ];
  }
  return [opaqueItemPart(item as unknown as Record<string, unknown>, tag)];
}

/**
 * An output item this adapter does not read itself (a hosted tool's call such as
 * `web_search_call`, `mcp_call`, `mcp_list_tools`, `code_interpreter_call`, or a type
 * added later): kept whole as a provider-tool part, so it goes back verbatim and in
 * place to this model and is left out, with a warning, for any other.
 */
function opaqueItemPart(item: Record<string, unknown>, tag: { provider: string; model: string }): AssistantPart {
  const type = String(item.type);
  const name = typeof item.name === 'string' ? item.name : type;
  const id = typeof item.id === 'string' ? item.id : undefined;
  return { type: 'provider-tool', name, kind: 'call', ...(id === undefined ? {} : { id }), providerData: { ...tag, item: { ...item } } };
}

function parseArguments(text: string, name: string): unknown {
  if (text.trim() === '') return {};
  try {
    return JSON.parse(text);
  } catch (cause) {
    throw new ModelError('protocol', `openai sent arguments for tool ${name} that are not valid JSON: ${text}`, {
      retryable: true,
      cause,
    });
  }
}

/** What the stream mapper knows of the request it answers. */
export interface ResponsesStreamRequest {
  /** The request's `input`, to say where a withheld reasoning item was. */
  input?: unknown;
  /** The request ran with earlier turns' reasoning hidden (see `inputTransformationWarnings`). */
  hidesPastReasoning?: boolean;
}

/**
 * Consumes the SDK's event stream and yields neutral events; the last one is
 * `finish`. Throws a {@link ModelError} for `error` and `response.failed` events.
 */
export async function* mapOpenAIResponsesStream(
  events: AsyncIterable<ResponseStreamEvent>,
  model: ModelRef,
  request: ResponsesStreamRequest = {},
): AsyncGenerator<ModelStreamEvent> {
  const partsByIndex = new Map<number, AssistantPart[]>();
  const callIdByItemId = new Map<string, string>();
  const separators = new ReasoningSeparators();
  for await (const event of events) {
    switch (event.type) {
      case 'response.output_item.added':
        if (event.item.type === 'function_call') {
          callIdByItemId.set(event.item.id ?? event.item.call_id, event.item.call_id);
          yield { type: 'tool-call-start', id: event.item.call_id, name: event.item.name };
        }
        break;
      case 'response.reasoning_summary_text.delta':
        yield { type: 'reasoning-delta', text: separators.before(event.item_id, event.summary_index) + event.delta };
        break;
      case 'response.reasoning_text.delta':
        yield { type: 'reasoning-delta', text: separators.before(event.item_id, event.content_index) + event.delta };
        break;
      case 'response.output_text.delta':
        yield { type: 'text-delta', text: event.delta };
        break;
      case 'response.function_call_arguments.delta':
        yield {
          type: 'tool-call-delta',
          id: callIdByItemId.get(event.item_id) ?? event.item_id,
          argsDelta: event.delta,
        };
        break;
      case 'response.output_item.done':
        partsByIndex.set(event.output_index, partsOfItem(event.item, model));
        break;
      case 'response.completed':
      case 'response.incomplete': {
        // Final here; openai 6 does not type the field, so it is read from the untyped response.
        const withheld = responsesInputTransformations(event.response, request.input);
        if (withheld) yield* inputTransformationWarnings(withheld, request.hidesPastReasoning ?? false);
        yield finishEvent(event.response, partsByIndex, model, withheld);
        return;
      }
      case 'response.failed': {
        const detail = event.response.error;
        throw streamFailure(detail?.code, detail?.message ?? 'the response failed with no reason given', 400);
      }
      case 'error':
        throw streamFailure(event.code, event.message, 500);
      default:
        break;
    }
  }
  throw new ModelError('protocol', 'openai stream ended before response.completed', { retryable: true });
}

/**
 * HTTP statuses that in-stream error codes stand for, so they go through the
 * shared classification (a context overflow mid-stream must trigger a repack, not
 * a retry). Codes: https://platform.openai.com/docs/api-reference/responses-streaming/error
 */
const statusOfStreamErrorCode: Readonly<Record<string, number>> = {
  server_error: 500,
  rate_limit_exceeded: 429,
  context_length_exceeded: 400,
};

/** A typed error for an `error` event or a failed response; `fallbackStatus` applies to unknown codes. */
function streamFailure(code: string | null | undefined, message: string, fallbackStatus: number): ModelError {
  return classifyModelError({
    provider: 'openai',
    status: (code ? statusOfStreamErrorCode[code] : undefined) ?? fallbackStatus,
    message: code ? `${code}: ${message}` : message,
  });
}

function finishEvent(
  response: { status?: string; incomplete_details?: { reason?: string } | null; usage?: ResponseUsage | null },
  partsByIndex: Map<number, AssistantPart[]>,
  model: ModelRef,
  withheld: InputTransformation[] | undefined,
): ModelStreamEvent {
  const content = [...partsByIndex.entries()].sort(([left], [right]) => left - right).flatMap(([, parts]) => parts);
  const usage: Usage = { ...mapOpenAIResponsesUsage(response.usage), ...(withheld ? { inputTransformations: withheld } : {}) };
  recordReasoningTokens(content, response.usage?.output_tokens_details?.reasoning_tokens);
  const hasToolCalls = content.some((part) => part.type === 'tool-call');
  const stopReason: StopReason = mapOpenAIResponsesStopReason(
    response.status,
    response.incomplete_details?.reason,
    hasToolCalls,
  );
  const message: AssistantMessage = { role: 'assistant', content, model: { ...model }, usage };
  return { type: 'finish', message, usage, stopReason };
}
