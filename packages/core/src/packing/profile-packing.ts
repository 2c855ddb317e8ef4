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
