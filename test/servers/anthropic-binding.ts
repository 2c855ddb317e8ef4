/**
 * Preserved thinking on the strict Anthropic server (docs/providers.md, "Bound thinking"):
 * the `thinking.block_binding` controls and their beta, the blocks `drop_block` leaves
 * out (reported as `input_transformations`), and per-request figures for tests: how many
 * thinking blocks were checked, how many failed, and whether a tool-result continuation
 * lost its last turn's thinking (sent without the blocks this server issued with it).
 */
import { canonicalJson } from './scripted-server.js';
import {
  type AnthropicBody,
  type IssuedThinking,
  lastTurn,
  prefixKey,
  type SignatureCheck,
  type WireBlock,
  type WireMessage,
} from './anthropic-validation.js';

/** The beta that allows `thinking.block_binding` and adds `input_transformations`. */
export const bindingBeta = 'thinking-binding-controls-2026-08-01';

/** One `input_transformations` entry (the SDK's `BetaThinkingDroppedInputTransformation`). */
export interface DroppedBlock {
  type: 'thinking_dropped';
  path: string;
  reason: 'prefix_binding_mismatch';
}

/** What the binding check found in one request. */
export interface BindingView {
  /** Thinking blocks sent, and those that failed the prefix check (bound models only). */
  checkedBlocks: number;
  failedBlocks: number;
  /** True when the request ends with tool results and its last assistant turn went without the thinking issued with it. */
  lostLastThinking: boolean;
  /** Thinking blocks issued with the last assistant turn of a tool-result continuation (0 otherwise). */
  lastTurnBlocks: number;
  /** Signatures of blocks issued with a step of the current turn (since the last real user message) not sent, or not valid. */
  leftOut: string[];
}

const isThinking = (block: WireBlock) => block.type === 'thinking' || block.type === 'redacted_thinking';

/** A refusal for the controls themselves (wording unverified: the docs say only that the header must arrive). */
export function bindingControlsProblem(body: AnthropicBody, headers: Record<string, string>): string | undefined {
  const binding = (body.thinking as { block_binding?: { prefix_mismatch_behavior?: unknown } } | undefined)?.block_binding;
  if (binding === undefined || binding === null) return undefined;
  if (!(headers['anthropic-beta'] ?? '').split(',').includes(bindingBeta))
    return `thinking.block_binding: this field needs the \`anthropic-beta: ${bindingBeta}\` header.`;
  const behavior = binding.prefix_mismatch_behavior;
  if (behavior !== undefined && behavior !== null && behavior !== 'error' && behavior !== 'drop_block')
    return `thinking.block_binding.prefix_mismatch_behavior: Input should be 'error' or 'drop_block'`;
  return undefined;
}

/** True when the request asks the API to drop blocks that fail the prefix check instead of refusing it. */
export function dropsMismatches(body: AnthropicBody): boolean {
  const binding = (body.thinking as { block_binding?: { prefix_mismatch_behavior?: unknown } } | undefined)?.block_binding;
  return binding?.prefix_mismatch_behavior === 'drop_block';
}

/**
 * With `drop_block` on a bound model: the body without the first block that fails the
 * prefix check and every thinking block after it (the docs: a changed prefix makes that
 * block and every later one invalid), and the entries that report them.
 */
export function dropFailedBlocks(body: AnthropicBody, signatures: SignatureCheck): { body: AnthropicBody; dropped: DroppedBlock[] } {
  if (!signatures.bound(body.model) || !dropsMismatches(body)) return { body, dropped: [] };
  const dropped: DroppedBlock[] = [];
  let failed = false;
  const messages = body.messages.map((message, index): WireMessage => {
    const content = message.content.filter((block, position) => {
      if (!isThinking(block)) return true;
      failed ||= !signedFor(body, index, block, signatures);
      if (failed) dropped.push({ type: 'thinking_dropped', path: `messages.${index}.content.${position}`, reason: 'prefix_binding_mismatch' });
      return !failed;
    });
    return { ...message, content };
  });
  return { body: { ...body, messages }, dropped };
}

function signedFor(body: AnthropicBody, index: number, block: WireBlock, signatures: SignatureCheck): boolean {
  const prefix = prefixKey(body, index);
  return block.type === 'thinking'
    ? signatures.valid(body.model, block.thinking ?? '', block.signature ?? '', prefix)
    : signatures.valid(body.model, '[redacted]', block.data ?? '', prefix);
}

/** The binding figures of a request as the model reads it (after any drops). */
export function bindingView(
  body: AnthropicBody,
  signatures: SignatureCheck,
  issued: Map<string, { model: string; blocks: IssuedThinking[] }>,
): BindingView {
  let checkedBlocks = 0;
  let failedBlocks = 0;
  body.messages.forEach((message, index) => {
    for (const block of message.content.filter(isThinking)) {
      checkedBlocks += 1;
      if (signatures.bound(body.model) && !signedFor(body, index, block, signatures)) failedBlocks += 1;
    }
  });
  const last = lastTurn(body);
  const continues = last?.role === 'user' && last.content.length > 0 && last.content.every((block) => block.type === 'tool_result');
  const final = continues ? body.messages.findLast((message) => message.role === 'assistant') : undefined;
  const toolUse = final?.content.find((block) => block.type === 'tool_use');
  const blocks = toolUse?.id ? (issued.get(toolUse.id)?.blocks ?? []) : [];
  const sent = (final?.content ?? []).filter(isThinking).map((block) =>
    block.type === 'thinking'
      ? { type: block.type, thinking: block.thinking, signature: block.signature }
      : { type: block.type, data: block.data },
  );
  const lostLastThinking = blocks.length > 0 && canonicalJson(sent) !== canonicalJson(blocks);
  return { checkedBlocks, failedBlocks, lostLastThinking, lastTurnBlocks: blocks.length, leftOut: leftOutOfTurn(body, signatures, issued) };
}

/** The blocks issued with the current turn's steps that the request does not carry with a valid prefix. */
function leftOutOfTurn(
  body: AnthropicBody,
  signatures: SignatureCheck,
  issued: Map<string, { model: string; blocks: IssuedThinking[] }>,
): string[] {
  const start = body.messages.findLastIndex((message) => message.role === 'user' && message.content.some((block) => block.type !== 'tool_result'));
  const leftOut: string[] = [];
  for (let index = start + 1; index < body.messages.length; index += 1) {
    const message = body.messages[index] as WireMessage;
    if (message.role !== 'assistant') continue;
    const valid = new Set(
      message.content
        .filter((block) => isThinking(block) && signedFor(body, index, block, signatures))
        .map((block) => String(block.type === 'thinking' ? block.signature : block.data)),
    );
    const toolUse = message.content.find((block) => block.type === 'tool_use');
    for (const block of (toolUse?.id ? issued.get(toolUse.id)?.blocks : undefined) ?? []) {
      const key = block.type === 'thinking' ? block.signature : block.data;
      if (!valid.has(key)) leftOut.push(key);
    }
  }
  return leftOut;
}
