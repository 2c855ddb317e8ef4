/**
 * The one shape every adapter of this package has: a factory
 * (`create<Wire>Adapter(options)`) returns a plain object with the core
 * {@link ModelAdapter} contract, the profile in force, and `prepare()`, which
 * builds the wire request without sending it. The SDK client lives in the
 * factory's closure, so inspecting or logging an adapter never shows its API key.
 */
import type { ModelAdapter, ModelProfile, ModelRequest } from '@episodic/core';

/** A request as an adapter would send it. */
export interface PreparedRequest<Body> {
  /** The SDK request body. */
  body: Body;
  /** Warnings found while building it; `stream()` yields them before any model output. */
  warnings: string[];
}

/** A model adapter of `@episodic/providers`: {@link ModelAdapter} plus its profile and `prepare()`. */
export interface ProviderAdapter<Body, Profile extends ModelProfile = ModelProfile> extends ModelAdapter {
  /** The profile this adapter runs with (table row, then the options' overrides). */
  readonly profile: Profile;
  /** Builds the wire request for a packed neutral request without sending it (for tests and debugging). */
  prepare(request: ModelRequest): PreparedRequest<Body>;
}
