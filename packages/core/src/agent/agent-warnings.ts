/**
 * The warnings an `Agent` gives once, when it is made, about settings that will not do
 * what they seem to: a budget above the model's window, a hybrid context policy with
 * nothing native to send (for the model, or for a fallback model when it answers), a
 * native option its policy does not send, an option under its deprecated name.
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

/**
 * The warning for `context.native` options the policy does not send: `packer` sends
 * nothing native and `hybrid` only compaction, so e.g. `reasoningContext` (OpenAI
 * `reasoning.context`) or Anthropic's context edits given with them would be left out
 * without a word. One warning naming every such option.
 */
export function unsentNativeWarnings(policy: ContextPolicy, given: NativeContextOptions | undefined): string[] {
  if (policy === 'native' || given === undefined) return [];
  const unsent = Object.entries(given)
    .filter(([key, value]) => value !== undefined && (policy === 'packer' || key !== 'compaction'))
    .map(([key]) => `context.native.${key}`);
  if (unsent.length === 0) return [];
  const sends = policy === 'packer' ? 'nothing native' : 'only compaction';
  return [
    `${unsent.join(', ')} ${unsent.length > 1 ? 'are' : 'is'} not sent: context '${policy}' sends ${sends}; ` +
      `use the policy 'native' to send ${unsent.length > 1 ? 'them' : 'it'}, or leave ${unsent.length > 1 ? 'them' : 'it'} out.`,
  ];
}

/** A warning about an agent's options, with the code of its `warning` event. */
export interface OptionWarning {
  code:
    | 'budget-above-context-window'
    | 'hybrid-without-compaction'
    | 'hybrid-fallback-without-compaction'
    | 'native-option-not-sent'
    | 'deprecated-option';
  message: string;
}

/**
 * The budget and native-context warnings of an agent, coded. `nativeContext` is what the
 * policy asks for before on-demand compaction takes the threshold's place; `givenNative`
 * is `context.native` as the caller gave it; `fallbacks` are the fallback models' own
 * native settings.
 */
export function optionWarnings(
  budget: number | undefined,
  model: ModelAdapter,
  resolved: {
    maxOutputTokens: number | undefined;
    policy: ContextPolicy;
    nativeContext: NativeContextOptions | undefined;
    givenNative?: NativeContextOptions | undefined;
  },
  fallbacks: readonly { model: ModelRef; nativeContext: NativeContextOptions | undefined }[] = [],
): OptionWarning[] {
  return [
    ...budgetWarnings(budget, model, resolved.maxOutputTokens).map((message) => ({ code: 'budget-above-context-window' as const, message })),
    ...hybridWarnings(resolved.policy, resolved.nativeContext, model).map((message) => ({ code: 'hybrid-without-compaction' as const, message })),
    ...fallbackHybridWarnings(resolved.policy, fallbacks).map((message) => ({ code: 'hybrid-fallback-without-compaction' as const, message })),
    ...unsentNativeWarnings(resolved.policy, resolved.givenNative).map((message) => ({ code: 'native-option-not-sent' as const, message })),
  ];
}

/** The deprecation warnings of an agent (see agent-options-deprecated.ts), coded. */
export function deprecationWarnings(messages: readonly string[]): OptionWarning[] {
  return messages.map((message) => ({ code: 'deprecated-option', message }));
}
