/**
 * Logged Anthropic Messages calls (see `logged-calls.ts`) to transcript v1.1. The
 * requests hold the system prompt and the tool definitions; each call's usage goes
 * on the assistant message it produced. A user-role wire message splits into its
 * tool results and the user's own words (which start an episode only when there are
 * no tool results beside them: text next to results is context the app added).
 *
 * @see https://docs.claude.com/en/api/messages
 */
import type { Message, ToolSpec } from '@episodic/core';
import { anthropicUsage, assistantParts, type Block, userBlocks, userMessage } from './anthropic-blocks.js';
import { DropLog, ImportError, type ImportResult } from './import-result.js';
import { conversationOf, loggedCalls } from './logged-calls.js';
import { attachUsage, type Converted } from './openai-chat.js';
import type { RecordingLine } from './recording-lines.js';
import { contentText, text } from './values.js';

type Wire = Record<string, unknown>;

/** Imports a log of Messages API calls. */
export function importAnthropicMessages(records: readonly RecordingLine[], file: string): ImportResult {
  const calls = loggedCalls(records, file, (value) => value.type === 'message' && value.role === 'assistant');
  const last = calls.at(-1)!;
  const drops = new DropLog();
  const wire = conversationOf(calls, (response) => ({ role: 'assistant', content: response.content })) as Wire[];
  const model = { provider: 'anthropic', id: text(last.response?.model) || text(last.request.model) || 'unknown' };
  const converted = convert(wire, model, drops, last.line, file);
  const system = systemText(last.request.system);
  if (system) {
    converted.messages.unshift({ role: 'system', content: system });
    converted.indexOfWire = converted.indexOfWire.map((index) => index + 1);
  }
  const usageOf = (response: Wire) => anthropicUsage(response.usage as Wire | undefined);
  attachUsage(calls, converted, usageOf, (call) => text(call.response?.model) || text(call.request.model));
  return {
    source: 'anthropic-messages',
    file,
    messages: converted.messages,
    tools: messagesTools(last.request.tools, drops, last.line),
    prefixRecorded: true,
    dropped: drops.list(),
    notes: [`${calls.length} logged call(s); the conversation is the last request's messages and its response`],
  };
}

function convert(wire: readonly Wire[], model: { provider: string; id: string }, drops: DropLog, line: number, file: string): Converted {
  const messages: Message[] = [];
  const indexOfWire: number[] = [];
  const toolNames = new Map<string, string>();
  for (const message of wire) {
    const content = (typeof message.content === 'string' ? message.content : (message.content ?? [])) as string | Block[];
    if (message.role === 'assistant') {
      indexOfWire.push(messages.length);
      const parts = assistantParts(typeof content === 'string' ? [{ type: 'text', text: content }] : content, model);
      for (const part of parts) if (part.type === 'tool-call') toolNames.set(part.id, part.name);
      messages.push({ role: 'assistant', content: parts, model });
    } else if (message.role === 'user') {
      indexOfWire.push(messages.length);
      const { results, parts } = userBlocks(content, toolNames, drops, line);
      messages.push(...results);
      if (parts.length > 0) messages.push(userMessage(parts, results.length > 0));
    } else {
      throw new ImportError(file, line, `a message of role ${JSON.stringify(message.role)}: the Messages API has user and assistant only`);
    }
  }
  return { messages, indexOfWire };
}

function systemText(system: unknown): string {
  return typeof system === 'string' ? system : contentText(system);
}

/** Client tools become tool definitions; server tools (web search, code execution) have none to send. */
function messagesTools(tools: unknown, drops: DropLog, line: number): ToolSpec[] | undefined {
  if (!Array.isArray(tools)) return undefined;
  return (tools as Wire[]).flatMap((tool): ToolSpec[] => {
    if (!tool.input_schema) {
      drops.drop(`server tools (${text(tool.type) || text(tool.name)})`, 'the provider runs them; they have no definition to count', line);
      return [];
    }
    return [{ name: text(tool.name), description: text(tool.description), inputSchema: tool.input_schema as Record<string, unknown> }];
  });
}
