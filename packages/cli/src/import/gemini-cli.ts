/**
 * Gemini CLI chats (`~/.gemini/tmp/<project>/chats/session-<time>-<id>.json`) to
 * transcript v1.1. The file is one JSON document `{sessionId, projectHash,
 * startTime, lastUpdated, messages}`:
 * - `user` messages are what the person typed; `content` is Gemini's `PartListUnion`
 *   (a string, one Part object, or a list of strings and Parts); `gemini` messages are the model's answers with the model name, its
 *   `thoughts` (subject and description, no signature), `tokens` (the call's usage:
 *   `input` counts the prompt including `cached`, `output` excludes `thoughts`) and,
 *   from later versions on, `toolCalls` each holding its `result` as Gemini
 *   `functionResponse` parts.
 * - `info`, `error` and `warning` messages are notes the terminal showed, never sent
 *   to the model.
 * Chats written before tool calls were recorded hold no tool calls or results: their
 * reported input grows with history the file lacks, and the reconciliation says so.
 * The JSON Lines chats of later versions (`session-*.jsonl`) are refused by name.
 */
import type { AssistantPart, Message, ToolMessage, Usage } from '@episodic/core';
import { tooDeepField } from '@episodic/core/internal';
import { MAX_NESTING_DEPTH } from '@episodic/core/transcript';
import { z } from 'zod';
import { userMessage } from './anthropic-blocks.js';
import { DropLog, ImportError, type ImportResult } from './import-result.js';
import { checkShape } from './recording-lines.js';
import { stampTime, text } from './values.js';
import { answerParts, partList, resultText, userParts } from './gemini-parts.js';

const Chat = z.looseObject({
  sessionId: z.string(),
  messages: z.array(z.looseObject({ type: z.string() })),
});
const Tokens = z.looseObject({
  input: z.number(),
  output: z.number(),
  cached: z.number().optional(),
  thoughts: z.number().optional(),
  tool: z.number().optional(),
});
// `result` is a `PartListUnion | null`: read by `partList`.
const ToolCall = z.looseObject({ id: z.string(), name: z.string(), result: z.unknown().optional() });

/** Message types the terminal shows but never sends, and why they are left out. */
const notesShown: Readonly<Record<string, string>> = {
  info: 'a note the terminal showed, not sent to the model',
  error: 'an error the terminal showed, not sent to the model',
  warning: 'a warning the terminal showed, not sent to the model',
};

/** Imports a Gemini CLI chat. */
export function importGeminiCli(textOfFile: string, file: string): ImportResult {
  const chat = checkShape(Chat, { line: 1, value: parseDocument(textOfFile, file) }, file, 'a Gemini CLI chat');
  const drops = new DropLog();
  const messages: Message[] = [];
  let toolCalls = 0;
  chat.messages.forEach((message, index) => {
    const before = messages.length;
    // The document is pretty-printed: an index is the useful place to name.
    const place = index + 1;
    // Recursive code (the results' JSON, the transcript writer) must never meet deeper input.
    const deep = tooDeepField(message, MAX_NESTING_DEPTH);
    if (deep !== undefined) throw new ImportError(file, place, `${deep} nests arrays and objects more than ${MAX_NESTING_DEPTH} levels deep`);
    if (message.type === 'user') messages.push(userMessage(userParts(message.content, drops, place), false));
    else if (message.type === 'gemini') toolCalls += addAnswer(message, messages, file, drops, place);
    else if (Object.hasOwn(notesShown, message.type)) drops.drop(`${message.type} messages`, notesShown[message.type]!, place);
    else drops.dropContent(`messages of type ${message.type}`, 'a message type this importer does not know', place);
    stampTime(messages, before, message.timestamp);
  });
  const models = new Set(messages.flatMap((message) => (message.role === 'assistant' && message.model ? [message.model.id] : [])));
  const notes = [
    `Gemini CLI chat ${chat.sessionId}; models: ${[...models].join(', ') || 'none recorded'}; lines in the list of dropped items are message numbers`,
    'the system prompt, tool definitions and the project context files are not recorded in Gemini CLI chats',
  ];
  if (toolCalls === 0 && messages.some((message) => message.role === 'assistant')) {
    notes.push('no tool calls are recorded in this chat (older Gemini CLI versions kept only the text of each answer)');
  }
  return { source: 'gemini-cli', file, messages, prefixRecorded: false, provider: 'google', dropped: drops.list(), notes };
}

/** The document, or an {@link ImportError} naming what it is instead. */
function parseDocument(textOfFile: string, file: string): Record<string, unknown> {
  let value: unknown;
  try {
    value = JSON.parse(textOfFile);
  } catch (error) {
    const jsonLines = /^\s*\{[^\n]*\}\s*\n\s*\{/.test(textOfFile);
    const detail = jsonLines
      ? 'this is a JSON Lines chat (Gemini CLI session-*.jsonl); only the JSON document chats (session-*.json) are read'
      : `not valid JSON (${(error as Error).message})`;
    throw new ImportError(file, undefined, detail);
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    throw new ImportError(file, undefined, 'expected a JSON object {sessionId, messages, ...}');
  }
  return value as Record<string, unknown>;
}

/** Adds a `gemini` message and the results of its tool calls; returns how many calls it made. */
function addAnswer(message: Record<string, unknown>, messages: Message[], file: string, drops: DropLog, place: number): number {
  const model = { provider: 'google', id: text(message.model) || 'unknown' };
  const tag = { provider: model.provider, model: model.id };
  const parts: AssistantPart[] = [];
  for (const thought of Array.isArray(message.thoughts) ? (message.thoughts as unknown[]) : []) {
    if (typeof thought !== 'object' || thought === null) {
      drops.drop('empty thoughts', 'a thought recorded as null or not an object carries no text', place);
      continue;
    }
    const { subject, description } = thought as Record<string, unknown>;
    parts.push({ type: 'reasoning', text: `**${text(subject)}**\n${text(description)}`, providerData: tag });
  }
  parts.push(...answerParts(message.content, tag, drops, place));
  const calls = Array.isArray(message.toolCalls) ? message.toolCalls : [];
  const results: ToolMessage[] = [];
  for (const raw of calls) {
    const call = checkShape(ToolCall, { line: place, value: raw as Record<string, unknown> }, file, 'a Gemini CLI tool call');
    parts.push({ type: 'tool-call', id: call.id, name: call.name, args: call.args ?? {} });
    results.push({
      role: 'tool',
      toolCallId: call.id,
      toolName: call.name,
      content: resultText(partList(call.result)),
      ...(call.status === 'error' ? { isError: true } : {}),
    });
  }
  // `tokens` is `TokensSummary | null`.
  const usage = message.tokens === undefined || message.tokens === null ? undefined : geminiUsage(message.tokens, file, place);
  messages.push({ role: 'assistant', content: parts, model, ...(usage ? { usage } : {}) });
  messages.push(...results);
  return calls.length;
}

/** Gemini counts thoughts apart from the answer; the transcript's output includes them. */
function geminiUsage(value: unknown, file: string, place: number): Usage {
  const tokens = checkShape(Tokens, { line: place, value: value as Record<string, unknown> }, file, 'Gemini CLI tokens');
  const thoughts = tokens.thoughts ?? 0;
  return {
    inputTokens: tokens.input + (tokens.tool ?? 0),
    cachedInputTokens: tokens.cached ?? 0,
    outputTokens: tokens.output + thoughts,
    reasoningTokens: thoughts,
  };
}
