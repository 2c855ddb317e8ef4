/**
 * The profile an Anthropic adapter runs with: the table entry for the model,
 * user overrides on top, and Anthropic-specific fields checked and defaulted.
 */
import { InvalidArgumentError, type ModelProfile } from '@episodic/core';
import { type AnthropicModelProfile, type AnthropicThinkingSetting, midConversationSystemModels } from './anthropic.js';
import { resolveProfile } from './index.js';
import { anthropicToolCallIdRule, type ToolCallIdRule } from '../shared/tool-call-id.js';

function isThinkingSetting(value: unknown): value is AnthropicThinkingSetting {
  if (typeof value !== 'object' || value === null) return false;
  const type = (value as { type?: unknown }).type;
  if (type === 'enabled') return typeof (value as { budgetTokens?: unknown }).budgetTokens === 'number';
  return type === 'adaptive' || type === 'disabled';
}

function isToolCallIdRule(value: unknown): value is ToolCallIdRule {
  const rule = value as Partial<ToolCallIdRule> | undefined;
  return typeof rule?.allowed === 'string' && typeof rule.maxLength === 'number';
}

const midConversationSystemPattern = new RegExp(`^(?:${midConversationSystemModels})(?:-\\d{8})?$`);

/** Resolves the profile for `model`; `thinking` overrides the profile's thinking setting. */
export function resolveAnthropicProfile(
  model: string,
  overrides: Partial<ModelProfile> = {},
  thinking?: AnthropicThinkingSetting,
): AnthropicModelProfile {
  const profile = resolveProfile('anthropic', model, overrides);
  const chosen = thinking ?? profile.thinking ?? { type: 'adaptive' };
  if (!isThinkingSetting(chosen))
    throw new InvalidArgumentError(
      `Anthropic thinking setting for ${model} must be {type:'enabled', budgetTokens}, {type:'adaptive'} or {type:'disabled'}.`,
    );
  return {
    ...profile,
    thinking: chosen,
    betaHeaders: Array.isArray(profile.betaHeaders) ? profile.betaHeaders.map(String) : [],
    signatureBoundToPrefix: profile.signatureBoundToPrefix === true,
    toolCallId: isToolCallIdRule(profile.toolCallId) ? profile.toolCallId : anthropicToolCallIdRule,
    cacheTtl: profile.cacheTtl === '1h' ? '1h' : '5m',
    // The breakpoints' TTL is the cache's lifetime (an override of `cacheTtl` moves both).
    cacheTtlSeconds: profile.cacheTtl === '1h' ? 3600 : 300,
    midConversationSystem:
      typeof profile.midConversationSystem === 'boolean' ? profile.midConversationSystem : midConversationSystemPattern.test(model),
  };
}
