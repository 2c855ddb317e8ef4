/**
 * One model family served by one host: the family says which reasoning must go
 * back, the host says in which field and with which flags. A host nobody
 * described gets the family's own field when the family refuses requests without
 * reasoning (so a strict model works with no configuration), and nothing sent
 * back otherwise.
 */
import type { ModelProfile } from '@episodic/core';
import type { CompatibleProfile, CompatibleProfileFields, CompatibleHost } from './compatible-hosts.js';
import type { ModelFamily } from './model-families.js';

/** A profile before the model's limits and pattern are known. */
type HostWire = CompatibleProfileFields &
  Pick<ModelProfile, 'provider' | 'retention' | 'cacheStyle' | 'minCacheableTokens' | 'tokenizerFactor'>;

/** The wire of a host without a row: no key variables known, no caching assumed. */
function unknownHost(provider: string): HostWire {
  return {
    provider,
    retention: 'episode',
    apiKeyEnv: [],
    baseURL: '',
    cacheStyle: 'none',
    minCacheableTokens: Number.POSITIVE_INFINITY,
    tokenizerFactor: 1.2,
    effortParameter: 'none',
    maxTokensField: 'max_tokens',
    contentReasoning: 'auto',
    reasoningField: 'reasoning_content',
    sendReasoningAs: 'none',
  };
}

/** The documentation fields of a host row, dropped from the profile. */
function wireOf(host: CompatibleHost): HostWire {
  const { source: _source, unverified: _unverified, familyOverrides: _overrides, ...wire } = host;
  return wire as HostWire;
}

/**
 * The profile of `family` serving `model` on `provider` (`host` is its row, if
 * any). The profile names both rows' sources and what is unverified.
 */
export function familyOnHost(
  family: ModelFamily,
  provider: string,
  model: string,
  host: CompatibleHost | undefined,
): CompatibleProfile {
  const base = host ? wireOf(host) : unknownHost(provider);
  const sendsOnThisHost = family.sendsReasoningBack && (host !== undefined || family.reasoningRequiredOnToolCalls);
  const field = family.field ?? (host ? host.sendReasoningAs : family.nativeField);
  const unverified = [family.unverified, host?.unverified, host ? undefined : `host "${provider}" has no row`]
    .filter(Boolean)
    .join('; ');
  return {
    ...base,
    provider,
    pattern: model.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'),
    family: family.name,
    contextWindow: family.contextWindow,
    maxOutputTokens: family.maxOutputTokens,
    retention: sendsOnThisHost ? family.retention : 'none',
    reasoningField: family.field ?? (host ? host.reasoningField : family.nativeField),
    sendReasoningAs: sendsOnThisHost ? field : 'none',
    reasoningRequiredOnToolCalls: sendsOnThisHost && family.reasoningRequiredOnToolCalls,
    ...(family.reasoningUntilFinal ? { reasoningUntilFinal: true } : {}),
    ...(host?.familyOverrides?.[family.name] ?? {}),
    sources: [family.source, ...(host ? [host.source] : [])],
    ...(unverified ? { unverified } : {}),
  };
}
