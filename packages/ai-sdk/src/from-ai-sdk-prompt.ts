/**
 * AI SDK prompt messages to Episodic messages, for the packer. Lossless: every
 * converted message and part keeps the AI SDK original under `aiSdk`, so the way back
 * (`to-ai-sdk-prompt.ts`) sends the original wherever the packer left a part as it
 * was, with its `providerOptions` (Anthropic signatures and redacted thinking, OpenAI
 * item ids and encrypted reasoning, Gemini thought signatures) untouched. What the
 * Episodic model has no part for (provider-executed tools, files, custom parts) rides
 * as an opaque part counted by its JSON; what cannot ride anywhere is refused.
 */
import type {
  AssistantPart,
  Message,
  ModelRef,
  ProviderData,
  ToolMessage,
  ToolResultPart,
  UserMessage,
  UserPart,
} from '@episodic/core';
import { AISDKConversionError } from './ai-sdk-error.js';
import type { AISDKMessage, AISDKProviderOptions, LooseMessage, LoosePart } from './ai-sdk-types.js';

/** What an Episodic tool message made from a tool-result part keeps of the AI SDK: its message and its part. */
export interface ToolResultOrigin {
  message: LooseMessage;
  part: LoosePart;
}

/** Provider option fields that are reasoning riding on a non-reasoning part (Gemini and Vertex thought signatures). */
const reasoningOnParts: Readonly<Record<string, string>> = { google: 'thoughtSignature', vertex: 'thoughtSignature' };

/** The AI SDK prompt split for the packer: its leading system messages verbatim, their text, and the rest converted. */
export interface ConvertedPrompt {
  leadingSystem: LooseMessage[];
  system: string | undefined;
  messages: Message[];
}

/** One AI SDK message's conversion, kept for the next call's prompt. */
export interface ConvertedMessage {
  original: LooseMessage;
  messages: Message[];
}

/**
 * Converts an AI SDK prompt; `model` tags the provider data of assistant parts.
 * `previous` (what the last call's prompt converted to, by position) is reused for each
 * message equal to the one at the same position: the AI SDK builds a new prompt every
 * step, and the packer's caches (token counts, packed forms) are kept per message
 * object, so the same objects must come back for the same messages.
 */
export function fromAISDKPrompt(
  prompt: readonly AISDKMessage[],
  model: ModelRef,
  previous?: readonly ConvertedMessage[],
): ConvertedPrompt & { kept: ConvertedMessage[] } {
  const loose = prompt as unknown as readonly LooseMessage[];
  let start = 0;
  while (start < loose.length && loose[start]?.role === 'system') start += 1;
  const leadingSystem = loose.slice(0, start);
  const system = leadingSystem.length > 0 ? leadingSystem.map((message) => String(message.content)).join('\n\n') : undefined;
  const messages: Message[] = [];
  const kept: ConvertedMessage[] = [];
  let reusing = previous !== undefined;
  for (let index = start; index < loose.length; index += 1) {
    const original = loose[index] as LooseMessage;
    const before = reusing ? previous?.[index - start] : undefined;
    reusing = before !== undefined && (before.original === original || sameValue(before.original, original));
    const converted = reusing && before ? before : { original, messages: fromMessage(original, index, model) };
    kept.push(converted);
    messages.push(...converted.messages);
  }
  return { leadingSystem, system, messages, kept };
}

/** Deep equality of prompt values (JSON-like, with binary data and URLs). */
function sameValue(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (typeof a !== 'object' || typeof b !== 'object' || a === null || b === null) return false;
  if (a instanceof Uint8Array || b instanceof Uint8Array) {
    return a instanceof Uint8Array && b instanceof Uint8Array && a.length === b.length && a.every((byte, at) => byte === b[at]);
  }
  if (a instanceof URL || b instanceof URL) return a instanceof URL && b instanceof URL && a.href === b.href;
  if (Array.isArray(a) !== Array.isArray(b)) return false;
  const keysA = Object.keys(a).filter((key) => (a as Record<string, unknown>)[key] !== undefined);
  const keysB = Object.keys(b).filter((key) => (b as Record<string, unknown>)[key] !== undefined);
  if (keysA.length !== keysB.length) return false;
  return keysA.every((key) => sameValue((a as Record<string, unknown>)[key], (b as Record<string, unknown>)[key]));
}

function fromMessage(message: LooseMessage, index: number, model: ModelRef): Message[] {
  switch (message.role) {
    case 'system':
      return [{ role: 'system', content: String(message.content), aiSdk: message }];
    case 'user':
      return [fromUser(message, index)];
    case 'assistant':
      return [{ role: 'assistant', content: partsOf(message, index).map((part) => fromAssistantPart(part, model)), aiSdk: message }];
    case 'tool':
      return fromTool(message, index);
    default:
      throw new AISDKConversionError(
        'ai_sdk_invalid_prompt',
        `AI SDK prompt message ${index} has role ${JSON.stringify(message.role)}, which no AI SDK version sends: ` +
          'pass the prompt the AI SDK built (system, user, assistant and tool messages).',
      );
  }
}

function partsOf(message: LooseMessage, index: number): LoosePart[] {
  if (Array.isArray(message.content)) return message.content;
  throw new AISDKConversionError(
    'ai_sdk_invalid_prompt',
    `AI SDK prompt message ${index} (${message.role}) has content that is not a list of parts.`,
  );
}

function fromUser(message: LooseMessage, index: number): UserMessage {
  const parts = typeof message.content === 'string' ? [{ type: 'text', text: message.content }] : partsOf(message, index);
  // Text alone is a string, as an Episodic session holds what a person typed: both then count alike.
  if (parts.every((part) => part.type === 'text')) {
    return { role: 'user', content: parts.map((part) => String(part.text)).join(''), aiSdk: message };
  }
  const content: UserPart[] = parts.map((part) => {
    if (part.type === 'text') return { type: 'text', text: String(part.text) };
    const mediaType = typeof part.mediaType === 'string' ? part.mediaType : 'application/octet-stream';
    if (part.type === 'file' && mediaType.startsWith('image/')) return { type: 'image', mediaType };
    // Counted as a short note; the original part is what is sent (user messages are never changed).
    return { type: 'text', text: `[${part.type} ${mediaType}${typeof part.filename === 'string' ? ` ${part.filename}` : ''}]` };
  });
  return { role: 'user', content, aiSdk: message };
}

/**
 * Provider data carrying a part's AI SDK `providerOptions` (or the `providerMetadata`
 * it streamed with, the same object the AI SDK sends back), marked as reasoning where
 * it is a thought signature on a non-reasoning part. Reasoning parts always get the tag.
 */
export function providerDataFor(
  type: string,
  options: AISDKProviderOptions | undefined,
  model: ModelRef,
): ProviderData | undefined {
  const empty = !options || Object.keys(options).length === 0;
  // Reasoning is always tagged with its model: another model's reasoning is never sent to it.
  if (empty) return type === 'reasoning' ? { provider: model.provider, model: model.id } : undefined;
  const data: ProviderData = { provider: model.provider, model: model.id, providerOptions: options };
  const signed = type !== 'reasoning' && Object.entries(reasoningOnParts).some(([key, field]) => options[key]?.[field] !== undefined);
  if (signed) data.reasoningFields = ['providerOptions'];
  return data;
}

function fromAssistantPart(part: LoosePart, model: ModelRef): AssistantPart {
  const providerData = providerDataFor(part.type, part.providerOptions, model);
  const data = providerData ? { providerData } : {};
  switch (part.type) {
    case 'text':
      return { type: 'text', text: String(part.text), ...data, aiSdk: part };
    case 'reasoning': {
      const redacted = anthropicField(part.providerOptions, 'redactedData') !== undefined;
      return { type: 'reasoning', text: String(part.text), ...(redacted ? { redacted: true } : {}), ...data, aiSdk: part };
    }
    case 'reasoning-file':
      // Reasoning as a file (v4): follows reasoning retention; weighed by its opaque payload.
      return { type: 'reasoning', text: '', providerData: { provider: model.provider, model: model.id, part }, aiSdk: part };
    case 'tool-call':
      if (part.providerExecuted !== true) {
        return { type: 'tool-call', id: String(part.toolCallId), name: String(part.toolName), args: part.input, ...data, aiSdk: part };
      }
      return opaquePart(part, model, 'call');
    case 'tool-result':
      return opaquePart(part, model, 'result');
    default:
      // Files, custom parts and any part a later AI SDK adds: kept whole, counted by their JSON.
      return opaquePart(part, model, 'call');
  }
}

/** A part the Episodic model has no type for, kept whole: it is never cut, and goes back as it came. */
function opaquePart(part: LoosePart, model: ModelRef, kind: 'call' | 'result'): AssistantPart {
  const id = typeof part.toolCallId === 'string' ? { id: part.toolCallId } : {};
  const name = typeof part.toolName === 'string' ? part.toolName : `ai-sdk:${part.type}`;
  return { type: 'provider-tool', name, kind, ...id, providerData: { provider: model.provider, model: model.id, part }, aiSdk: part };
}

function anthropicField(options: AISDKProviderOptions | undefined, field: string): unknown {
  return options?.anthropic?.[field];
}

function fromTool(message: LooseMessage, index: number): ToolMessage[] {
  const parts = partsOf(message, index);
  const results = parts.filter((part) => part.type === 'tool-result');
  const others = parts.filter((part) => part.type !== 'tool-result');
  if (others.length > 0) {
    // Approval answers and anything else have no Episodic line: dropping them would lose them, so refuse.
    const position = parts.indexOf(others[0] as LoosePart);
    throw new AISDKConversionError(
      'ai_sdk_unsupported_part',
      `AI SDK prompt message ${index} (tool), part ${position}, has type ${JSON.stringify(others[0]?.type)}, which Episodic's ` +
        'packer cannot carry: only tool results are packed. Pack before approval answers reach the model, or leave this call unpacked.',
    );
  }
  return results.map((part) => {
    const { content, isError } = resultContent(part.output as LoosePart | undefined);
    const origin: ToolResultOrigin = { message, part };
    return {
      role: 'tool' as const,
      toolCallId: String(part.toolCallId),
      toolName: String(part.toolName),
      content,
      ...(isError ? { isError: true } : {}),
      aiSdk: origin,
    };
  });
}

/** The text (or parts) a tool result's `output` holds, as the packer counts and shortens them. */
function resultContent(output: LoosePart | undefined): { content: string | ToolResultPart[]; isError: boolean } {
  switch (output?.type) {
    case 'text':
      return { content: String(output.value), isError: false };
    case 'error-text':
      return { content: String(output.value), isError: true };
    case 'json':
      return { content: JSON.stringify(output.value), isError: false };
    case 'error-json':
      return { content: JSON.stringify(output.value), isError: true };
    case 'execution-denied':
      return { content: typeof output.reason === 'string' ? output.reason : 'Tool execution denied.', isError: true };
    case 'content':
      return { content: (output.value as LoosePart[]).map(contentPart), isError: false };
    default:
      return { content: JSON.stringify(output ?? null), isError: false };
  }
}

function contentPart(part: LoosePart): ToolResultPart {
  if (part.type === 'text') return { type: 'text', text: String(part.text) };
  const mediaType = typeof part.mediaType === 'string' ? part.mediaType : undefined;
  if (part.type.startsWith('image') || mediaType?.startsWith('image/')) return { type: 'image', ...(mediaType ? { mediaType } : {}) };
  return { type: 'file', mediaType: mediaType ?? 'application/octet-stream' };
}
