/**
 * Converts packed neutral messages to Chat Completions messages, for OpenAI and for
 * every OpenAI-compatible server. How reasoning goes back is decided by a few
 * capability flags resolved once per model profile, never by model-name checks here.
 * Other models' reasoning is already gone: the adapter strips it first, with core's
 * one rule.
 *
 * @see https://platform.openai.com/docs/api-reference/chat/create#chat-create-messages
 */
import type {
  AssistantMessage,
  Message,
  ModelRef,
  ProviderData,
  ReasoningField,
  ReasoningPart,
  UserMessage,
} from '@episodic/core';
import type {
  ChatCompletionContentPart,
  ChatCompletionMessageParam,
  ChatCompletionMessageToolCall,
} from 'openai/resources/chat/completions';
import { argumentsText } from '../shared/tool-arguments.js';
import { messageFieldsFor } from './chat-message-fields.js';
import { toolOutputText } from '../shared/tool-output-text.js';

/** How reasoning is sent back on a Chat Completions wire. */
export interface ChatReasoningWire {
  /** A message field (`reasoning_content`, `reasoning`, `thinking`), `reasoning_details`, `think-tags`, or `none`. */
  sendAs: ReasoningField;
  /**
   * The server demands the reasoning field on every assistant message with tool calls
   * (DeepSeek thinking, Kimi): a message whose reasoning was dropped (or came from
   * another model) gets the field with an empty string.
   */
  requiredOnToolCalls?: boolean;
  /** Drop reasoning of assistant messages before the latest final answer (Harmony: analysis ends at `final`). */
  untilFinal?: boolean;
  /**
   * Once an assistant message carries the reasoning field, every later one must
   * carry it too (OpenCode Zen): those without reasoning get an empty string.
   */
  onLaterAssistants?: boolean;
}

/** A Chat Completions message plus the non-standard reasoning fields compatible servers take. */
export type CompatibleChatMessage = ChatCompletionMessageParam & Record<string, unknown>;

/**
 * Converts `system` and the packed messages. `model` is the one called: the fields it
 * sent that the adapter does not read go back on their message (see chat-message-fields.ts).
 */
export function convertToOpenAIChatMessages(
  system: string | undefined,
  messages: readonly Message[],
  wire: ChatReasoningWire,
  model?: ModelRef,
): CompatibleChatMessage[] {
  const result: CompatibleChatMessage[] = system ? [{ role: 'system', content: system }] : [];
  const lastFinal = wire.untilFinal ? lastFinalAnswerIndex(messages) : -1;
  let carried = false;
  messages.forEach((message, index) => {
    if (message.role === 'system' || message.role === 'developer') result.push({ role: message.role, content: message.content });
    else if (message.role === 'user') result.push(convertUserMessage(message));
    else if (message.role === 'tool') {
      result.push({ role: 'tool', tool_call_id: message.toolCallId, content: toolOutputText(message) });
    } else if (message.role === 'assistant') {
      // Summary lines never reach an adapter from the packer (it sends summaries as user messages).
      const reasoning = message.content.filter((part): part is ReasoningPart => part.type === 'reasoning');
      const keep = wire.sendAs !== 'none' && index >= lastFinal ? reasoning : [];
      const converted = convertAssistantMessage(message, keep, wire, messageFieldsFor(message, model));
      if (wire.onLaterAssistants && isMessageField(wire.sendAs)) {
        if (carried && !(wire.sendAs in converted)) converted[wire.sendAs] = '';
        carried ||= wire.sendAs in converted;
      }
      result.push(converted);
    }
  });
  return result;
}

/** Whether reasoning travels as a plain message field (not inside content, not as details). */
function isMessageField(field: ReasoningField): field is 'reasoning_content' | 'reasoning' | 'thinking' {
  return field === 'reasoning_content' || field === 'reasoning' || field === 'thinking';
}

/** Index just after the last final answer (assistant message without tool calls); -1 when there is none. */
function lastFinalAnswerIndex(messages: readonly Message[]): number {
  for (let index = messages.length - 1; index >= 0; index -= 1) {
    const message = messages[index];
    if (message?.role === 'assistant' && !message.content.some((part) => part.type === 'tool-call')) return index + 1;
  }
  return -1;
}

function convertUserMessage(message: UserMessage): CompatibleChatMessage {
  if (typeof message.content === 'string') return { role: 'user', content: message.content };
  const content: ChatCompletionContentPart[] = message.content.map((part) =>
    part.type === 'text'
      ? { type: 'text' as const, text: part.text }
      : {
          type: 'image_url' as const,
          image_url: { url: part.url ?? `data:${part.mediaType ?? 'image/png'};base64,${part.data ?? ''}` },
        },
  );
  return { role: 'user', content };
}

function convertAssistantMessage(
  message: AssistantMessage,
  reasoning: readonly ReasoningPart[],
  wire: ChatReasoningWire,
  unread: Record<string, unknown>,
): CompatibleChatMessage {
  const text = message.content.map((part) => (part.type === 'text' ? part.text : '')).join('');
  const toolCalls: ChatCompletionMessageToolCall[] = message.content.flatMap((part) =>
    part.type === 'tool-call'
      ? [
          {
            id: part.id,
            type: 'function' as const,
            function: { name: part.name, arguments: argumentsText(part) },
          },
        ]
      : [],
  );
  const reasoningText = reasoning.map((part) => part.text).join('\n\n');
  // The host's own unread fields go back on this message; the fields set below are the adapter's.
  const wireMessage: CompatibleChatMessage = { ...unread, role: 'assistant', content: text === '' ? null : text };
  if (toolCalls.length > 0) wireMessage.tool_calls = toolCalls;
  if (wire.sendAs === 'think-tags') {
    // MiniMax wants the whole content back, reasoning tags included.
    if (reasoningText) wireMessage.content = `<think>${reasoningText}</think>${text}`;
  } else if (wire.sendAs === 'reasoning_details') {
    const details = reasoning.flatMap((part) => detailsOf(part.providerData));
    if (details.length > 0) wireMessage.reasoning_details = details;
  } else if (wire.sendAs !== 'none') {
    if (reasoningText || (wire.requiredOnToolCalls && toolCalls.length > 0)) wireMessage[fieldFor(reasoning, wire.sendAs)] = reasoningText;
  }
  return wireMessage;
}

/**
 * The message field reasoning goes back in: the one the host answered in when that was
 * another message field than the profile's (recorded on the part by the stream reader:
 * GLM-5.2 on Crusoe answered in `reasoning` and took it back there), else the profile's.
 */
function fieldFor(reasoning: readonly ReasoningPart[], sendAs: ReasoningField): string {
  const answered = reasoning.map((part) => part.providerData?.field).find((field) => typeof field === 'string');
  return isMessageField(sendAs) && typeof answered === 'string' && isMessageField(answered as ReasoningField) ? answered : sendAs;
}

/** OpenRouter's `reasoning_details` entries kept verbatim on the part. */
function detailsOf(data: ProviderData | undefined): unknown[] {
  return Array.isArray(data?.reasoning_details) ? data.reasoning_details : [];
}
