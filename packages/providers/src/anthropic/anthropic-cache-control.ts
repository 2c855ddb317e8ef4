/**
 * Prompt-cache breakpoints (https://docs.claude.com/en/docs/build-with-claude/prompt-caching):
 * at most 4, never on a thinking block or an empty text block (the API rejects both).
 *
 * A breakpoint writes the prefix up to it, and a later request reads a written
 * prefix only if one of its own breakpoints sits at that prefix's end or at most 20
 * content blocks after it (the lookup walks back no further). So the plan reaches
 * the prefix ends a request may read now or later, in this order:
 * - the newest message (the next step reads it);
 * - the end of the previous step (this step reads it; the newest usually reaches it);
 * - on an episode's first call, the previous episode's user message: the stable
 *   prefix that episode kept written, which the newest breakpoint cannot reach once
 *   that episode left more than 20 blocks;
 * - the current episode's user message, marked itself: everything after it changes
 *   when the next user message strips this episode's reasoning, so the next episode
 *   can read only up to here, and only if every call keeps this end written;
 * - the packer's suggestions (end of the head kept across evictions), last.
 * The stable prefix (system and tools) has its own breakpoint.
 */
import type {
  BetaCacheControlEphemeral as CacheControlEphemeral,
  BetaMessageParam as MessageParam,
  BetaTextBlockParam as TextBlockParam,
  BetaTool as Tool,
} from '@anthropic-ai/sdk/resources/beta/messages/messages';

export const maxCacheBreakpoints = 4;

/** How many content blocks the cache lookup walks back from a breakpoint (docs/providers.md). */
export const cacheLookbackBlocks = 20;

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
  for (const wanted of planMessageBreakpoints(targets.messages, suggested, maxCacheBreakpoints - placed)) {
    // A turn with nothing cacheable (only thinking) passes the breakpoint to the turn before it.
    let index = wanted;
    while (index >= 0 && !used.has(index) && !markLastCacheableBlock(targets.messages[index], control)) index -= 1;
    if (index < 0 || used.has(index)) continue;
    used.add(index);
    placed += 1;
  }
  return placed;
}

/**
 * Wire indexes of the messages to mark, at most `slots`: the newest, then each
 * prefix end of the list above that no breakpoint chosen so far reaches (the
 * current episode's user message is marked even when reached, to keep it written).
 */
export function planMessageBreakpoints(
  messages: readonly MessageParam[],
  suggested: readonly number[],
  slots: number,
): number[] {
  const newest = messages.length - 1;
  if (newest < 0 || slots <= 0) return [];
  const ends = blockEnds(messages);
  const currentStart = lastEpisodeStart(messages, newest);
  const previousAssistant = messages.findLastIndex((message, index) => message.role === 'assistant' && index < newest);
  const firstCall = previousAssistant < currentStart;
  const anchors: { index: number; marked?: boolean }[] = [
    { index: firstCall ? -1 : previousAssistant - 1 },
    { index: firstCall ? lastEpisodeStart(messages, currentStart - 1) : -1 },
    { index: currentStart, marked: true },
    ...suggested.map((index) => ({ index })),
  ];
  const chosen = [newest];
  const reached = (anchor: number) =>
    chosen.some((at) => at >= anchor && (ends[at] ?? 0) - (ends[anchor] ?? 0) <= cacheLookbackBlocks);
  for (const { index, marked } of anchors) {
    if (chosen.length >= slots) break;
    if (index < 0 || index > newest || chosen.includes(index)) continue;
    if (marked || !reached(index)) chosen.push(index);
  }
  return chosen;
}

/** For each message, the number of content blocks up to and including it. */
function blockEnds(messages: readonly MessageParam[]): number[] {
  let total = 0;
  return messages.map((message) => {
    total += typeof message.content === 'string' ? 1 : (message.content?.length ?? 0);
    return total;
  });
}

/** The last user message at or before `from` that is more than tool results (an episode's opening), or -1. */
function lastEpisodeStart(messages: readonly MessageParam[], from: number): number {
  for (let index = from; index >= 0; index -= 1) {
    const message = messages[index] as MessageParam;
    if (message.role !== 'user') continue;
    if (typeof message.content === 'string' || message.content.some((block) => block.type !== 'tool_result')) return index;
  }
  return -1;
}

function markLastCacheableBlock(message: MessageParam | undefined, control: CacheControlEphemeral): boolean {
  // A beta system message may carry no content (only output_config); the adapter sends none, but the type allows it.
  if (!message?.content) return false;
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
