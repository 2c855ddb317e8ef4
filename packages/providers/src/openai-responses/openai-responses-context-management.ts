/**
 * OpenAI's own context management on the Responses API, from the neutral
 * {@link NativeContextOptions}: `reasoning.context` (which past reasoning the model
 * reads; GPT-5.6 and later, https://platform.openai.com/docs/api-reference/responses/create)
 * and server-side compaction, `context_management: [{type: 'compaction', compact_threshold}]`
 * (https://developers.openai.com/api/docs/guides/compaction): past the threshold the
 * response carries an opaque `compaction` item that goes back verbatim in later inputs.
 */
import type { NativeContextOptions } from '@episodic/core';
import type { ResponseCreateParamsStreaming } from 'openai/resources/responses/responses';

/** The body fields for `options`, and the options the Responses API has no field for. */
export interface OpenAIContextParams {
  reasoningContext?: 'auto' | 'current_turn' | 'all_turns';
  contextManagement?: ResponseCreateParamsStreaming['context_management'];
  warnings: string[];
}

const reasoningContexts = { auto: 'auto', 'current-turn': 'current_turn', 'all-turns': 'all_turns' } as const;

/** Maps the options; `reasoningContext` only where the model reasons. */
export function openAIContextParams(options: NativeContextOptions | undefined, reasons: boolean): OpenAIContextParams {
  const result: OpenAIContextParams = { warnings: [] };
  if (!options) return result;
  if (options.reasoningContext !== undefined) {
    if (reasons) result.reasoningContext = reasoningContexts[options.reasoningContext];
    else result.warnings.push('openai-responses: the model does not reason; nativeContext.reasoningContext not sent.');
  }
  if (options.compaction) {
    const threshold = options.compaction.threshold;
    result.contextManagement = [{ type: 'compaction', ...(threshold === undefined ? {} : { compact_threshold: threshold }) }];
    if (options.compaction.instructions !== undefined)
      result.warnings.push('openai-responses: compaction takes no instructions on this API; nativeContext.compaction.instructions not sent.');
  }
  if (options.clearToolUses || options.clearThinking)
    result.warnings.push('openai-responses: clearToolUses and clearThinking are Anthropic context edits; not sent.');
  return result;
}
