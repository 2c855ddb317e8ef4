/**
 * Prompt-cache breakpoints (https://docs.claude.com/en/docs/build-with-claude/prompt-caching):
 * at most 4, on the stable prefix (end of system, else last tool), the end of
 * past history, the end of the previous step and the newest message. Never on a
 * thinking block or an empty text block (the API rejects both). The packer's
 * suggested message breakpoints (as wire indexes) come right after the newest message.
 */
import type { CacheControlEphemeral, MessageParam, TextBlockParam, Tool } from '@anthropic-ai/sdk/resources/messages';

export const maxCacheBreakpoints = 4;

export interface CacheTargets {
  system: TextBlockParam[] | undefined;
  tools: Tool[] | undefined;
  messages: MessageParam[];
}

/** Places breakpoints in place and returns how many were placed. */
export function placeCacheBreakpoints(
  targets: CacheTargets,
  ttl: '5m' | '1h',
  suggested: readonly number[] = [],
): number {
  const control: CacheControlEphemeral = ttl === '1h' ? { type: 'ephemeral', ttl: '1h' } : { type: 'ephemeral' };
  let placed = 0;
  const prefixBlock = targets.system?.at(-1) ?? targets.tools?.at(-1);
  if (prefixBlock) {
    prefixBlock.cache_control = control;
    placed += 1;
  }
  const used = new Set<number>();
  for (const wanted of messageBreakpoints(targets.messages, suggested)) {
    if (placed >= maxCacheBreakpoints) break;
    // A turn with nothing cacheable (only thinking) passes the breakpoint to the turn before it.
    let index = wanted;
    while (index >= 0 && !used.has(index) && !markLastCacheableBlock(targets.messages[index], control)) index -= 1;
    if (index < 0 || used.has(index)) continue;
    used.add(index);
    placed += 1;
  }
  return placed;
}

/** Wire indexes, most important first: newest message, suggested ones, end of history, end of the previous step. */
function messageBreakpoints(messages: MessageParam[], suggested: readonly number[]): number[] {
  const newest = messages.length - 1;
  const currentStart = messages.findLastIndex(
    (message) =>
      message.role === 'user' &&
      (typeof message.content === 'string' || message.content.some((b) => b.type !== 'tool_result')),
  );
  const previousAssistant = messages.findLastIndex((message, index) => message.role === 'assistant' && index < newest);
  const candidates = [newest, ...suggested, currentStart - 1, previousAssistant - 1];
  return [...new Set(candidates)].filter((index) => index >= 0 && index <= newest);
}

function markLastCacheableBlock(message: MessageParam | undefined, control: CacheControlEphemeral): boolean {
  if (!message) return false;
  if (typeof message.content === 'string') {
    if (message.content.length === 0) return false;
    message.content = [{ type: 'text', text: message.content, cache_control: control }];
    return true;
  }
  const block = message.content.findLast(
    (candidate) =>
      candidate.type !== 'thinking' &&
      candidate.type !== 'redacted_thinking' &&
      !(candidate.type === 'text' && candidate.text.length === 0),
  );
  if (!block) return false;
  (block as { cache_control?: CacheControlEphemeral | null }).cache_control = control;
  return true;
}
