/**
 * Mid-conversation `role: "system"` messages on the strict Anthropic server
 * (docs/providers.md, "Mid-session system messages"): which models take them, where
 * one may stand, what it may hold, and the betas its optional fields need.
 *
 * Facts: the mid-conversation system messages page
 * (platform.claude.com/docs/en/build-with-claude/mid-conversation-system-messages), the
 * preserved-thinking page "Change tools or instructions" and Bedrock's copy of the
 * placement rules, read 2026-12-05; the SDK's `BetaSystemMessageParam` (1.17.0) and its
 * `AnthropicBeta` names for the beta fields. The refusal for a model without the feature
 * is the text reported from the API ("role 'system' is not supported on this model"); the
 * placement and field refusals are worded here (the docs say only "400 invalid_request_error").
 */
import type { AnthropicBody, WireBlock, WireMessage } from './anthropic-validation.js';

/** `clear_at` on a system message. */
export const clearAtBeta = 'mid-conversation-system-clear-at-2026-08-21';
/** `tool_addition` / `tool_removal` blocks in a system message. */
export const toolChangesBeta = 'mid-conversation-tool-changes-2026-07-01';
/** `output_config` on a system message. */
export const systemOutputConfigBeta = 'mid-conversation-output-config-2026-07-01';

/** The models the docs name: Opus 4.8 and the preserved-thinking models. */
export const takesSystemMessages = (model: string) =>
  /^claude-(opus-4-8|(fable|mythos)-5-[12]|(opus|sonnet|haiku)-5-5)(-\d{8})?$/.test(model);

const fields = new Set(['role', 'content', 'clear_at', 'output_config']);

/** The first reason the API would refuse the request's system messages, or undefined. */
export function systemMessageProblem(
  body: AnthropicBody,
  headers: Record<string, string>,
  takes: (model: string) => boolean = takesSystemMessages,
): string | undefined {
  const betas = (headers['anthropic-beta'] ?? '').split(',');
  for (const [index, message] of body.messages.entries()) {
    if (message.role !== 'system') continue;
    if (!takes(body.model)) return `messages.${index}.role: role 'system' is not supported on this model`;
    const problem = placementProblem(body.messages, index) ?? fieldProblem(message, index, betas);
    if (problem) return problem;
  }
  return undefined;
}

function placementProblem(messages: readonly WireMessage[], index: number): string | undefined {
  const previous = messages[index - 1];
  const next = messages[index + 1];
  if (!previous) return `messages.${index}: a system message cannot be the first message; use the top-level \`system\` parameter.`;
  if (previous.role === 'system' || next?.role === 'system')
    return `messages.${index}: consecutive system messages are not allowed; put their text in one message.`;
  const afterServerTool = previous.role === 'assistant' && previous.content.at(-1)?.type === 'server_tool_use';
  if (previous.role !== 'user' && !afterServerTool)
    return `messages.${index}: a system message must immediately follow a user message or an assistant message that ends in a server tool use.`;
  if (next && next.role !== 'assistant')
    return `messages.${index}: a system message must be the last message or be followed by an assistant message.`;
  return undefined;
}

function fieldProblem(message: WireMessage, index: number, betas: readonly string[]): string | undefined {
  const raw = message as unknown as Record<string, unknown>;
  const extra = Object.keys(raw).find((key) => !fields.has(key));
  if (extra) return `messages.${index}.${extra}: Extra inputs are not permitted`;
  if (raw.clear_at !== undefined && raw.clear_at !== null) {
    if (!betas.includes(clearAtBeta)) return `messages.${index}.clear_at: this field needs the \`anthropic-beta: ${clearAtBeta}\` header.`;
    if (raw.clear_at !== 'next_user_message' && raw.clear_at !== 'never')
      return `messages.${index}.clear_at: Input should be 'next_user_message' or 'never'`;
  }
  const configured = raw.output_config !== undefined && raw.output_config !== null;
  if (configured && !betas.includes(systemOutputConfigBeta))
    return `messages.${index}.output_config: this field needs the \`anthropic-beta: ${systemOutputConfigBeta}\` header.`;
  if (message.content.length === 0 && !configured)
    return `messages.${index}: a system message needs content or output_config.`;
  for (const [position, block] of message.content.entries()) {
    const problem = blockProblem(block, `messages.${index}.content.${position}`, betas);
    if (problem) return problem;
  }
  return undefined;
}

function blockProblem(block: WireBlock, path: string, betas: readonly string[]): string | undefined {
  if (block.type === 'tool_addition' || block.type === 'tool_removal')
    return betas.includes(toolChangesBeta) ? undefined : `${path}: \`${block.type}\` blocks need the \`anthropic-beta: ${toolChangesBeta}\` header.`;
  if (block.type !== 'text') return `${path}.type: a system message holds only \`text\` blocks (found \`${block.type}\`).`;
  if (!block.text || block.text.trim().length === 0) return `${path}: text content blocks must contain non-whitespace text`;
  return undefined;
}
