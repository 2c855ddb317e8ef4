/**
 * Ownership of provider-opaque data: signatures, encrypted reasoning and ids
 * are valid only for the provider and model that produced them (PROVIDERS.md,
 * "Switching provider or model inside a session").
 */
import type { ModelRef, ProviderData } from '@episodic/core';

/** True when `data` was produced by exactly this provider and model. */
export function isOwnProviderData(data: ProviderData | undefined, model: ModelRef): data is ProviderData {
  return data !== undefined && data.provider === model.provider && data.model === model.id;
}

/** Tags opaque fields with the model that produced them. */
export function providerDataFor(model: ModelRef, fields: Record<string, unknown> = {}): ProviderData {
  return { provider: model.provider, model: model.id, ...fields };
}

/** The warning adapters give when reasoning of another model is left out of a request. */
export function foreignReasoningWarning(provider: string, count: number): string[] {
  if (count === 0) return [];
  return [
    `${provider}: ${count} reasoning part(s) produced by another model were not sent: their opaque data is only valid for the model that produced it.`,
  ];
}
