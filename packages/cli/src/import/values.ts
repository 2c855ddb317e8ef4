/**
 * Small readers of loosely typed recorded values, shared by the importers: recorded
 * files are read field by field, and a field of the wrong type reads as empty.
 */
import type { ImagePart, Message } from '@episodic/core';

/** The value when it is a string, else `''`. */
export function text(value: unknown): string {
  return typeof value === 'string' ? value : '';
}

/** Text of `content` that is a string or a list of `{ text }` parts. */
export function contentText(content: unknown): string {
  if (typeof content === 'string') return content;
  if (!Array.isArray(content)) return '';
  return (content as { text?: unknown }[]).map((part) => text(part.text)).join('');
}

/** Tool-call arguments: the parsed JSON, or the raw text when it is not JSON (a model's malformed call). */
export function parseArguments(raw: string): unknown {
  try {
    return JSON.parse(raw) as unknown;
  } catch {
    return raw;
  }
}

/** An image given by URL; a `data:` URL becomes base64 data with its media type. */
export function imageFromUrl(url: string): ImagePart {
  const data = /^data:([^;,]+);base64,(.*)$/s.exec(url);
  return data ? { type: 'image', data: data[2]!, mediaType: data[1]! } : { type: 'image', url };
}

/**
 * Puts the recording's time on the messages added since `from` (an extra field the
 * transcript keeps as is): `episodic budget` reads the gaps between calls to tell
 * when a prompt cache expired.
 */
export function stampTime(messages: readonly Message[], from: number, timestamp: unknown): void {
  if (typeof timestamp !== 'string' && typeof timestamp !== 'number') return;
  for (let index = from; index < messages.length; index += 1) {
    const message = messages[index]!;
    if (message.timestamp === undefined) message.timestamp = timestamp;
  }
}
