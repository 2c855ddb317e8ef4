/**
 * What the Anthropic Messages API rejects, with its error strings (collected in
 * docs/providers.md from the API and field reports). Used by ./anthropic-server.ts.
 */
import { canonicalJson, type RequestView } from './scripted-server.js';
import { anthropicFormatProblem, anthropicFormatView } from './structured-output-rules.js';

/** A content block on the wire (only the fields the checks read). */
export interface WireBlock {
  type: string;
  text?: string;
  thinking?: string;
  signature?: string;
  data?: string;
  id?: string;
  tool_use_id?: string;
  is_error?: boolean;
  cache_control?: unknown;
  [field: string]: unknown;
}

export interface WireMessage {
  /** `system`: a mid-conversation system message (./anthropic-system-messages.ts checks it). */
  role: 'user' | 'assistant' | 'system';
  content: WireBlock[];
}

/** A request body with string shorthands expanded to blocks. */
export interface AnthropicBody {
  model: string;
  max_tokens: number;
  system?: WireBlock[];
  tools?: WireBlock[];
  messages: WireMessage[];
  thinking?: { type: string; budget_tokens?: number };
  cache_control?: unknown;
  [field: string]: unknown;
}

/** A thinking block the server issued, as it must come back. */
export type IssuedThinking =
  | { type: 'thinking'; thinking: string; signature: string }
  | { type: 'redacted_thinking'; data: string };

/** Signature verification, provided by the server that signed. */
export interface SignatureCheck {
  valid(model: string, content: string, signature: string, prefix: string): boolean;
  bound(model: string): boolean;
  /** The model a signature (or redacted data) was issued for, if this server issued it. */
  issuedFor(signature: string): string | undefined;
}

interface RawBody {
  model: string;
  max_tokens: number;
  system?: string | WireBlock[];
  messages: { role: 'user' | 'assistant' | 'system'; content?: string | WireBlock[] }[];
}

/**
 * Expands `system: string` and `content: string` into text blocks (a system message's
 * other fields, `clear_at` and `output_config`, stay: they are part of the prefix).
 */
export function normalizeBody(raw: AnthropicBody | RawBody): AnthropicBody {
  const body = raw as RawBody;
  const toBlocks = (content: string | WireBlock[]) =>
    typeof content === 'string' ? [{ type: 'text', text: content }] : content;
  return {
    ...body,
    system: body.system === undefined ? undefined : toBlocks(body.system),
    messages: (body.messages ?? []).map((message) =>
      message.role === 'system'
        ? { ...message, content: message.content === undefined ? [] : toBlocks(message.content) }
        : { role: message.role, content: toBlocks(message.content ?? []) },
    ),
  };
}

/** The last message that is not a system message: a system message after tool results leaves the tool-use turn running. */
export const lastTurn = (body: AnthropicBody): WireMessage | undefined => body.messages.findLast((message) => message.role !== 'system');

/** What a thinking signature binds to: system, tools and the messages before its message (no cache_control). */
export const prefixKey = (body: AnthropicBody, index: number): string =>
  canonicalJson(
    JSON.parse(
      JSON.stringify(
        { system: body.system, tools: body.tools, messages: body.messages.slice(0, index) },
        (key, item) => (key === 'cache_control' ? undefined : item),
      ),
    ),
  );

function blockIsValid(
  body: AnthropicBody,
  messageIndex: number,
  block: WireBlock,
  signatures: SignatureCheck,
): boolean {
  const prefix = prefixKey(body, messageIndex);
  if (block.type === 'thinking')
    return signatures.valid(body.model, block.thinking ?? '', block.signature ?? '', prefix);
  if (block.type === 'redacted_thinking') return signatures.valid(body.model, '[redacted]', block.data ?? '', prefix);
  return true;
}

/** The neutral view of a request (what the conformance suite asserts on). */
export function viewOfAnthropicRequest(body: AnthropicBody, signatures: SignatureCheck): RequestView {
  const view: RequestView = {
    model: body.model,
    echoedReasoning: [],
    reasoningItems: 0,
    toolCallIds: [],
    toolResultIds: [],
    toolErrorIds: [],
    userTexts: [],
    messageCount: body.messages.length,
    cacheBreakpoints: countBreakpoints(body),
  };
  const format = anthropicFormatView(body.output_config);
  if (format) view.outputFormat = format;
  body.messages.forEach((message, index) => {
    for (const block of message.content) {
      if (block.type === 'thinking' || block.type === 'redacted_thinking') {
        view.reasoningItems += 1;
        if (blockIsValid(body, index, block, signatures))
          view.echoedReasoning.push(block.type === 'thinking' ? (block.thinking ?? '') : '[redacted]');
      }
      if (block.type === 'tool_use') view.toolCallIds.push(block.id ?? '');
      if (block.type === 'tool_result') view.toolResultIds.push(block.tool_use_id ?? '');
      if (block.type === 'tool_result' && block.is_error) view.toolErrorIds.push(block.tool_use_id ?? '');
      if (message.role === 'user' && block.type === 'text') view.userTexts.push(block.text ?? '');
    }
  });
  return view;
}

function countBreakpoints(body: AnthropicBody): number {
  const blocks = [
    ...(body.system ?? []),
    ...(body.tools ?? []),
    ...body.messages.flatMap((message) => message.content),
  ];
  return blocks.filter((block) => block.cache_control).length + (body.cache_control ? 1 : 0);
}

export interface ValidationContext {
  signatures: SignatureCheck;
  issued: Map<string, { model: string; blocks: IssuedThinking[] }>;
  adaptiveOnly: (model: string) => boolean;
  adaptiveSupported: (model: string) => boolean;
  /** The request after `drop_block` left out the blocks that failed the prefix check: what signatures are checked on. */
  afterDrops?: AnthropicBody;
}

/** The first reason the API would reject this request, or undefined. */
export function validateAnthropicRequest(
  body: AnthropicBody,
  headers: Record<string, string>,
  context: ValidationContext,
): string | undefined {
  return (
    anthropicFormatProblem(body.output_config, body.model) ??
    checkThinkingConfig(body, headers, context) ??
    checkCacheControl(body) ??
    checkTextBlocks(body) ??
    checkToolPairing(body) ??
    checkServerToolPairing(body) ??
    checkToolUseTurn(body, context) ??
    checkSignatures(context.afterDrops ?? body, context.signatures)
  );
}

function checkThinkingConfig(body: AnthropicBody, headers: Record<string, string>, context: ValidationContext) {
  const thinking = body.thinking;
  // Wording unverified; the refusal itself is documented (adaptive thinking is for the newest models).
  if (thinking?.type === 'adaptive' && !context.adaptiveSupported(body.model))
    return `thinking.type: adaptive thinking is not supported on ${body.model}. Use thinking.type.enabled with budget_tokens.`;
  if (thinking?.type !== 'enabled') return undefined;
  if (context.adaptiveOnly(body.model))
    return `thinking.type.enabled is not supported for this model. Use thinking.type.adaptive and output_config.effort to control thinking behavior.`;
  const budget = thinking.budget_tokens ?? 0;
  if (budget < 1024) return 'thinking.enabled.budget_tokens: Input should be greater than or equal to 1024';
  const interleaved = (headers['anthropic-beta'] ?? '').includes('interleaved-thinking-2025-05-14');
  if (!interleaved && budget >= body.max_tokens)
    return '`max_tokens` must be greater than `thinking.budget_tokens`. Please consult our documentation at https://docs.claude.com/en/docs/build-with-claude/extended-thinking#max-tokens-and-context-window-size';
  return undefined;
}

function checkCacheControl(body: AnthropicBody): string | undefined {
  const count = countBreakpoints(body);
  if (count > 4) return `A maximum of 4 blocks with cache_control may be provided. Found ${count}.`;
  for (const [index, message] of body.messages.entries()) {
    for (const [position, block] of message.content.entries()) {
      if (!block.cache_control) continue;
      if (block.type === 'thinking' || block.type === 'redacted_thinking')
        return `messages.${index}.content.${position}.${block.type}.cache_control: Extra inputs are not permitted`;
      if (block.type === 'text' && !block.text)
        return `messages.${index}.content.${position}.text: cache_control cannot be set for empty text blocks`;
    }
  }
  return undefined;
}

/**
 * Empty text blocks are refused anywhere; a whitespace-only one is refused unless
 * its message has other text with visible characters.
 */
function checkTextBlocks(body: AnthropicBody): string | undefined {
  for (const message of body.messages) {
    for (const block of message.content) {
      // A tool_result's string content is one text block of its own.
      if (block.type !== 'tool_result' || typeof block.content !== 'string') continue;
      if (block.content.length === 0) return 'messages: text content blocks must be non-empty';
      if (block.content.trim().length === 0) return 'messages: text content blocks must contain non-whitespace text';
    }
    const texts = message.content.filter((block) => block.type === 'text').map((block) => block.text ?? '');
    if (texts.some((text) => text.length === 0)) return 'messages: text content blocks must be non-empty';
    const blank = texts.some((text) => text.trim().length === 0);
    if (blank && !texts.some((text) => text.trim().length > 0))
      return 'messages: text content blocks must contain non-whitespace text';
  }
  return undefined;
}

function checkToolPairing(body: AnthropicBody): string | undefined {
  for (const [index, message] of body.messages.entries()) {
    for (const [position, block] of message.content.entries()) {
      if (block.type === 'tool_use' && !/^[a-zA-Z0-9_-]{1,64}$/.test(block.id ?? ''))
        return `messages.${index}.content.${position}.tool_use.id: String should match pattern '^[a-zA-Z0-9_-]+$'`;
    }
    const uses = message.role === 'assistant' ? idsOf(message, 'tool_use', 'id') : [];
    const next = body.messages[index + 1];
    const answered = next?.role === 'user' ? idsOf(next, 'tool_result', 'tool_use_id') : [];
    const missing = uses.filter((id) => !answered.includes(id));
    if (missing.length > 0)
      return `messages.${index}: \`tool_use\` ids were found without \`tool_result\` blocks immediately after: ${missing.join(', ')}. Each \`tool_use\` block must have a corresponding \`tool_result\` block in the next message.`;
    const leading = next?.content.slice(0, uses.length) ?? [];
    if (uses.length > 0 && leading.some((block) => block.type !== 'tool_result'))
      return `messages.${index + 1}: Did not find ${uses.length} \`tool_result\` block(s) at the beginning of this message. Messages following \`tool_use\` blocks must begin with a matching number of \`tool_result\` blocks.`;
    if (message.role !== 'user') continue;
    const previous = body.messages[index - 1];
    const asked = previous?.role === 'assistant' ? idsOf(previous, 'tool_use', 'id') : [];
    for (const [position, block] of message.content.entries()) {
      if (block.type === 'tool_result' && !asked.includes(block.tool_use_id ?? ''))
        return `messages.${index}.content.${position}: unexpected \`tool_use_id\` found in \`tool_result\` blocks: ${block.tool_use_id}. Each \`tool_result\` block must have a corresponding \`tool_use\` block in the previous message.`;
    }
  }
  return undefined;
}

/**
 * A result of a tool the API ran (`mcp_tool_result`, `web_search_tool_result`, ...)
 * must follow the call that asked for it (`mcp_tool_use`, `server_tool_use`) in the
 * request: a follow-up that kept the result but lost the call is refused. The API's
 * exact words for this case are not in any recording; they are modelled on its
 * \`tool_result\` pairing error.
 */
function checkServerToolPairing(body: AnthropicBody): string | undefined {
  const calls = new Map<string, string>();
  for (const [index, message] of body.messages.entries()) {
    for (const [position, block] of message.content.entries()) {
      if (block.type === 'mcp_tool_use' || block.type === 'server_tool_use') calls.set(block.id ?? '', block.type);
      if (!block.type.endsWith('_tool_result') || block.type === 'tool_result') continue;
      const call = calls.get(block.tool_use_id ?? '');
      const expected = block.type === 'mcp_tool_result' ? 'mcp_tool_use' : 'server_tool_use';
      if (call !== expected)
        return `messages.${index}.content.${position}: \`${block.type}\` block with tool_use_id ${block.tool_use_id} has no corresponding \`${expected}\` block before it.`;
    }
  }
  return undefined;
}

function idsOf(message: WireMessage, type: string, field: 'id' | 'tool_use_id'): string[] {
  return message.content.filter((block) => block.type === type).map((block) => block[field] ?? '');
}

function checkSignatures(body: AnthropicBody, signatures: SignatureCheck): string | undefined {
  for (const [index, message] of body.messages.entries()) {
    for (const [position, block] of message.content.entries()) {
      if (block.type !== 'thinking' && block.type !== 'redacted_thinking') continue;
      if (blockIsValid(body, index, block, signatures)) continue;
      const signature = (block.type === 'thinking' ? block.signature : block.data) ?? '';
      const unbound = signatures.bound(body.model) && signatures.issuedFor(signature) === body.model;
      return unbound
        ? `messages.${index}.content.${position}: Invalid \`signature\` in \`thinking\` block. The block is bound to a different conversation. Remove the block, or set \`thinking.block_binding.prefix_mismatch_behavior\` to "drop_block".`
        : `messages.${index}.content.${position}: Invalid \`signature\` in \`thinking\` block.`;
    }
  }
  return undefined;
}

/**
 * Inside a tool-use turn (the request ends with tool results), the latest
 * assistant message must carry its thinking blocks unmodified and in order (the
 * API's own wording: "... in the latest assistant message cannot be modified";
 * earlier steps may omit theirs, and a sent block is still signature-checked);
 * in manual mode it must start with a thinking block.
 */
function checkToolUseTurn(body: AnthropicBody, context: ValidationContext): string | undefined {
  const thinking = body.thinking?.type;
  if (thinking === undefined || thinking === 'disabled') return undefined;
  const last = lastTurn(body);
  if (last?.role !== 'user' || !last.content.every((block) => block.type === 'tool_result')) return undefined;
  let start = body.messages.length - 1;
  while (start > 0 && !isRealUserMessage(body.messages[start - 1])) start -= 1;
  const finalAssistant = body.messages.findLastIndex((message) => message.role === 'assistant');
  for (let index = start; index < body.messages.length; index += 1) {
    const message = body.messages[index];
    if (message?.role !== 'assistant') continue;
    const first = message.content[0];
    if (
      index === finalAssistant &&
      thinking === 'enabled' &&
      first?.type !== 'thinking' &&
      first?.type !== 'redacted_thinking'
    )
      return `messages.${index}.content.0.type: Expected \`thinking\` or \`redacted_thinking\`, but found \`${first?.type}\`. When \`thinking\` is enabled, a final \`assistant\` message must start with a thinking block (preceeding the lastmost set of \`tool_use\` and \`tool_result\` blocks). We recommend you include thinking blocks from previous turns. To avoid this requirement, disable \`thinking\`. Please consult our documentation at https://docs.claude.com/en/docs/build-with-claude/extended-thinking`;
    const problem = index === finalAssistant ? checkIssuedBlocks(body.model, message, index, context) : undefined;
    if (problem) return problem;
  }
  return undefined;
}

function isRealUserMessage(message: WireMessage | undefined): boolean {
  return message?.role === 'user' && message.content.some((block) => block.type !== 'tool_result');
}

function checkIssuedBlocks(model: string, message: WireMessage, index: number, context: ValidationContext) {
  const toolUse = message.content.find((block) => block.type === 'tool_use');
  const issued = toolUse?.id ? context.issued.get(toolUse.id) : undefined;
  if (!issued || issued.model !== model || issued.blocks.length === 0) return undefined;
  const sent = message.content
    .filter((block) => block.type === 'thinking' || block.type === 'redacted_thinking')
    .map((block) =>
      block.type === 'thinking'
        ? { type: block.type, thinking: block.thinking, signature: block.signature }
        : { type: block.type, data: block.data },
    );
  if (canonicalJson(sent) === canonicalJson(issued.blocks)) return undefined;
  const position = Math.max(
    0,
    message.content.findIndex((block) => block.type !== 'text'),
  );
  return `messages.${index}.content.${position}: \`thinking\` or \`redacted_thinking\` blocks in the latest assistant message cannot be modified. These blocks must remain as they were in the original response.`;
}
