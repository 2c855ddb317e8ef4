/**
 * The one shape every adapter of this package has: a factory
 * (`create<Wire>Adapter(options)`) returns a plain object with the core
 * {@link ModelAdapter} contract, the profile in force, and `prepare()`, which
 * builds the wire request without sending it. The SDK client lives in the
 * factory's closure, so inspecting or logging an adapter never shows its API key.
 */
import type { ModelAdapter, ModelProfile, ModelRef, ModelRequest } from '@episodic/core';
import { stripForeignReasoning } from '@episodic/core/internal';

/** A warning `stream()` yields before any model output; `code` is set on warnings meant to be matched. */
export interface AdapterWarning {
  message: string;
  code?: string;
}

/** A request as an adapter would send it. */
export interface PreparedRequest<Body> {
  /** The SDK request body. */
  body: Body;
  /** Warnings found while building it. */
  warnings: AdapterWarning[];
}

/** A model adapter of `@episodic/providers`: {@link ModelAdapter} plus its profile and `prepare()`. */
export interface ProviderAdapter<Body, Profile extends ModelProfile = ModelProfile> extends ModelAdapter {
  /** The profile this adapter runs with (table row, then the options' overrides). */
  readonly profile: Profile;
  /** Builds the wire request for a packed neutral request without sending it (for tests and debugging). */
  prepare(request: ModelRequest): PreparedRequest<Body>;
}

/**
 * The request without other models' reasoning and opaque data, and the warning
 * for it: core's one rule ({@link stripForeignReasoning}), applied here for callers
 * that stream without the agent loop. After the loop it finds nothing to strip,
 * so a call never warns twice.
 */
export function requestWithoutForeignReasoning(
  request: ModelRequest,
  model: ModelRef,
): { request: ModelRequest; warnings: AdapterWarning[] } {
  const { messages, warning } = stripForeignReasoning(request.messages, model);
  return {
    request: messages === request.messages ? request : { ...request, messages },
    warnings: warning ? [warning] : [],
  };
}

/** Plain warning texts as {@link AdapterWarning}s (no code). */
export function plainWarnings(...groups: readonly (readonly string[])[]): AdapterWarning[] {
  return groups.flat().map((message) => ({ message }));
}
