/**
 * Gemini CLI's message content and tool results as transcript parts. Both are
 * `PartListUnion` in Gemini CLI's types (`@google/genai`): a string, one `Part`
 * object, or a list of strings and Parts, and a result may also be `null`. Every
 * form is read; a part this importer cannot carry is reported as lost content (an
 * error unless the user accepts the loss), never skipped silently.
 */
import type { AssistantPart, TextPart, UserPart } from '@episodic/core';
import type { DropLog } from './import-result.js';
import { imageFromUrl, text } from './values.js';

/** `{ provider, model }` of the answer, for its reasoning parts. */
type Tag = { provider: string; model: string };

/** A `PartListUnion` (or `null`, or absent) as a list of its items. */
export function partList(value: unknown): unknown[] {
  if (value === undefined || value === null) return [];
  return Array.isArray(value) ? value : [value];
}

/** What the person typed, as user parts. */
export function userParts(content: unknown, drops: DropLog, place: number): UserPart[] {
  return partList(content).flatMap((item): UserPart[] => {
    const part = partObject(item, drops, place);
    if (part === undefined) return [];
    if (typeof part === 'string') return [{ type: 'text', text: part }];
    if (typeof part.text === 'string') return [{ type: 'text', text: part.text }];
    const inline = part.inlineData;
    if (typeof inline === 'object' && inline !== null) {
      const { mimeType, data } = inline as Record<string, unknown>;
      return [imageFromUrl(`data:${text(mimeType)};base64,${text(data)}`)];
    }
    dropUnknown(part, drops, place);
    return [];
  });
}

/** The model's answer: its text, and parts marked `thought` as reasoning. */
export function answerParts(content: unknown, tag: Tag, drops: DropLog, place: number): AssistantPart[] {
  const parts: AssistantPart[] = [];
  for (const item of partList(content)) {
    const part = partObject(item, drops, place);
    if (part === undefined) continue;
    const body = typeof part === 'string' ? part : part.text;
    if (typeof body !== 'string') {
      dropUnknown(part as Record<string, unknown>, drops, place);
      continue;
    }
    if (typeof part === 'object' && part.thought === true) {
      const signature = text(part.thoughtSignature);
      parts.push({ type: 'reasoning', text: body, ...(signature ? { signature } : {}), providerData: tag });
      continue;
    }
    // Consecutive text reads as one answer, as the terminal shows it.
    const last = parts.at(-1);
    if (last?.type === 'text') (last as TextPart).text += body;
    else if (body !== '') parts.push({ type: 'text', text: body });
  }
  return parts;
}

/** A tool call's result as the model read it: each `functionResponse.response`, text part or string. */
export function resultText(items: readonly unknown[]): string {
  return items
    .flatMap((item): string[] => {
      if (item === null) return [];
      if (typeof item === 'string') return [item];
      if (typeof item !== 'object') return [JSON.stringify(item)];
      const part = item as Record<string, unknown>;
      const call = part.functionResponse;
      const response = typeof call === 'object' && call !== null ? (call as Record<string, unknown>).response : undefined;
      if (response !== undefined && response !== null) {
        const output = (response as Record<string, unknown>).output;
        return [typeof output === 'string' ? output : JSON.stringify(response)];
      }
      if (typeof part.text === 'string') return [part.text];
      return [JSON.stringify(part)];
    })
    .join('\n');
}

/** The item as a string or a Part object; `null` is reported as an empty part. */
function partObject(item: unknown, drops: DropLog, place: number): string | Record<string, unknown> | undefined {
  if (typeof item === 'string') return item;
  if (item === null) {
    drops.drop('null parts', 'a part recorded as null carries no content', place);
    return undefined;
  }
  if (typeof item !== 'object' || Array.isArray(item)) {
    drops.dropContent(`parts of type ${Array.isArray(item) ? 'array' : typeof item}`, 'not a Gemini part', place);
    return undefined;
  }
  return item as Record<string, unknown>;
}

function dropUnknown(part: Record<string, unknown>, drops: DropLog, place: number): void {
  drops.dropContent(`parts ${Object.keys(part).join('+') || '(empty)'}`, 'a Gemini part this importer does not read', place);
}
