/**
 * Converts packed neutral messages to Responses API input items.
 *
 * Reasoning travels as `reasoning` items carrying `id` + `encrypted_content` (we run
 * with `store: false`, so the transcript is the single source of truth). An
 * assistant message whose reasoning is sent keeps its `fc_` / `msg_` item ids; one
 * whose reasoning was dropped (past episode, or another model's) sends its function
 * calls and text WITHOUT ids, because an id ties the item to a reasoning item the
 * API would then ask for ("... was provided without its required 'reasoning' item").
 *
 * @see https://platform.openai.com/docs/guides/reasoning#keeping-reasoning-items-in-context
 * @see https://platform.openai.com/docs/api-reference/responses/create#responses-create-input
 */
import type { AssistantMessage, Message, ModelRef, ReasoningPart, UserMessage } from '@episodic/core';
import type {
  ResponseInputItem,
  ResponseInputMessageContentList,
  ResponseReasoningItem,
} from 'openai/resources/responses/responses';
import { isOwnProviderData } from '../shared/provider-data.js';
import { toolOutputText } from '../shared/tool-output-text.js';

/** What {@link convertToOpenAIResponsesMessages} returns. */
export interface ResponsesInput {
  input: ResponseInputItem[];
  /** Reasoning parts not sent because another model (or nobody) produced their opaque data. */
  droppedForeignReasoning: number;
}

/**
 * Converts messages (no system lines: the system prompt goes to `instructions`) to
 * input items for `target`.
 */
export function convertToOpenAIResponsesMessages(messages: readonly Message[], target: ModelRef): ResponsesInput {
  const input: ResponseInputItem[] = [];
  let droppedForeignReasoning = 0;
  for (const message of messages) {
    if (message.role === 'system' || message.role === 'developer') continue;
    if (message.role === 'user') input.push(convertUserMessage(message));
    else if (message.role === 'tool') {
      input.push({ type: 'function_call_output', call_id: message.toolCallId, output: toolOutputText(message) });
    } else {
      const converted = convertAssistantMessage(message, target);
      droppedForeignReasoning += converted.droppedForeignReasoning;
      input.push(...converted.items);
    }
  }
  return { input, droppedForeignReasoning };
}

function convertUserMessage(message: UserMessage): ResponseInputItem {
  if (typeof message.content === 'string') return { role: 'user', content: message.content };
  const content: ResponseInputMessageContentList = message.content.map((part) =>
    part.type === 'text'
      ? { type: 'input_text' as const, text: part.text }
      : {
          type: 'input_image' as const,
          detail: 'auto' as const,
          image_url: part.url ?? `data:${part.mediaType ?? 'image/png'};base64,${part.data ?? ''}`,
        },
  );
  return { role: 'user', content };
}

/** The reasoning item stored on a part, when it is this model's and complete. */
function reasoningItemOf(part: ReasoningPart, target: ModelRef): ResponseReasoningItem | undefined {
  const data = part.providerData;
  if (!isOwnProviderData(data, target)) return undefined;
  const id = data?.id;
  const encrypted = data?.encrypted_content;
  if (typeof id !== 'string' || typeof encrypted !== 'string') return undefined;
  const summary = Array.isArray(data?.summary)
    ? (data.summary as ResponseReasoningItem.Summary[])
    : part.text
      ? [{ type: 'summary_text' as const, text: part.text }]
      : [];
  return { type: 'reasoning', id, encrypted_content: encrypted, summary };
}

function convertAssistantMessage(
  message: AssistantMessage,
  target: ModelRef,
): { items: ResponseInputItem[]; droppedForeignReasoning: number } {
  const reasoningItems = new Map<ReasoningPart, ResponseReasoningItem>();
  let droppedForeignReasoning = 0;
  for (const part of message.content) {
    if (part.type !== 'reasoning') continue;
    const item = reasoningItemOf(part, target);
    if (item) reasoningItems.set(part, item);
    else droppedForeignReasoning += 1;
  }
  // Item ids are kept only when the reasoning they are bound to goes along.
  const keepIds = reasoningItems.size > 0;
  const items: ResponseInputItem[] = [];
  for (const part of message.content) {
    if (part.type === 'reasoning') {
      const item = reasoningItems.get(part);
      if (item) items.push(item);
    } else if (part.type === 'text') {
      const id = keepIds && isOwnProviderData(part.providerData, target) ? part.providerData?.id : undefined;
      items.push(
        typeof id === 'string'
          ? {
              type: 'message',
              role: 'assistant',
              id,
              status: 'completed',
              content: [{ type: 'output_text', text: part.text, annotations: [] }],
            }
          : { role: 'assistant', content: part.text },
      );
    } else if (part.type === 'tool-call') {
      const id = keepIds && isOwnProviderData(part.providerData, target) ? part.providerData?.id : undefined;
      items.push({
        type: 'function_call',
        call_id: part.id,
        name: part.name,
        arguments: JSON.stringify(part.args ?? {}),
        ...(typeof id === 'string' ? { id } : {}),
      });
    }
  }
  return { items: withoutTrailingReasoning(items), droppedForeignReasoning };
}

/**
 * A reasoning item must be followed by the item it produced; one left at the end
 * (its text or call was removed) would be rejected, so it goes too.
 */
function withoutTrailingReasoning(items: ResponseInputItem[]): ResponseInputItem[] {
  let end = items.length;
  while (end > 0 && items[end - 1]?.type === 'reasoning') end -= 1;
  return end === items.length ? items : items.slice(0, end);
}
