/**
 * The packing options a model profile implies: how the boundary drop of past reasoning
 * is priced (whether the provider hides such reasoning from the model, whether it bills
 * it, its cache prices) and how long its prompt cache lives. All from profile data.
 */
import type { ModelProfile } from '../model/model-profile.js';
import type { PackOptions } from './pack-types.js';

/**
 * `reasoningBoundary` and `cacheTtlMs` for a profile. A provider that strips reasoning
 * of earlier user turns (`pastReasoning: 'stripped'`) hides it from the model and does not
 * bill it; one that bills it also shows it to the model, so its drop is never deferred.
 * Without prices the cache is priced at the common multipliers: reads 0.1x, writes 1x.
 */
export function packingForProfile(profile: ModelProfile | undefined): Pick<PackOptions, 'reasoningBoundary' | 'cacheTtlMs'> {
  if (!profile || profile.cacheStyle === 'none') return {};
  const pricing = profile.pricing;
  const input = pricing?.input ?? 1;
  const stripped = profile.pastReasoning === 'stripped';
  return {
    reasoningBoundary: {
      hiddenByProvider: stripped,
      billed: !stripped,
      prices: { input, cacheWrite: pricing?.cacheWrite ?? input, cacheRead: pricing?.cachedInput ?? input * 0.1 },
    },
    ...(profile.cacheTtlSeconds === undefined ? {} : { cacheTtlMs: profile.cacheTtlSeconds * 1000 }),
  };
}

/**
 * What an agent takes from a profile unless told otherwise: the cache lifetime
 * (TTL-aware eviction) and whether reasoning is bound to its prefix. The priced boundary drop is opt-in (`pack.reasoningBoundary`):
 * on the session family it raised reuse but cost more where the kept bytes are billed.
 * `episodic budget` and the benchmarks replay with this too, so they model what agents do.
 */
export function defaultPackingForProfile(profile: ModelProfile | undefined): Pick<PackOptions, 'cacheTtlMs' | 'boundReasoning'> {
  const { cacheTtlMs } = packingForProfile(profile);
  return {
    ...(cacheTtlMs === undefined ? {} : { cacheTtlMs }),
    // Reasoning bound to its prefix: cuts are planned around it (bound-reasoning.ts).
    ...(profile?.signatureBoundToPrefix === true ? { boundReasoning: true } : {}),
  };
}
