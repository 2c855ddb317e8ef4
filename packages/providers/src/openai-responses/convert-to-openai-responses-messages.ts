/**
 * Converts packed neutral messages to Responses API input items.
 *
 * Reasoning travels as `reasoning` items carrying `id` + `encrypted_content` (we run
 * with `store: false`, so the transcript is the single source of truth), or `id` +
 * the reasoning `content` on servers that return it in the clear (DeepSeek). An
 * assistant message whose reasoning is sent keeps its `fc_` / `msg_` item ids; one
 * whose reasoning was dropped (past episode, another model's, or incomplete) sends
 * its function calls and text WITHOUT ids, because an id ties the item to a
 * reasoning item the API would then ask for ("... was provided without its required
 * 'reasoning' item"). Other models' reasoning and ids are already gone when this
 * runs: the adapter strips them first, with core's one rule.
 *
 * @see https://platform.openai.com/docs/guides/reasoning#keeping-reasoning-items-in-context
 * @see https://platform.openai.com/docs/api-reference/responses/create#responses-create-input
 */
import { type AssistantMessage, isInstruction, type Message, type ReasoningPart, type UserMessage } from '@episodic/core';
import type {
  ResponseInputItem,
  ResponseInputMessageContentList,
  ResponseReasoningItem,
} from 'openai/resources/responses/responses';
import { argumentsText } from '../shared/tool-arguments.js';
import { toolOutputText } from '../shared/tool-output-text.js';

/**
 * Converts messages to input items. The system prompt goes to `instructions`; a system
 * or developer line of the transcript goes in place as a message of its role, as the
 * API takes it (so later items keep their place in the cached prefix).
 */
export function convertToOpenAIResponsesMessages(messages: readonly Message[]): ResponseInputItem[] {
  const input: ResponseInputItem[] = [];
  for (const message of messages) {
    if (isInstruction(message)) input.push({ role: message.role, content: message.content });
    else if (message.role === 'user') input.push(convertUserMessage(message));
    else if (message.role === 'tool') {
      input.push({ type: 'function_call_output', call_id: message.toolCallId, output: toolOutputText(message) });
    } else if (message.role === 'assistant') {
      // Summary lines never reach an adapter from the packer (it sends summaries as user messages).
      input.push(...convertAssistantMessage(message));
    }
  }
  return input;
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

/**
 * The reasoning item stored on a part, when it is complete: an id and its encrypted
 * content (OpenAI with `store: false`), or an id and the reasoning text itself
 * (servers that return it, as DeepSeek's Responses endpoint does).
 */
function reasoningItemOf(part: ReasoningPart): ResponseReasoningItem | undefined {
  const data = part.providerData;
  const id = data?.id;
  const encrypted = data?.encrypted_content;
  const content = Array.isArray(data?.content) && data.content.length > 0 ? (data.content as ResponseReasoningItem.Content[]) : undefined;
  if (typeof id !== 'string' || (typeof encrypted !== 'string' && !content)) return undefined;
  const summary = Array.isArray(data?.summary)
    ? (data.summary as ResponseReasoningItem.Summary[])
    : part.text && !content
      ? [{ type: 'summary_text' as const, text: part.text }]
      : [];
  return {
    type: 'reasoning',
    id,
    summary,
    ...(typeof encrypted === 'string' ? { encrypted_content: encrypted } : {}),
    ...(content ? { content } : {}),
  };
}

function convertAssistantMessage(message: AssistantMessage): ResponseInputItem[] {
  const reasoningItems = new Map<ReasoningPart, ResponseReasoningItem>();
  for (const part of message.content) {
    if (part.type !== 'reasoning') continue;
    const item = reasoningItemOf(part);
    if (item) reasoningItems.set(part, item);
  }
  // Item ids are kept only when the reasoning they are bound to goes along.
  const keepIds = reasoningItems.size > 0;
  const items: ResponseInputItem[] = [];
  for (const part of message.content) {
    if (part.type === 'reasoning') {
      const item = reasoningItems.get(part);
      if (item) items.push(item);
    } else if (part.type === 'text') {
      const id = keepIds ? part.providerData?.id : undefined;
      // The phase goes back on every assistant message, with its id or without.
      const phase = phaseOf(part.providerData?.phase);
      items.push(
        typeof id === 'string'
          ? {
              type: 'message',
              role: 'assistant',
              id,
              status: 'completed',
              content: [{ type: 'output_text', text: part.text, annotations: [] }],
              ...phase,
            }
          : { role: 'assistant', content: part.text, ...phase },
      );
    } else if (part.type === 'compaction') {
      // The compaction item goes back exactly as it came (another model's has lost its data and is left out).
      const item = inputItemOf(part.providerData?.item);
      if (item) items.push(item);
    } else if (part.type === 'tool-call') {
      const id = keepIds ? part.providerData?.id : undefined;
      items.push({
        type: 'function_call',
        call_id: part.id,
        name: part.name,
        arguments: argumentsText(part),
        ...(typeof id === 'string' ? { id } : {}),
      });
    } else if (part.type === 'provider-tool') {
      // An item this adapter kept without reading it goes back as it came (other models' are gone already).
      const item = inputItemOf(part.providerData?.item);
      if (item) items.push(item);
    }
  }
  return withoutTrailingReasoning(items);
}

/**
 * An output item kept verbatim, as an input item: a copy without `created_by` (who
 * created it is an output-only field, and the SDK's own `toResponseInputItem` strips it,
 * also from a `shell_call_output`'s output chunks). Everything else goes as it came.
 */
function inputItemOf(item: unknown): ResponseInputItem | undefined {
  if (typeof item !== 'object' || item === null) return undefined;
  const { created_by: _createdBy, ...rest } = item as Record<string, unknown>;
  if (rest.type === 'shell_call_output' && Array.isArray(rest.output))
    rest.output = rest.output.map((chunk: unknown) => {
      if (typeof chunk !== 'object' || chunk === null) return chunk;
      const { created_by: _chunkCreatedBy, ...kept } = chunk as Record<string, unknown>;
      return kept;
    });
  return rest as unknown as ResponseInputItem;
}

/** The `phase` field of an assistant message, when the part kept a known one. */
function phaseOf(value: unknown): { phase?: 'commentary' | 'final_answer' } {
  return value === 'commentary' || value === 'final_answer' ? { phase: value } : {};
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
