/**
 * Logged OpenAI Chat Completions calls (see `logged-calls.ts`) to transcript v1.1.
 * The requests hold the system prompt and the tool definitions, so nothing has to
 * be inferred; each call's `usage` goes on the assistant message it produced.
 *
 * @see https://platform.openai.com/docs/api-reference/chat/create
 */
import type { AssistantPart, Message, ToolSpec, Usage, UserPart } from '@episodic/core';
import { userMessage } from './anthropic-blocks.js';
import { DropLog, ImportError, type ImportResult } from './import-result.js';
import { conversationOf, type LoggedCall, loggedCalls } from './logged-calls.js';
import type { RecordingLine } from './recording-lines.js';
import { contentText, imageFromUrl, parseArguments, text } from './values.js';

type Wire = Record<string, unknown>;

/** Imports a log of Chat Completions calls. */
export function importOpenAIChat(records: readonly RecordingLine[], file: string): ImportResult {
  const calls = loggedCalls(records, file, (value) => Array.isArray(value.choices));
  const drops = new DropLog();
  const wire = conversationOf(calls, (response) => ((response.choices as Wire[])[0] ?? {}).message) as Wire[];
  const model = { provider: 'openai', id: text(calls.at(-1)!.response?.model) || text(calls.at(-1)!.request.model) || 'unknown' };
  const converted = convert(wire, model, drops, calls.at(-1)!.line, file);
  const usageOf = (response: Wire) => chatUsage(response.usage as Wire | undefined);
  attachUsage(calls, converted, usageOf, (call) => text(call.response?.model) || text(call.request.model));
  return {
    source: 'openai-chat',
    file,
    messages: converted.messages,
    tools: chatTools(calls.at(-1)!.request.tools),
    prefixRecorded: true,
    dropped: drops.list(),
    notes: [`${calls.length} logged call(s); the conversation is the last request's messages and its response`],
  };
}

/** Transcript messages and, per wire message, the index of the transcript message it became. */
export interface Converted {
  messages: Message[];
  indexOfWire: number[];
}

function convert(wire: readonly Wire[], model: { provider: string; id: string }, drops: DropLog, line: number, file: string): Converted {
  const messages: Message[] = [];
  const indexOfWire: number[] = [];
  const toolNames = new Map<string, string>();
  for (const message of wire) {
    indexOfWire.push(messages.length);
    const role = text(message.role);
    if (role === 'system' || role === 'developer') messages.push({ role, content: contentText(message.content) });
    else if (role === 'user') messages.push(userMessage(userParts(message.content), false));
    else if (role === 'tool') {
      const id = text(message.tool_call_id);
      messages.push({ role: 'tool', toolCallId: id, toolName: toolNames.get(id) ?? 'unknown', content: contentText(message.content) });
    } else if (role === 'assistant') {
      const parts = assistantParts(message, model);
      for (const part of parts) if (part.type === 'tool-call') toolNames.set(part.id, part.name);
      messages.push({ role: 'assistant', content: parts, model });
    } else if (role === '') {
      throw new ImportError(file, line, 'a message without a role in the last request');
    } else {
      drops.dropContent(`messages of role ${role}`, 'a role the transcript does not have', line);
    }
  }
  return { messages, indexOfWire };
}

/**
 * Puts each call's usage (and the model it names) on the assistant message its
 * response became: the wire message right after the call's request messages.
 */
export function attachUsage(
  calls: readonly LoggedCall[],
  converted: Converted,
  usageOf: (response: Record<string, unknown>) => Usage | undefined,
  modelOf: (call: LoggedCall) => string,
): void {
  for (const call of calls) {
    if (!call.response) continue;
    const message = converted.messages[converted.indexOfWire[call.request.messages.length] ?? -1];
    const usage = usageOf(call.response);
    if (message?.role !== 'assistant' || !usage) continue;
    message.usage = usage;
    const id = modelOf(call);
    if (id && message.model) message.model = { ...message.model, id };
  }
}

function assistantParts(message: Wire, model: { provider: string; id: string }): AssistantPart[] {
  const parts: AssistantPart[] = [];
  const reasoning = text(message.reasoning_content) || text(message.reasoning);
  if (reasoning) parts.push({ type: 'reasoning', text: reasoning, providerData: { provider: model.provider, model: model.id } });
  const content = contentText(message.content);
  if (content) parts.push({ type: 'text', text: content });
  for (const call of Array.isArray(message.tool_calls) ? (message.tool_calls as Wire[]) : []) {
    const fn = (call.function ?? {}) as Wire;
    parts.push({ type: 'tool-call', id: text(call.id), name: text(fn.name), args: parseArguments(text(fn.arguments)) });
  }
  return parts;
}

function chatUsage(usage: Wire | undefined): Usage | undefined {
  if (!usage || typeof usage.prompt_tokens !== 'number') return undefined;
  const details = (usage.prompt_tokens_details ?? {}) as Wire;
  const output = (usage.completion_tokens_details ?? {}) as Wire;
  return {
    inputTokens: usage.prompt_tokens,
    cachedInputTokens: typeof details.cached_tokens === 'number' ? details.cached_tokens : 0,
    outputTokens: typeof usage.completion_tokens === 'number' ? usage.completion_tokens : 0,
    ...(typeof output.reasoning_tokens === 'number' ? { reasoningTokens: output.reasoning_tokens } : {}),
  };
}

function chatTools(tools: unknown): ToolSpec[] | undefined {
  if (!Array.isArray(tools)) return undefined;
  return (tools as Wire[]).flatMap((tool): ToolSpec[] => {
    const fn = (tool.function ?? {}) as Wire;
    if (tool.type !== 'function' || !text(fn.name)) return [];
    return [{ name: text(fn.name), description: text(fn.description), inputSchema: (fn.parameters ?? {}) as Record<string, unknown> }];
  });
}

function userParts(content: unknown): UserPart[] {
  if (!Array.isArray(content)) return [{ type: 'text', text: contentText(content) }];
  return (content as Wire[]).flatMap((part): UserPart[] => {
    if (part.type === 'image_url') return [imageFromUrl(text(((part.image_url ?? {}) as Wire).url))];
    return [{ type: 'text', text: text(part.text) }];
  });
}
