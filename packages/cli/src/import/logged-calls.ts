/**
 * Logs of raw API calls (what a proxy or an app's own logging writes), shared by the
 * OpenAI Chat Completions and Anthropic Messages importers. Each line is one call as
 * `{"request": {...}, "response": {...}}`, or a request body and its response on two
 * lines. Every request of a conversation repeats the history, so the conversation is
 * the last request's messages followed by the last response, and call k's response
 * is the wire message right after request k's messages.
 */
import { ImportError } from './import-result.js';
import type { RecordingLine } from './recording-lines.js';

/** One logged call. */
export interface LoggedCall {
  /** The line of the request. */
  line: number;
  request: Record<string, unknown> & { messages: unknown[] };
  response: Record<string, unknown> | undefined;
}

/** Reads the calls of a log; `isResponse` tells a bare response line from a request. */
export function loggedCalls(
  records: readonly RecordingLine[],
  file: string,
  isResponse: (value: Record<string, unknown>) => boolean,
): LoggedCall[] {
  const calls: LoggedCall[] = [];
  for (const record of records) {
    const value = record.value;
    const paired = typeof value.request === 'object' && value.request !== null;
    if (!paired && isResponse(value)) {
      const last = calls.at(-1);
      if (!last || last.response) throw new ImportError(file, record.line, 'a response with no request before it');
      last.response = value;
      continue;
    }
    const request = (paired ? value.request : value) as Record<string, unknown>;
    if (!Array.isArray(request.messages)) {
      throw new ImportError(file, record.line, 'expected a request with "messages", a response, or {"request", "response"}');
    }
    const response = paired && typeof value.response === 'object' && value.response !== null ? (value.response as Record<string, unknown>) : undefined;
    calls.push({ line: record.line, request: request as LoggedCall['request'], response });
  }
  if (calls.length === 0) throw new ImportError(file, undefined, 'no request in the file');
  return calls;
}

/** The conversation's wire messages: the last request's, then its response message (if any). */
export function conversationOf(calls: readonly LoggedCall[], responseMessage: (response: Record<string, unknown>) => unknown): unknown[] {
  const last = calls.at(-1)!;
  const reply = last.response ? responseMessage(last.response) : undefined;
  return reply === undefined ? [...last.request.messages] : [...last.request.messages, reply];
}
