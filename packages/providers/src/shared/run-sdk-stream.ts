/**
 * The part of `stream()` every adapter shares: announce the request's warnings,
 * open the SDK stream, map its events, and turn whatever the SDK throws into a
 * typed error.
 */
import type { ModelStreamEvent } from '@episodic/core';
import type { AdapterWarning } from './provider-adapter.js';

/** One streamed SDK call. */
export interface SdkStreamCall<Raw> {
  /** Warnings found while building the request, yielded first. */
  warnings: readonly AdapterWarning[];
  /** Opens the SDK stream. */
  open: () => Promise<Raw>;
  /** Maps the SDK stream to neutral events. */
  map: (raw: Raw) => AsyncIterable<ModelStreamEvent>;
  /** Maps anything thrown while opening or reading to a typed error. */
  mapError: (error: unknown) => Error;
}

/** Runs an {@link SdkStreamCall}: its warnings first, then the mapped SDK stream. */
export async function* runSdkStream<Raw>(call: SdkStreamCall<Raw>): AsyncGenerator<ModelStreamEvent> {
  for (const warning of call.warnings) yield { type: 'warning', ...warning };
  try {
    yield* call.map(await call.open());
  } catch (error) {
    throw call.mapError(error);
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
