/**
 * Anthropic Messages content blocks to transcript parts, shared by the Claude Code
 * importer (whose lines hold Messages API objects) and the Anthropic API-log
 * importer. Blocks are read loosely: only the fields used are looked at.
 *
 * @see https://docs.claude.com/en/api/messages
 */
import type {
  AssistantPart,
  ImagePart,
  ModelRef,
  ToolMessage,
  ToolResultPart,
  Usage,
  UserMessage,
  UserPart,
} from '@episodic/core';
import type { DropLog } from './import-result.js';
import { text } from './values.js';

/** A content block as recorded. */
export type Block = Record<string, unknown> & { type?: unknown };

/** Block types of tools the provider runs itself, and whether each is the call or the result. */
const providerToolBlocks: Readonly<Record<string, 'call' | 'result'>> = {
  server_tool_use: 'call',
  web_search_tool_result: 'result',
  web_fetch_tool_result: 'result',
  code_execution_tool_result: 'result',
  bash_code_execution_tool_result: 'result',
  text_editor_code_execution_tool_result: 'result',
  mcp_tool_use: 'call',
  mcp_tool_result: 'result',
};

/** An assistant message's blocks as parts; opaque data is tagged with `model`. */
export function assistantParts(blocks: readonly Block[], model: ModelRef): AssistantPart[] {
  const tag = { provider: model.provider, model: model.id };
  const parts: AssistantPart[] = [];
  for (const block of blocks) {
    const type = text(block.type);
    if (type === 'text') parts.push({ type: 'text', text: text(block.text) });
    else if (type === 'thinking') {
      const signature = text(block.signature);
      parts.push({ type: 'reasoning', text: text(block.thinking), ...(signature ? { signature } : {}), providerData: tag });
    } else if (type === 'redacted_thinking') {
      parts.push({ type: 'reasoning', text: '', redacted: true, providerData: { ...tag, data: text(block.data) } });
    } else if (type === 'tool_use') {
      parts.push({ type: 'tool-call', id: text(block.id), name: text(block.name), args: block.input ?? {} });
    } else {
      // Provider tools, and any block type not known here, are kept whole: they go
      // back to Anthropic as they came (never dropped).
      const name = text(block.name) || type.replace(/_tool_result$/, '');
      const id = text(block.id) || text(block.tool_use_id);
      parts.push({
        type: 'provider-tool',
        name,
        kind: providerToolBlocks[type] ?? (type.endsWith('_result') ? 'result' : 'call'),
        ...(id ? { id } : {}),
        providerData: { ...tag, block },
      });
    }
  }
  return parts;
}

/** An image block's source as an image part, or undefined for a source it cannot hold. */
export function imagePart(block: Block): ImagePart | undefined {
  const source = (block.source ?? {}) as Record<string, unknown>;
  if (source.type === 'base64') return { type: 'image', data: text(source.data), mediaType: text(source.media_type) };
  if (source.type === 'url') return { type: 'image', url: text(source.url) };
  return undefined;
}

/** A `tool_result`'s content: a string, or parts when it holds images or documents. */
function toolResultContent(content: unknown, drops: DropLog, line: number): string | ToolResultPart[] {
  if (typeof content === 'string') return content;
  if (!Array.isArray(content)) return '';
  const parts: ToolResultPart[] = [];
  for (const block of content as Block[]) {
    if (block.type === 'text') parts.push({ type: 'text', text: text(block.text) });
    else if (block.type === 'image') {
      const image = imagePart(block);
      if (image) parts.push(image);
      else drops.dropContent('images in tool results', 'an image source other than base64 or URL', line);
    } else if (block.type === 'document') {
      const source = (block.source ?? {}) as Record<string, unknown>;
      const mediaType = text(source.media_type) || 'application/pdf';
      if (source.type === 'base64') parts.push({ type: 'file', data: text(source.data), mediaType });
      else if (source.type === 'url') parts.push({ type: 'file', url: text(source.url), mediaType });
      else if (source.type === 'text') parts.push({ type: 'text', text: text(source.data) });
      else drops.dropContent('documents in tool results', 'a document source this importer does not know', line);
    } else if (block.type === 'tool_reference') {
      // Tool search's answer (Claude Code 2.1.112+): the API loads the named tool's
      // definition in its place. Kept verbatim as text, the nearest a transcript can hold.
      parts.push({ type: 'text', text: JSON.stringify(block) });
    } else {
      drops.dropContent(`"${text(block.type)}" blocks in tool results`, 'a block type this importer does not know', line);
    }
  }
  return parts.every((part) => part.type === 'text') ? parts.map((part) => (part as { text: string }).text).join('\n') : parts;
}

/** What one user-role wire message holds: tool results first, then the user's own parts. */
export interface UserBlocks {
  results: ToolMessage[];
  parts: UserPart[];
}

/**
 * Splits a user-role message's blocks into tool results (named after their calls
 * via `toolNames`) and the user's text and images.
 */
export function userBlocks(
  content: string | readonly Block[],
  toolNames: ReadonlyMap<string, string>,
  drops: DropLog,
  line: number,
): UserBlocks {
  if (typeof content === 'string') return { results: [], parts: [{ type: 'text', text: content }] };
  const results: ToolMessage[] = [];
  const parts: UserPart[] = [];
  for (const block of content) {
    if (block.type === 'tool_result') {
      const id = text(block.tool_use_id);
      results.push({
        role: 'tool',
        toolCallId: id,
        toolName: toolNames.get(id) ?? 'unknown',
        content: toolResultContent(block.content, drops, line),
        ...(block.is_error === true ? { isError: true } : {}),
      });
    } else if (block.type === 'text') {
      parts.push({ type: 'text', text: text(block.text) });
    } else if (block.type === 'image') {
      const image = imagePart(block);
      if (image) parts.push(image);
      else drops.dropContent('images in user messages', 'an image source other than base64 or URL', line);
    } else {
      drops.dropContent(`user "${text(block.type)}" blocks`, 'transcript user messages hold text and images only', line);
    }
  }
  return { results, parts };
}

/** A user message from parts: a plain string when it is one text part (the way v1 writes it). */
export function userMessage(parts: readonly UserPart[], injected: boolean): UserMessage {
  const only = parts.length === 1 ? parts[0] : undefined;
  const content = only?.type === 'text' ? only.text : [...parts];
  return { role: 'user', content, ...(injected ? { injected: true } : {}) };
}

/** Anthropic usage: `input_tokens` counts only what follows the last cache breakpoint. */
export function anthropicUsage(usage: Record<string, unknown> | undefined): Usage | undefined {
  if (!usage) return undefined;
  const number = (value: unknown) => (typeof value === 'number' && Number.isFinite(value) ? value : 0);
  const read = number(usage.cache_read_input_tokens);
  const write = number(usage.cache_creation_input_tokens);
  const creation = (usage.cache_creation ?? {}) as Record<string, unknown>;
  const writeLong = number(creation.ephemeral_1h_input_tokens);
  return {
    inputTokens: number(usage.input_tokens) + read + write,
    cachedInputTokens: read,
    cacheWriteTokens: write,
    outputTokens: number(usage.output_tokens),
    // Written with the one-hour TTL (billed at 2x input instead of 1.25x).
    ...(writeLong > 0 ? { cacheWriteLongTokens: writeLong } : {}),
  };
}
