/**
 * Anthropic's own context management: context editing (beta
 * `context-management-2025-06-27`, https://platform.claude.com/docs/en/build-with-claude/context-editing)
 * and server-side compaction (beta `compact-2026-01-12`,
 * https://platform.claude.com/docs/en/build-with-claude/compaction), from the neutral
 * {@link NativeContextOptions} to `context_management.edits`, and what the response
 * reports back (`context_management.applied_edits`) to {@link AppliedContextEdit}s.
 */
import type {
  BetaClearToolUses20250919Edit,
  BetaCompact20260112Edit,
  BetaContextManagementConfig,
} from '@anthropic-ai/sdk/resources/beta/messages/messages';
import type { BetaMessageParam as MessageParam } from '@anthropic-ai/sdk/resources/beta/messages/messages';
import type { AppliedContextEdit, NativeContextOptions } from '@episodic/core';

/** Beta header of context editing (`clear_tool_uses_20250919`, `clear_thinking_20251015`). */
export const CONTEXT_EDITING_BETA = 'context-management-2025-06-27';
/** Beta header of server-side compaction (`compact_20260112`). */
export const COMPACTION_BETA = 'compact-2026-01-12';
/** The API's lowest compaction trigger (input tokens); lower ones are refused. */
export const MIN_COMPACTION_TRIGGER = 50_000;

/** The `context_management` body field, the betas it needs and the options it could not send. */
export interface AnthropicContextParams {
  /** Typed with the SDK's beta params (the non-beta `MessageCreateParams` has no `context_management`). */
  contextManagement?: BetaContextManagementConfig;
  betas: string[];
  warnings: string[];
}

/**
 * The edits for `options`. `clear_thinking_20251015` goes first, as the API requires when
 * edits are combined; it is left out (with a warning) when thinking is off, since it only
 * manages thinking blocks. A compaction trigger below the API's floor is raised to it.
 */
export function anthropicContextParams(
  options: NativeContextOptions | undefined,
  thinkingOn: boolean,
): AnthropicContextParams {
  const result: AnthropicContextParams = { betas: [], warnings: [] };
  if (!options) return result;
  const edits: NonNullable<BetaContextManagementConfig['edits']> = [];
  if (options.clearThinking && thinkingOn) {
    const { keep } = options.clearThinking;
    edits.push({ type: 'clear_thinking_20251015', keep: keep === 'all' ? 'all' : { type: 'thinking_turns', value: keep } });
  } else if (options.clearThinking) {
    result.warnings.push('anthropic: nativeContext.clearThinking needs thinking on; not sent.');
  }
  if (options.clearToolUses) edits.push(clearToolUsesEdit(options.clearToolUses));
  if (edits.length > 0) result.betas.push(CONTEXT_EDITING_BETA);
  if (options.compaction) {
    edits.push(compactionEdit(options.compaction, result.warnings));
    result.betas.push(COMPACTION_BETA);
  }
  if (options.reasoningContext !== undefined)
    result.warnings.push('anthropic: nativeContext.reasoningContext is an OpenAI Responses option; not sent.');
  if (edits.length > 0) result.contextManagement = { edits };
  return result;
}

function clearToolUsesEdit(options: NonNullable<NativeContextOptions['clearToolUses']>): BetaClearToolUses20250919Edit {
  return {
    type: 'clear_tool_uses_20250919',
    ...(options.trigger === undefined ? {} : { trigger: { type: 'input_tokens', value: options.trigger } }),
    ...(options.keep === undefined ? {} : { keep: { type: 'tool_uses', value: options.keep } }),
    ...(options.clearAtLeast === undefined ? {} : { clear_at_least: { type: 'input_tokens', value: options.clearAtLeast } }),
    ...(options.excludeTools === undefined ? {} : { exclude_tools: [...options.excludeTools] }),
    ...(options.clearInputs === undefined ? {} : { clear_tool_inputs: options.clearInputs }),
  };
}

function compactionEdit(options: NonNullable<NativeContextOptions['compaction']>, warnings: string[]): BetaCompact20260112Edit {
  let threshold = options.threshold;
  if (threshold !== undefined && threshold < MIN_COMPACTION_TRIGGER) {
    warnings.push(`anthropic: a compaction threshold of ${threshold} is below the API's minimum; ${MIN_COMPACTION_TRIGGER} sent.`);
    threshold = MIN_COMPACTION_TRIGGER;
  }
  return {
    type: 'compact_20260112',
    ...(threshold === undefined ? {} : { trigger: { type: 'input_tokens', value: threshold } }),
    ...(options.instructions === undefined ? {} : { instructions: options.instructions }),
    ...(options.pauseAfter ? { pause_after_compaction: true } : {}),
  };
}

/**
 * The native options for a request whose messages carry a server-side compaction block
 * (`carriesBlock`) but that asks for no threshold compaction: a session compacted with
 * `compact_20260112` (an earlier release's default, or `onDemand: false`) and reopened where
 * the model compacts on demand. The API reads such a block only under the `compact_20260112`
 * edit, so the edit goes along with its trigger at the model's context window, where it
 * never compacts again (on-demand compaction, if any, stays the agent's).
 */
export function withBlockCompaction(
  options: NativeContextOptions | undefined,
  carriesBlock: boolean,
  contextWindow: number,
): NativeContextOptions | undefined {
  if (!carriesBlock || options?.compaction) return options;
  return { ...options, compaction: { threshold: Math.max(MIN_COMPACTION_TRIGGER, contextWindow) } };
}

/** True when `messages` carry a compaction block that stands for what came before it (content, not the no-op null). */
export function carriesCompactionBlock(messages: readonly MessageParam[]): boolean {
  return messages.some(
    (message) => Array.isArray(message.content) && message.content.some((block) => block.type === 'compaction' && typeof block.content === 'string'),
  );
}

/**
 * `applied_edits` as neutral records. The API reports counts, not which tool uses it
 * cleared; by its documented rule it clears the oldest results first and never those of
 * excluded tools, so the ids are the first `cleared_tool_uses` such results of `sent`.
 */
export function appliedContextEdits(
  applied: unknown,
  sent: readonly MessageParam[],
  options: NativeContextOptions | undefined,
): AppliedContextEdit[] {
  if (!Array.isArray(applied)) return [];
  return applied.flatMap((raw): AppliedContextEdit[] => {
    if (typeof raw !== 'object' || raw === null) return [];
    const edit = raw as Record<string, unknown>;
    const record: AppliedContextEdit = { type: String(edit.type), clearedInputTokens: count(edit.cleared_input_tokens) };
    if (typeof edit.cleared_tool_uses === 'number') {
      record.clearedToolUses = edit.cleared_tool_uses;
      record.toolCallIds = oldestResults(sent, options?.clearToolUses?.excludeTools ?? []).slice(0, edit.cleared_tool_uses);
    }
    if (typeof edit.cleared_thinking_turns === 'number') record.clearedThinkingTurns = edit.cleared_thinking_turns;
    return [record];
  });
}

function count(value: unknown): number {
  return typeof value === 'number' && value >= 0 ? Math.floor(value) : 0;
}

/** Ids of the tool results in `sent`, oldest first, leaving out results of `excluded` tools. */
function oldestResults(sent: readonly MessageParam[], excluded: readonly string[]): string[] {
  const names = new Map<string, string>();
  const ids: string[] = [];
  for (const message of sent) {
    if (!Array.isArray(message.content)) continue;
    for (const block of message.content) {
      if (block.type === 'tool_use') names.set(block.id, block.name);
      else if (block.type === 'tool_result' && !excluded.includes(names.get(block.tool_use_id) ?? '')) ids.push(block.tool_use_id);
    }
  }
  return ids;
}
