/**
 * The Episodic provider and profile of an AI SDK model, from its `provider` string
 * (`anthropic.messages`, `openai.responses`, `google.generative-ai`, `azure.responses`,
 * `vertex.anthropic.messages`, `amazon-bedrock`, ...) and its model id. The AI SDK
 * names the API a model speaks; Episodic's profiles are per vendor, so the vendor is
 * read from the name (and, on hosts that serve several vendors, from the model id).
 */
import type { ModelProfile, ModelRef } from '@episodic/core';
import { resolveProfile } from '@episodic/providers';

/** AI SDK provider name prefixes to the Episodic provider whose profiles apply, most specific first. */
const vendorByPrefix: readonly (readonly [RegExp, string])[] = [
  [/^(?:google\.)?vertex\.anthropic\b/, 'anthropic'],
  [/^anthropic\b/, 'anthropic'],
  [/^(?:openai|azure)\b/, 'openai'],
  [/^google\b|^vertex\b/, 'google'],
  [/^deepseek\b/, 'deepseek'],
  [/^groq\b/, 'groq'],
  [/^cerebras\b/, 'cerebras'],
  [/^togetherai\b/, 'together'],
  [/^fireworks\b/, 'fireworks'],
  [/^deepinfra\b/, 'deepinfra'],
  [/^moonshotai\b/, 'moonshot'],
];

/**
 * Bedrock and other hosts name the vendor in the model id, after an optional inference
 * profile's region (`us.`, `eu.`, `apac.`, `us-gov.`, `global.`): `us.anthropic.claude-sonnet-4-6`,
 * `global.anthropic.claude-opus-4-8`, `anthropic.claude-opus-4-6-v1`.
 */
const vendorInId = /^(?:[a-z]+(?:-[a-z]+)?\.)?(anthropic|openai|google)\.(.+?)(?:-v\d+(?::\d+)?)?$/;

/** The Episodic model reference of an AI SDK model: the vendor whose profile applies, and the id its profiles match. */
export function modelRefOf(model: { provider: string; modelId: string }): ModelRef {
  const inId = vendorInId.exec(model.modelId);
  if (inId && /bedrock/.test(model.provider)) return { provider: inId[1] as string, id: inId[2] as string };
  const vendor = vendorByPrefix.find(([pattern]) => pattern.test(model.provider))?.[1];
  return { provider: vendor ?? model.provider.split('.')[0] ?? model.provider, id: model.modelId };
}

/** The profile of an AI SDK model (see {@link modelRefOf}), with `overrides` over it field by field. */
export function profileOf(model: { provider: string; modelId: string }, overrides: Partial<ModelProfile> = {}): ModelProfile {
  const ref = modelRefOf(model);
  return resolveProfile(ref.provider, ref.id, overrides);
}
