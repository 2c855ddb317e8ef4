/**
 * The `thinking` request fields from the profile
 * (https://docs.claude.com/en/docs/build-with-claude/extended-thinking and
 * https://docs.claude.com/en/docs/build-with-claude/adaptive-thinking):
 * manual `enabled` + `budget_tokens` on older models (with the interleaved-thinking
 * beta), `adaptive` + `output_config.effort` on newer ones.
 */
import type { BetaThinkingBlockBinding } from '@anthropic-ai/sdk/resources/beta/messages/messages';
import type {
  BetaOutputConfig as OutputConfig,
  BetaThinkingConfigParam as ThinkingConfigParam,
} from '@anthropic-ai/sdk/resources/beta/messages/messages';
import type { AnthropicThinkingSetting } from '../profiles/anthropic.js';
import { thinkingBindingBeta } from './anthropic-input-transformations.js';

export interface ThinkingParams {
  /** With `block_binding` when the model binds its thinking. */
  thinking?: ThinkingConfigParam;
  output_config?: OutputConfig;
  maxTokens: number;
  /** `anthropic-beta` values this request needs. */
  betas: string[];
  warnings: string[];
}

const minimumBudget = 1024;
const interleavedBeta = 'interleaved-thinking-2025-05-14';

/**
 * Why a tool-use turn being continued has no thinking block to start with: it was
 * produced by another model (whose thinking cannot be sent), or it simply has none
 * (produced with thinking off, or history brought without thinking blocks).
 */
export type MissingThinkingCause = 'other-model' | 'no-thinking';

const missingThinkingReasons: Record<MissingThinkingCause, string> = {
  'other-model': 'has no thinking block of this model (it was produced by another model)',
  'no-thinking': 'has no thinking block (it was produced with thinking off, or without thinking blocks)',
};

/**
 * Builds the thinking fields. `forceOff` is set, with its cause, when the request
 * continues a tool-use turn whose last assistant turn has no thinking block of this
 * model: manual mode would reject it, so thinking is off for this call.
 * `lostThinking` is set when that turn had thinking blocks that cannot be sent
 * (another model's, or prefix-bound ones whose prefix changed): any mode would
 * reject the turn without them, so thinking is off for this call too.
 */
export function buildThinkingParams(
  setting: AnthropicThinkingSetting,
  maxTokens: number,
  options: {
    betaHeaders: readonly string[];
    forceOff: MissingThinkingCause | false;
    lostThinking?: boolean;
    /** `thinking.block_binding.prefix_mismatch_behavior` for a model that binds its thinking; none when undefined. */
    binding?: BetaThinkingBlockBinding['prefix_mismatch_behavior'];
  },
): ThinkingParams {
  return withBinding(thinkingParams(setting, maxTokens, options), options.binding);
}

/**
 * `params` with `block_binding` and its beta when thinking is on: the field lives in the
 * `thinking` object, so with thinking off there is nothing to choose.
 */
function withBinding(params: ThinkingParams, binding: BetaThinkingBlockBinding['prefix_mismatch_behavior'] | undefined): ThinkingParams {
  const thinking = params.thinking;
  if (!binding || (thinking?.type !== 'enabled' && thinking?.type !== 'adaptive')) return params;
  return {
    ...params,
    thinking: { ...thinking, block_binding: { prefix_mismatch_behavior: binding } },
    betas: [...params.betas, thinkingBindingBeta],
  };
}

function thinkingParams(
  setting: AnthropicThinkingSetting,
  maxTokens: number,
  options: { betaHeaders: readonly string[]; forceOff: MissingThinkingCause | false; lostThinking?: boolean },
): ThinkingParams {
  const base: ThinkingParams = { maxTokens, betas: [], warnings: [] };
  if (setting.type === 'disabled') return base;
  if (options.lostThinking) {
    base.warnings.push(
      'anthropic: thinking is off for this step: the tool-use turn it continues lost its thinking blocks (produced by another model, or the prefix they are signed with changed), and the API rejects that turn without them while thinking is on.',
    );
    return base;
  }
  if (setting.type === 'adaptive') {
    const display = setting.display ? { display: setting.display } : {};
    return {
      ...base,
      thinking: { type: 'adaptive', ...display },
      ...(setting.effort ? { output_config: { effort: setting.effort } } : {}),
    };
  }
  if (options.forceOff) {
    base.warnings.push(
      `anthropic: thinking is off for this step: the tool-use turn it continues ${missingThinkingReasons[options.forceOff]}, and manual thinking mode would reject it.`,
    );
    return base;
  }
  const interleaved = options.betaHeaders.includes(interleavedBeta);
  // Without the interleaved beta the budget must stay below max_tokens.
  const budget = interleaved ? setting.budgetTokens : Math.min(setting.budgetTokens, maxTokens - 1);
  if (budget < minimumBudget) {
    base.warnings.push(
      `anthropic: thinking is off for this step: max_tokens ${maxTokens} leaves no room for the minimum thinking budget of ${minimumBudget}.`,
    );
    return base;
  }
  const display = setting.display ? { display: setting.display } : {};
  return {
    ...base,
    thinking: { type: 'enabled', budget_tokens: budget, ...display },
    betas: [...options.betaHeaders],
  };
}
