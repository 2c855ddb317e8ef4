/**
 * Anthropic's rule for thinking on a continued tool-use turn
 * (https://docs.claude.com/en/docs/build-with-claude/extended-thinking): while thinking
 * is on, the last assistant turn before the tool results being answered must start
 * with a thinking block of this model. A turn produced by another model (its thinking
 * was left out) or with thinking off has none, and the API rejects the call. Episodic's
 * native Anthropic adapter turns thinking off for such a step; `fromAISDK` does the
 * same to the AI SDK `providerOptions` it sends, with a warning.
 */
import type { AISDKProviderOptions, LooseMessage } from './ai-sdk-types.js';

/** True when the part is an Anthropic thinking block the AI SDK can send (signed, or redacted). */
function isThinkingBlock(part: { type: string; providerOptions?: AISDKProviderOptions } | undefined): boolean {
  const anthropic = part?.providerOptions?.anthropic;
  return part?.type === 'reasoning' && (anthropic?.signature !== undefined || anthropic?.redactedData !== undefined);
}

/**
 * `providerOptions` with Anthropic thinking off when the prompt continues a tool-use turn
 * whose assistant turn starts with no thinking block; the options unchanged otherwise.
 */
export function guardAnthropicThinking(
  prompt: readonly LooseMessage[],
  providerOptions: AISDKProviderOptions | undefined,
  warnings: string[],
): AISDKProviderOptions | undefined {
  const thinking = providerOptions?.anthropic?.thinking as { type?: string } | undefined;
  if (!thinking || thinking.type === 'disabled' || prompt.at(-1)?.role !== 'tool') return providerOptions;
  const turn = prompt.findLast((message) => message.role === 'assistant');
  const first = Array.isArray(turn?.content) ? turn.content[0] : undefined;
  if (!turn || isThinkingBlock(first)) return providerOptions;
  warnings.push(
    'anthropic: thinking is off for this step: the tool-use turn it continues has no thinking block of this model ' +
      '(produced by another model, or with thinking off), and the API rejects that turn while thinking is on.',
  );
  const { thinking: _off, ...anthropic } = providerOptions?.anthropic ?? {};
  return { ...providerOptions, anthropic };
}
