/**
 * Anthropic's own context management as the loopback server models it, from the docs
 * (https://platform.claude.com/docs/en/build-with-claude/context-editing and
 * .../compaction) and the vercel/ai recordings `anthropic-compaction.1.*` and
 * `anthropic-clear-*.1.*` (response shapes). Documented rules enforced:
 * - each strategy needs its beta header (`context-management-2025-06-27`, `compact-2026-01-12`);
 * - `clear_thinking_20251015` must come first when edits are combined;
 * - a compaction trigger is at least 50,000 input tokens (default 150,000);
 * - `clear_tool_uses_20250919` defaults: trigger 100,000 input tokens, keep 3 tool uses;
 *   oldest results first, excluded tools never, and nothing when fewer than
 *   `clear_at_least` tokens would go;
 * - every block before the latest compaction block is dropped before the model reads; a
 *   block with `content: null` (a failed compaction) is a no-op, `content: ""` is refused,
 *   and so is more than one block with content (the SDK's `BetaCompactionBlockParam` and
 *   `CompactionBlockAmbiguousError`);
 * - with `pause_after_compaction: true`, a call that compacts answers with the compaction
 *   block alone (`stop_reason: "compaction"`); the client sends it back to continue.
 * Error texts are ours (no recording of these rejections exists); tests match their gist.
 * Tokens are estimated as the server estimates everything: JSON characters / 4.
 */
import type { AnthropicBody, WireBlock } from './anthropic-validation.js';

const editingBeta = 'context-management-2025-06-27';
const compactionBeta = 'compact-2026-01-12';
const editingTypes = new Set(['clear_tool_uses_20250919', 'clear_thinking_20251015']);

type Edit = Record<string, unknown> & { type: string };

/** What context management did to one request: the blocks the model read, and what to report. */
export interface ManagedContext {
  /** The request as the model read it (after dropping and clearing). */
  body: AnthropicBody;
  /** `context_management.applied_edits` of the response. */
  appliedEdits: Record<string, unknown>[];
  /** Set when this call compacts: the summary block and the tokens of the compaction pass. */
  compaction?: { content: string; inputTokens: number; outputTokens: number };
  /** The compaction pauses the response (`pause_after_compaction`): nothing is sampled after it. */
  paused?: boolean;
  /** Texts of the compaction blocks the request sent back (verbatim checks). */
  compactionsSent: string[];
}

function editsOf(body: AnthropicBody): Edit[] | undefined {
  const management = body.context_management as { edits?: unknown } | undefined;
  return Array.isArray(management?.edits) ? (management.edits as Edit[]) : undefined;
}

function tokensOf(value: unknown): number {
  return Math.ceil(JSON.stringify(value ?? null).length / 4);
}

function valueOf(field: unknown, fallback: number): number {
  const value = (field as { value?: unknown } | undefined)?.value;
  return typeof value === 'number' ? value : fallback;
}

/** The problem with the request's `context_management` (and compaction blocks), or undefined. */
export function contextManagementProblem(body: AnthropicBody, headers: Record<string, string>): string | undefined {
  const betas = (headers['anthropic-beta'] ?? '').split(',').map((beta) => beta.trim());
  const edits = editsOf(body) ?? [];
  if (body.context_management !== undefined && editsOf(body) === undefined)
    return 'context_management.edits: Field required';
  for (const [index, edit] of edits.entries()) {
    if (editingTypes.has(edit.type) && !betas.includes(editingBeta))
      return `context_management.edits.${index}: ${edit.type} requires the beta header ${editingBeta}`;
    if (edit.type === 'compact_20260112') {
      if (!betas.includes(compactionBeta)) return `context_management.edits.${index}: compact_20260112 requires the beta header ${compactionBeta}`;
      if (valueOf(edit.trigger, 150_000) < 50_000) return `context_management.edits.${index}.trigger.value: must be at least 50000`;
    } else if (!editingTypes.has(edit.type)) return `context_management.edits.${index}.type: unknown edit type '${edit.type}'`;
    if (edit.type === 'clear_thinking_20251015' && index > 0)
      return 'context_management.edits: clear_thinking_20251015 must be the first edit when edits are combined';
  }
  const compacts = edits.some((edit) => edit.type === 'compact_20260112');
  const blocks = body.messages.flatMap((message) => message.content.filter((block) => block.type === 'compaction'));
  if (blocks.length > 0 && !compacts) return 'messages: a compaction block was sent without the compact_20260112 edit';
  if (blocks.some((block) => block.content === '')) return 'messages: compaction block content must be a non-empty string or null';
  if (blocks.filter(summarizes).length > 1)
    return 'messages: more than one compaction block with content; send only the block the conversation returned last';
  return undefined;
}

/** A compaction block that stands for the history before it (null content: a failed compaction, a no-op). */
function summarizes(block: WireBlock): boolean {
  return block.type === 'compaction' && typeof block.content === 'string';
}

/** Applies the request's context management: what the model reads and what the response reports. */
export function manageContext(body: AnthropicBody, issuedSummaries: ReadonlySet<string>): ManagedContext {
  const edits = editsOf(body) ?? [];
  const compactionsSent: string[] = [];
  let messages = body.messages;
  // Every block before the latest compaction block is dropped: the summary stands for it.
  const at = messages.findLastIndex((message) => message.content.some(summarizes));
  if (at !== -1) {
    const blocks = messages[at]?.content ?? [];
    const from = blocks.findLastIndex(summarizes);
    messages = [{ role: 'assistant', content: blocks.slice(from) }, ...messages.slice(at + 1)];
  }
  for (const message of body.messages)
    for (const block of message.content)
      if (summarizes(block)) compactionsSent.push(issuedSummaries.has(String(block.content)) ? String(block.content) : '[forged]');
  let view: AnthropicBody = { ...body, messages };
  const appliedEdits: Record<string, unknown>[] = [];
  for (const edit of edits) {
    if (edit.type === 'clear_thinking_20251015') view = clearThinking(view, edit, appliedEdits);
    if (edit.type === 'clear_tool_uses_20250919') view = clearToolUses(view, edit, appliedEdits);
  }
  const compact = edits.find((edit) => edit.type === 'compact_20260112');
  const total = tokensOf({ s: view.system, t: view.tools, m: view.messages });
  if (!compact || total <= valueOf(compact.trigger, 150_000)) return { body: view, appliedEdits, compactionsSent };
  const content = `Summary of ${view.messages.length} earlier messages (${total} tokens).`;
  const paused = compact.pause_after_compaction === true;
  return {
    body: view,
    appliedEdits,
    compactionsSent,
    compaction: { content, inputTokens: total, outputTokens: tokensOf(content) },
    ...(paused ? { paused } : {}),
  };
}

function clearThinking(body: AnthropicBody, edit: Edit, applied: Record<string, unknown>[]): AnthropicBody {
  const keep = edit.keep === 'all' ? Infinity : valueOf(edit.keep, 1);
  const turns = body.messages.flatMap((message, index) =>
    message.role === 'assistant' && message.content.some(isThinking) ? [index] : [],
  );
  const cleared = new Set(turns.slice(0, Math.max(0, turns.length - keep)));
  if (cleared.size === 0) return body;
  let tokens = 0;
  const messages = body.messages.map((message, index) => {
    if (!cleared.has(index)) return message;
    tokens += tokensOf(message.content.filter(isThinking));
    return { ...message, content: message.content.filter((block) => !isThinking(block)) };
  });
  applied.push({ type: 'clear_thinking_20251015', cleared_thinking_turns: cleared.size, cleared_input_tokens: tokens });
  return { ...body, messages };
}

function isThinking(block: WireBlock): boolean {
  return block.type === 'thinking' || block.type === 'redacted_thinking';
}

function clearToolUses(body: AnthropicBody, edit: Edit, applied: Record<string, unknown>[]): AnthropicBody {
  if (tokensOf({ s: body.system, t: body.tools, m: body.messages }) <= valueOf(edit.trigger, 100_000)) return body;
  const excluded = Array.isArray(edit.exclude_tools) ? (edit.exclude_tools as string[]) : [];
  const names = new Map<string, string>();
  const results: { message: number; block: number }[] = [];
  for (const [index, message] of body.messages.entries())
    for (const [position, block] of message.content.entries()) {
      if (block.type === 'tool_use') names.set(String(block.id), String(block.name));
      if (block.type === 'tool_result' && !excluded.includes(names.get(String(block.tool_use_id)) ?? ''))
        results.push({ message: index, block: position });
    }
  const clear = results.slice(0, Math.max(0, results.length - valueOf(edit.keep, 3)));
  const tokens = clear.reduce((sum, at) => sum + tokensOf(body.messages[at.message]?.content[at.block]?.content), 0);
  if (clear.length === 0 || tokens < valueOf(edit.clear_at_least, 0)) return body;
  const messages = body.messages.map((message) => ({ ...message, content: [...message.content] }));
  for (const at of clear) {
    const block = messages[at.message]?.content[at.block] as WireBlock;
    messages[at.message]!.content[at.block] = { ...block, content: '[cleared]' };
  }
  applied.push({ type: 'clear_tool_uses_20250919', cleared_tool_uses: clear.length, cleared_input_tokens: tokens });
  return { ...body, messages };
}
