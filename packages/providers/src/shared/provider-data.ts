/**
 * Ownership of provider-opaque data: signatures, encrypted reasoning and ids
 * are valid only for the provider and model that produced them (docs/providers.md,
 * "Switching provider or model inside a session"), so every part that carries
 * them is tagged with its producer. Core strips other models' data before a
 * request is converted (`stripForeignReasoning`).
 */
import type { ModelRef, ProviderData } from '@episodic/core';

/** Tags opaque fields with the model that produced them. */
export function providerDataFor(model: ModelRef, fields: Record<string, unknown> = {}): ProviderData {
  return { provider: model.provider, model: model.id, ...fields };
}
