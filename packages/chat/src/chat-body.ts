/**
 * The JSON bodies the chat routes take, read within a byte limit and checked field
 * by field. The limit holds for bodies of any framing: a declared `Content-Length`
 * over it is refused before reading, and a chunked body is read only until it passes
 * it (then the reading is cancelled, so an endless body costs no more than the limit).
 */
import type { Refusal } from './request-guard.js';

/** A body read and parsed, or why not. */
export type Read<T> = { ok: true; value: T } | { ok: false; refusal: Refusal };

const CHAT_ID = /^[\w-]{1,100}$/;

/** The request's body as JSON, or a 413 past `maxBytes`, or a 400 when it is not JSON. */
export async function readJsonBody(request: Request, maxBytes: number): Promise<Read<unknown>> {
  const tooLarge: Read<unknown> = { ok: false, refusal: { status: 413, message: `The body is larger than ${maxBytes} bytes.` } };
  const declared = Number(request.headers.get('content-length') ?? Number.NaN);
  if (declared > maxBytes) return tooLarge;
  const chunks: Uint8Array[] = [];
  let size = 0;
  if (request.body) {
    const reader = request.body.getReader();
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      size += value.byteLength;
      if (size > maxBytes) {
        await reader.cancel();
        return tooLarge;
      }
      chunks.push(value);
    }
  }
  try {
    return { ok: true, value: JSON.parse(new TextDecoder().decode(concat(chunks, size))) };
  } catch {
    return bad('the body is not JSON');
  }
}

function concat(chunks: readonly Uint8Array[], size: number): Uint8Array {
  const joined = new Uint8Array(size);
  let at = 0;
  for (const chunk of chunks) {
    joined.set(chunk, at);
    at += chunk.byteLength;
  }
  return joined;
}

function bad(why: string): { ok: false; refusal: Refusal } {
  return { ok: false, refusal: { status: 400, message: `Bad chat request: ${why}.` } };
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** The chat id at `body.id`, or why it is not one. */
export function chatId(body: unknown): Read<string> {
  if (!isRecord(body)) return bad('the body must be a JSON object');
  if (typeof body.id !== 'string' || !CHAT_ID.test(body.id)) return bad('"id" must be 1 to 100 letters, digits, "_" or "-"');
  return { ok: true, value: body.id };
}

/**
 * What the AI SDK chat client posts: with `prepareSendMessagesRequest` sending only
 * the new message, `{ id, message: { role: 'user', parts: [{ type: 'text', text }] } }`;
 * by default (`DefaultChatTransport` as it comes), `{ id, messages: [...], trigger }`,
 * of which only the last message is read (the session holds the rest). Returns the
 * chat id and the message's text (its text parts joined).
 */
export function chatMessage(body: unknown, maxTextChars: number): Read<{ id: string; text: string }> {
  const id = chatId(body);
  if (!id.ok) return id;
  const { message: only, messages, trigger } = body as Record<string, unknown>;
  if (trigger !== undefined && trigger !== 'submit-message') {
    return bad(`"trigger" ${JSON.stringify(trigger)} is not supported: the session keeps the conversation, send a new message`);
  }
  const [message, where] = newMessage(only, messages);
  if (!isRecord(message) || message.role !== 'user') return bad(`"${where}" must be an object with role "user"`);
  const parts = message.parts;
  if (!Array.isArray(parts) || parts.length > 50) return bad(`"${where}.parts" must be an array of at most 50 parts`);
  let text = '';
  for (const [index, part] of parts.entries()) {
    if (!isRecord(part) || typeof part.type !== 'string') return bad(`"${where}.parts[${index}]" must be an object with a "type"`);
    if (part.type !== 'text') continue;
    if (typeof part.text !== 'string') return bad(`"${where}.parts[${index}].text" must be a string`);
    text += part.text;
  }
  if (text.length > maxTextChars) return bad(`the message's text is longer than ${maxTextChars} characters`);
  if (!text.trim()) return bad('the message has no text');
  return { ok: true, value: { id: id.value, text } };
}

/** The new message of a body and where it sits: `message`, else the last of `messages`. */
function newMessage(only: unknown, messages: unknown): [unknown, string] {
  return only === undefined && Array.isArray(messages) ? [messages.at(-1), `messages[${messages.length - 1}]`] : [only, 'message'];
}

/** True when the body's new message is the assistant's (the AI SDK client answering approvals), not a user's. */
export function isApprovalAnswer(body: unknown): boolean {
  if (!isRecord(body)) return false;
  const [message] = newMessage(body.message, body.messages);
  return isRecord(message) && message.role === 'assistant';
}

/**
 * The decisions in an assistant message the AI SDK chat client sends after
 * `addToolApprovalResponse`: its tool parts in state `approval-responded`, whose
 * approval id is the call id (as `@episodic/core/ui-stream` sends it).
 */
export function chatApprovalAnswers(body: unknown): Read<{ id: string; decisions: Array<Omit<ChatDecision, 'id'>> }> {
  const id = chatId(body);
  if (!id.ok) return id;
  const { message: only, messages } = body as Record<string, unknown>;
  const [message, where] = newMessage(only, messages);
  const parts = isRecord(message) ? message.parts : undefined;
  if (!Array.isArray(parts) || parts.length > 200) return bad(`"${where}.parts" must be an array of at most 200 parts`);
  const decisions: Array<Omit<ChatDecision, 'id'>> = [];
  for (const [index, part] of parts.entries()) {
    if (!isRecord(part) || part.state !== 'approval-responded') continue;
    const approval = part.approval;
    if (!isRecord(approval) || typeof approval.id !== 'string' || typeof approval.approved !== 'boolean') {
      return bad(`"${where}.parts[${index}].approval" must have a string "id" and a boolean "approved"`);
    }
    const reason = typeof approval.reason === 'string' ? approval.reason.slice(0, 2_000) : undefined;
    decisions.push({
      callId: approval.id,
      decision: approval.approved ? 'approved' : 'rejected',
      ...(reason === undefined ? {} : approval.approved ? { note: reason } : { reason }),
    });
  }
  if (decisions.length === 0) return bad(`"${where}" is the assistant's but answers no approval`);
  return { ok: true, value: { id: id.value, decisions } };
}

/** A decision on a waiting tool call: `{ id, callId, decision: 'approved' | 'rejected', note?, reason? }`. */
export interface ChatDecision {
  /** The chat (session) id. */
  id: string;
  /** The waiting call, as `GET …/approvals` lists it. */
  callId: string;
  /** `approved` runs the call at resume; `rejected` answers it with an error the model reads. */
  decision: 'approved' | 'rejected';
  /** With `approved`: reaches the model after the tool's output. */
  note?: string;
  /** With `rejected`: the model reads it instead of the tool's output. */
  reason?: string;
}

/** The decision in `body`, or why it is not one. */
export function chatDecision(body: unknown): Read<ChatDecision> {
  const id = chatId(body);
  if (!id.ok) return id;
  const { callId, decision, note, reason } = body as Record<string, unknown>;
  if (typeof callId !== 'string' || callId.length === 0 || callId.length > 200) return bad('"callId" must be a string of 1 to 200 characters');
  if (decision !== 'approved' && decision !== 'rejected') return bad('"decision" must be "approved" or "rejected"');
  for (const [name, value] of [['note', note], ['reason', reason]] as const) {
    if (value !== undefined && (typeof value !== 'string' || value.length > 2_000)) return bad(`"${name}" must be a string of at most 2000 characters`);
  }
  return {
    ok: true,
    value: {
      id: id.value,
      callId,
      decision,
      ...(typeof note === 'string' ? { note } : {}),
      ...(typeof reason === 'string' ? { reason } : {}),
    },
  };
}
