/**
 * What the recorded suite needs from each wire API, read straight off the recorded
 * bytes (never through the adapter under test): what a response says (the
 * expected transcript), the assistant turns a request carried back (to compare
 * with the follow-up the adapter builds), and the messages after a turn (tool
 * results, the next question) as neutral messages to continue the conversation.
 */
import type { AssistantMessage, Message, StopReason, Usage } from '@episodic/core';
import type { RecordedResponse } from './recordings.js';

/** What a recorded response says, in neutral terms. */
export interface RecordedAnswer {
  /** The reasoning parts the transcript must hold, each as a subset its part must match. */
  reasoning: Record<string, unknown>[];
  /** Visible text, all parts joined. */
  text: string;
  calls: { id?: string; name: string; args: unknown; raw: string }[];
  usage: Usage;
  stopReason: StopReason;
  /** Gemini: every thought signature, in order, on whichever part carried it. */
  signatures?: string[];
  /** Responses: the `phase` of each assistant message, in order. */
  phases?: (string | undefined)[];
  /** An error the stream ended with (OpenRouter's error chunk, Groq's error event). */
  streamError?: string;
  /** The stream ended with that error and no finish: the call fails. */
  fails?: boolean;
  /**
   * What the adapter does not read but must keep (Anthropic blocks of other types:
   * server tools, MCP calls, compaction, later types), as the wire gave it: the next
   * request must carry each one back verbatim and in this order.
   */
  opaque?: unknown[];
  /** The assistant turn in a request body, in the form `opaque` is given. */
  opaqueIn?: (turn: unknown) => unknown[];
}

/** One assistant turn of a request body, normalised for comparison, with the keys that identify it. */
export interface WireTurn {
  /** Tool-call ids, signatures, item ids, text: any of them names the turn. */
  keys: string[];
  turn: unknown;
  /** Where the turn ends in the request's list of messages / items / contents. */
  end: number;
}

/** One wire API as the recorded suite reads it. */
export interface WireFormat {
  answer(response: RecordedResponse): RecordedAnswer;
  /** The conversation's start: the last user message of the first recorded request. */
  start(body: unknown): Message[];
  /** The assistant turns a request carries. */
  turns(body: unknown): WireTurn[];
  /** The messages after position `end` of a request (from a turn's `end`), as neutral messages. */
  after(body: unknown, end: number): Message[];
  /** The keys under which one of our assistant messages appears in a request. */
  keysOf(message: AssistantMessage): string[];
}

type Json = Record<string, unknown>;

/** Model calls, not the file uploads and deletions some recordings hold around them. */
export function isModelCall(path: string | undefined): boolean {
  return path === undefined || /\/messages(\?|$)|\/responses(\?|$)|\/chat\/completions|:(stream)?generateContent/i.test(path);
}

/** The `data:` payloads of an SSE text, parsed (comment lines and `[DONE]` left out). */
export function sseData(text: string): Json[] {
  const events: Json[] = [];
  for (const block of text.split(/\r?\n\r?\n/)) {
    const data = block
      .split(/\r?\n/)
      .filter((line) => line.startsWith('data:'))
      .map((line) => line.slice(5).trim())
      .join('\n');
    if (data === '' || data === '[DONE]') continue;
    events.push(JSON.parse(data) as Json);
  }
  return events;
}

/** Parsed JSON of a tool-call arguments string (the raw string when it is not JSON). */
export function parsedArguments(raw: string): unknown {
  if (raw.trim() === '') return {};
  try {
    return JSON.parse(raw) as unknown;
  } catch {
    return raw;
  }
}

/** The text of a user message or tool result given as a string or as parts. */
export function textOf(content: unknown): string {
  if (typeof content === 'string') return content;
  if (!Array.isArray(content)) return content === undefined || content === null ? '' : JSON.stringify(content);
  return (content as Json[]).map((part) => (typeof part.text === 'string' ? part.text : '')).join('');
}

/** A conversation's start: the last user message of a list of messages or items. */
export function lastUserMessage(items: readonly { role?: unknown; content?: unknown }[]): Message[] {
  const last = items.findLast((item) => item.role === 'user');
  return [{ role: 'user', content: textOf(last?.content) || 'Hello' }];
}
