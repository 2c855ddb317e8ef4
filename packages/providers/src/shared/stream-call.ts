/**
 * The part of `stream()` every adapter shares: announce the request's warnings,
 * open the SDK stream, map its events, and turn whatever the SDK throws into a
 * typed error.
 */
import { type ModelStreamEvent, SecretRedactor } from '@episodic/core';

/** One streamed SDK call. */
export interface StreamCall<Raw> {
  /** Warnings found while building the request, yielded first. */
  warnings: readonly string[];
  /** Opens the SDK stream. */
  open: () => Promise<Raw>;
  /** Maps the SDK stream to neutral events. */
  map: (raw: Raw) => AsyncIterable<ModelStreamEvent>;
  /** Maps anything thrown while opening or reading to a typed error. */
  mapError: (error: unknown) => Error;
  /** The adapter's API key: a provider may echo it in an error message, which must not show it. */
  secrets?: readonly string[];
}

/** Runs a {@link StreamCall}. */
export async function* streamCall<Raw>(call: StreamCall<Raw>): AsyncGenerator<ModelStreamEvent> {
  for (const message of call.warnings) yield { type: 'warning', message };
  try {
    yield* call.map(await call.open());
  } catch (error) {
    throw new SecretRedactor(call.secrets ?? []).redactError(call.mapError(error));
  }
}

/** Warnings for provider options this adapter does not know (ignored, never an error). */
export function unknownOptionWarnings(
  provider: string,
  options: Record<string, unknown> | undefined,
  known: ReadonlySet<string>,
): string[] {
  return Object.keys(options ?? {})
    .filter((key) => !known.has(key))
    .map((key) => `${provider}: unknown provider option "${key}" ignored`);
}
