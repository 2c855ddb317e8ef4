/**
 * Anthropic on-demand compaction (beta `compact-2026-09-04`,
 * https://platform.claude.com/docs/en/build-with-claude/compaction-on-demand, read 2026-12-05;
 * the SDK's `BetaCompactionConfig`): the compaction request, and what a later request that
 * carries its block needs. Core decides when to compact and what the block replaces
 * (`OnDemandCompactor`); this module only speaks the wire.
 *
 * - The compaction request is an ordinary Messages request of the conversation with
 *   `compaction: {type: "summarize", instructions?}` and the beta header. It cannot carry
 *   `context_management`, and the API refuses `stop_sequences`, a structured-output
 *   `output_config.format` and a `tool_choice` of type `any` or `tool` on it; the same
 *   model, system, tools and thinking settings as the conversation's calls are sent.
 * - The answer is the `compaction` block alone (`stop_reason: "compaction"`; streamed, it
 *   comes whole in `content_block_start`). Any other stop reason, or a block with null
 *   content, is no summary: a 200 that is still billed (`usage.iterations`).
 * - Every later request that carries the block sends the beta header too, and no
 *   `compact_20260112` edit (the API runs no threshold compaction on a request that
 *   carries a signed block).
 */
import type { BetaCompactionConfig } from '@anthropic-ai/sdk/resources/beta/messages/messages';
import type { MessageCreateParamsStreaming } from '@anthropic-ai/sdk/resources/beta/messages/messages';
import { type AssistantMessage, type CompactionPart, ModelError, type ModelRef, type ModelRequest, type ModelStreamEvent, type Usage } from '@episodic/core';
import { providerDataFor } from '../shared/provider-data.js';

/** Beta header of on-demand compaction: on the compaction request and on every request that carries its block. */
export const ON_DEMAND_COMPACTION_BETA = 'compact-2026-09-04';

/** True when `request` sends an on-demand compaction block `model` made (core puts it first). */
export function carriesOnDemandBlock(request: ModelRequest, model: ModelRef): boolean {
  return request.messages.some(
    (message) =>
      message.role === 'assistant' &&
      message.content.some(
        (part) =>
          part.type === 'compaction' &&
          typeof part.summarizedMessages === 'number' &&
          part.failed !== true &&
          part.providerData?.provider === model.provider &&
          part.providerData?.model === model.id,
      ),
  );
}

/** `request` without what the compaction request cannot carry; its summarization prompt taken out. */
export function compactionSource(request: ModelRequest): { request: ModelRequest; instructions: string | undefined } {
  const { nativeContext, output: _output, ...rest } = request;
  const instructions = nativeContext?.compaction?.instructions;
  return { request: rest, instructions: instructions?.trim() ? instructions : undefined };
}

/**
 * The compaction request's body: the conversation's body with `compaction` set, and
 * without the fields the API refuses alongside it (see the module comment).
 */
export function compactionBody(body: MessageCreateParamsStreaming, instructions: string | undefined): MessageCreateParamsStreaming {
  const { stop_sequences: _stops, tool_choice: choice, output_config: config, context_management: _management, ...rest } = body;
  const { format: _format, ...effort } = config ?? {};
  const keptChoice = choice && choice.type !== 'any' && choice.type !== 'tool' ? { tool_choice: choice } : {};
  const compaction: BetaCompactionConfig = { type: 'summarize', ...(instructions === undefined ? {} : { instructions }) };
  return {
    ...rest,
    ...keptChoice,
    ...(Object.keys(effort).length > 0 ? { output_config: effort } : {}),
    compaction,
  };
}

/** The header set with the on-demand beta added to whatever `anthropic-beta` already holds. */
export function withOnDemandBeta(headers: Record<string, string>): Record<string, string> {
  const betas = (headers['anthropic-beta'] ?? '').split(',').filter((beta) => beta.length > 0);
  return { ...headers, 'anthropic-beta': [...new Set([...betas, ON_DEMAND_COMPACTION_BETA])].join(',') };
}

/**
 * The compaction call's answer from its mapped stream: the message with its one
 * compaction part, or (no summary came) a failed part that says the stop reason, and
 * the call's usage, whose compaction pass is billed either way.
 */
export async function compactionAnswer(
  events: AsyncIterable<ModelStreamEvent>,
  model: ModelRef,
): Promise<{ message: AssistantMessage; usage: Usage }> {
  for await (const event of events) {
    if (event.type !== 'finish') continue;
    const block = event.message.content.find((part): part is CompactionPart => part.type === 'compaction');
    const part: CompactionPart =
      block ?? { type: 'compaction', failed: true, providerData: providerDataFor(model, { stopReason: event.stopReason }) };
    return { message: { ...event.message, content: [part] }, usage: event.usage };
  }
  throw new ModelError('protocol', 'anthropic: the compaction stream ended without a finish event; retry the call.', { retryable: true });
}
