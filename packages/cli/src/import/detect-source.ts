/**
 * Telling another agent's recording from a transcript by its first lines, so a
 * command given a Claude Code, Codex, pi, Gemini CLI or aider file (or an API log)
 * names the import to run instead of reporting every line as damaged and pointing
 * to `episodic repair`, which would move them all aside.
 */
import { open } from 'node:fs/promises';
import type { ImportSource } from './import-result.js';

/** Bytes of the head read to recognise a recording: enough for its first lines. */
const HEAD_BYTES = 256 * 1024;
/** Lines of the head looked at. */
const HEAD_LINES = 20;

/** What each source is called in messages. */
export const sourceNames: Readonly<Record<ImportSource, string>> = {
  'claude-code': 'a Claude Code session',
  codex: 'a Codex CLI session',
  pi: 'a pi session',
  'gemini-cli': 'a Gemini CLI chat',
  aider: 'an aider chat log',
  'openai-chat': 'a log of OpenAI Chat Completions calls',
  'anthropic-messages': 'a log of Anthropic Messages calls',
};

/** Claude Code line types (the conversation and its bookkeeping). */
const claudeCodeTypes = new Set(['user', 'assistant', 'system', 'summary', 'file-history-snapshot', 'queue-operation', 'progress']);
/** Codex rollout line types. */
const codexTypes = new Set(['session_meta', 'response_item', 'event_msg', 'turn_context', 'compacted']);

type Json = Record<string, unknown>;

const isObject = (value: unknown): value is Json => typeof value === 'object' && value !== null && !Array.isArray(value);
const has = (value: Json, key: string) => Object.hasOwn(value, key);

/** The source whose recording `head` (the start of a file) is, or undefined. */
export function detectRecording(head: string): ImportSource | undefined {
  if (/^# aider chat started at /m.test(head.slice(0, 4096))) return 'aider';
  if (isGeminiDocument(head)) return 'gemini-cli';
  const values = headObjects(head);
  for (const [index, value] of values.entries()) {
    const found = lineSource(value, values[index + 1]);
    if (found) return found;
  }
  return undefined;
}

/** Reads the head of `file` and recognises it; undefined when it cannot be read or is not a recording. */
export async function detectRecordingFile(file: string): Promise<ImportSource | undefined> {
  try {
    const handle = await open(file, 'r');
    try {
      const buffer = Buffer.alloc(HEAD_BYTES);
      const { bytesRead } = await handle.read(buffer, 0, HEAD_BYTES, 0);
      return detectRecording(buffer.subarray(0, bytesRead).toString('utf8'));
    } finally {
      await handle.close();
    }
  } catch {
    return undefined;
  }
}

/** A Gemini CLI chat is one pretty-printed JSON document: recognised by its top-level keys. */
function isGeminiDocument(head: string): boolean {
  if (!/^\s*\{\s*\n/.test(head)) return false;
  const top = head.slice(0, 8192);
  return /^ {2}"sessionId":/m.test(top) && /^ {2}"projectHash":/m.test(top);
}

/** The JSON objects of the head's complete lines (the first {@link HEAD_LINES}). */
function headObjects(head: string): Json[] {
  const lines = head.split('\n').slice(0, HEAD_LINES);
  const values: Json[] = [];
  for (const line of lines) {
    try {
      const value: unknown = JSON.parse(line);
      if (isObject(value)) values.push(value);
    } catch {
      // A cut or damaged line says nothing about the format.
    }
  }
  return values;
}

/** The source one line (and the line after it, for two-line API logs) belongs to. */
function lineSource(value: Json, next: Json | undefined): ImportSource | undefined {
  const type = value.type;
  if (typeof type === 'string') {
    if (codexTypes.has(type) && has(value, 'payload')) return 'codex';
    if (type === 'session' && (has(value, 'cwd') || has(value, 'version'))) return 'pi';
    if (claudeCodeTypes.has(type) && ['sessionId', 'uuid', 'leafUuid', 'messageId'].some((key) => has(value, key))) {
      return 'claude-code';
    }
  }
  if (typeof value.sessionId === 'string' && typeof value.projectHash === 'string') return 'gemini-cli';
  if (isObject(value.request) && isObject(value.response)) return apiLogSource(value.response);
  if (Array.isArray(value.messages) && typeof value.model === 'string' && next) return apiLogSource(next);
  return undefined;
}

/** Which API a logged response came from. */
function apiLogSource(response: Json): ImportSource | undefined {
  if (Array.isArray(response.choices)) return 'openai-chat';
  if (response.type === 'message' && Array.isArray(response.content)) return 'anthropic-messages';
  return undefined;
}
