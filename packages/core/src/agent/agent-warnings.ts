/**
 * The warnings an `Agent` gives once, when it is made, about settings that will not do
 * what they seem to: a budget above the model's window, a hybrid context policy with
 * nothing native to send (for the model, or for a fallback model when it answers), an
 * option under its deprecated name.
 */
import type { ModelAdapter } from '../model/model-adapter.js';
import type { ModelRef } from '../message/message.js';
import type { ContextPolicy, NativeContextOptions } from '../model/native-context.js';

/**
 * The warning for a `budget` above the model's context window. The budget is kept as
 * given (the packer packs up to it, as it always has); the warning says that calls
 * past the window will be refused and what budget fits.
 */
export function budgetWarnings(budget: number | undefined, model: ModelAdapter, maxOutputTokens: number | undefined): string[] {
  const window = model.profile?.contextWindow;
  if (budget === undefined || window === undefined || budget <= window) return [];
  const fits = window - (maxOutputTokens ?? 0);
  const n = (value: number) => value.toLocaleString('en-US');
  return [
    `context.budget ${n(budget)} is above the context window of ${model.model.provider}/${model.model.id} (${n(window)} tokens): ` +
      `the packer packs up to the budget, and a call past the window will be refused; pass at most ${n(fits)} ` +
      `(the window minus max output) or leave it unset.`,
  ];
}

/**
 * The warning for `context: 'hybrid'` when nothing native would be sent: the model's
 * profile names no server-side compaction (or the default threshold falls below the
 * provider's floor), so the packer alone manages the context.
 */
export function hybridWarnings(policy: ContextPolicy, native: NativeContextOptions | undefined, model: ModelAdapter): string[] {
  if (policy !== 'hybrid' || native?.compaction) return [];
  return [
    `context 'hybrid': ${model.model.provider}/${model.model.id} sends no server-side compaction (its profile names none, ` +
      `or the default threshold is below the provider's floor), so the packer alone manages the context; ` +
      `pass context.native.compaction with a threshold to send it, or use the policy 'packer'.`,
  ];
}

/**
 * The warning for `context: 'hybrid'` with fallback models that cannot send what it asks:
 * a fallback whose profile names no server-side compaction gets none while it answers
 * (its calls take its own profile's context management), so the packer alone manages the
 * context for those steps. One warning naming every such model.
 */
export function fallbackHybridWarnings(
  policy: ContextPolicy,
  fallbacks: readonly { model: ModelRef; nativeContext: NativeContextOptions | undefined }[],
): string[] {
  if (policy !== 'hybrid') return [];
  const without = fallbacks.filter((entry) => !entry.nativeContext?.compaction).map((entry) => `${entry.model.provider}/${entry.model.id}`);
  if (without.length === 0) return [];
  return [
    `context 'hybrid': fallback model${without.length > 1 ? 's' : ''} ${without.join(', ')} send${without.length > 1 ? '' : 's'} no ` +
      `server-side compaction (no compaction in the profile, or its default threshold is below the provider's floor), so ` +
      `while one answers the packer alone manages the context; give it a profile with nativeContext.compaction, or choose ` +
      `a fallback model that compacts.`,
  ];
}

/** A warning about an agent's options, with the code of its `warning` event. */
export interface OptionWarning {
  code: 'budget-above-context-window' | 'hybrid-without-compaction' | 'hybrid-fallback-without-compaction' | 'deprecated-option';
  message: string;
}

/**
 * The budget and hybrid warnings of an agent, coded. `nativeContext` is what the policy
 * asks for before on-demand compaction takes the threshold's place; `fallbacks` are the
 * fallback models' own native settings.
 */
export function optionWarnings(
  budget: number | undefined,
  model: ModelAdapter,
  resolved: { maxOutputTokens: number | undefined; policy: ContextPolicy; nativeContext: NativeContextOptions | undefined },
  fallbacks: readonly { model: ModelRef; nativeContext: NativeContextOptions | undefined }[] = [],
): OptionWarning[] {
  return [
    ...budgetWarnings(budget, model, resolved.maxOutputTokens).map((message) => ({ code: 'budget-above-context-window' as const, message })),
    ...hybridWarnings(resolved.policy, resolved.nativeContext, model).map((message) => ({ code: 'hybrid-without-compaction' as const, message })),
    ...fallbackHybridWarnings(resolved.policy, fallbacks).map((message) => ({ code: 'hybrid-fallback-without-compaction' as const, message })),
  ];
}

/** The deprecation warnings of an agent (see agent-options-deprecated.ts), coded. */
export function deprecationWarnings(messages: readonly string[]): OptionWarning[] {
  return messages.map((message) => ({ code: 'deprecated-option', message }));
}
