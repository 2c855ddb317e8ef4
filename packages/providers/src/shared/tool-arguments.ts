/**
 * Tool-call arguments as the model wrote them. OpenAI wires (Chat Completions and
 * Responses) carry arguments as a JSON string, and a model's own string is not the
 * one `JSON.stringify` makes of it (`{"location": "San Francisco"}` has a space
 * after the colon). Sending the model's string back byte for byte keeps the request
 * identical to the model's own output, which prefix caches (of input, and at some
 * providers of output) depend on. The string rides in the call's `providerData`, so
 * it goes only back to the model that wrote it.
 */
import type { ModelRef, ProviderData, ToolCallPart } from '@episodic/core';
import { providerDataFor } from './provider-data.js';

/**
 * The fields to keep on a call's provider data: the raw string, only when it differs
 * from what `JSON.stringify` makes of the parsed arguments (most calls keep nothing).
 */
export function rawArgumentsField(raw: string, args: unknown): { arguments?: string } {
  // Blank arguments parse to {} and go back as "{}": nothing worth keeping.
  return raw.trim() === '' || raw === JSON.stringify(args) ? {} : { arguments: raw };
}

/** Provider data of a call with its raw arguments (undefined when there is nothing to keep). */
export function callProviderData(
  model: ModelRef,
  raw: string,
  args: unknown,
  fields: Record<string, unknown> = {},
): ProviderData | undefined {
  const kept = { ...fields, ...rawArgumentsField(raw, args) };
  return Object.keys(kept).length > 0 ? providerDataFor(model, kept) : undefined;
}

/**
 * The arguments string to send for a call: the model's own when the part kept it and
 * it still says what `args` says (an application may have edited the arguments),
 * else `args` serialised.
 */
export function argumentsText(part: ToolCallPart): string {
  const serialised = JSON.stringify(part.args ?? {});
  const raw = part.providerData?.arguments;
  if (typeof raw !== 'string') return serialised;
  try {
    return JSON.stringify(JSON.parse(raw)) === serialised ? raw : serialised;
  } catch {
    return serialised;
  }
}
