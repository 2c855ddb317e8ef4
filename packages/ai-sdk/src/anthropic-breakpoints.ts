/**
 * Prompt-cache breakpoints on an AI SDK prompt bound for Anthropic (the only provider
 * the AI SDK sends explicit breakpoints to, as `providerOptions.anthropic.cacheControl`
 * on a message: the provider marks its last part). Anthropic takes at most four per
 * request, the caller's own included. They go, in this order, while any are left:
 * the system prompt (the stable prefix), the newest message (the next step reads
 * up to it), the current episode's user message (what the next episode can read
 * once this episode's reasoning is dropped), and the packer's suggestions (the end
 * of the head kept across evictions), newest first.
 */
import type { CacheBreakpoints } from '@episodic/core';
import type { LooseMessage } from './ai-sdk-types.js';

/** Anthropic's limit of breakpoints per request. */
const MAX_BREAKPOINTS = 4;

function hasCacheControl(options: LooseMessage['providerOptions']): boolean {
  return options?.anthropic?.cacheControl !== undefined || options?.anthropic?.cache_control !== undefined;
}

/**
 * Breakpoints the caller placed outside the prompt: the call's own `cacheControl` (Anthropic's
 * automatic caching, a top-level `cache_control` on the wire) and one on each tool that has
 * one. They count against the limit like those on messages: without them a request could
 * carry five, which the API refuses ("A maximum of 4 blocks with cache_control may be provided").
 */
export function breakpointsOutsidePrompt(call: {
  providerOptions?: LooseMessage['providerOptions'];
  tools?: readonly object[] | undefined;
}): number {
  const tools = (call.tools ?? []).filter((tool) => hasCacheControl((tool as Pick<LooseMessage, 'providerOptions'>).providerOptions)).length;
  return tools + (hasCacheControl(call.providerOptions) ? 1 : 0);
}

/** Breakpoints the caller placed (on messages or their parts): they count against the limit and are left alone. */
function placedByCaller(prompt: readonly LooseMessage[]): number {
  let count = 0;
  for (const message of prompt) {
    if (hasCacheControl(message.providerOptions)) count += 1;
    if (Array.isArray(message.content)) for (const part of message.content) if (hasCacheControl(part.providerOptions)) count += 1;
  }
  return count;
}

/**
 * Marks breakpoints on `prompt` (new message objects where marked; the caller's are not
 * changed). `systemCount`: leading system messages; `indexOf`: packed message index to
 * prompt index; `currentUser`: the prompt index of the current episode's user message;
 * `outside`: the caller's breakpoints outside the prompt ({@link breakpointsOutsidePrompt}).
 */
export function placeAnthropicBreakpoints(
  prompt: LooseMessage[],
  suggested: CacheBreakpoints | undefined,
  where: { systemCount: number; indexOf: readonly number[]; currentUser: number | undefined; outside?: number },
): void {
  let left = MAX_BREAKPOINTS - placedByCaller(prompt) - (where.outside ?? 0);
  const marked = new Set<number>();
  const mark = (index: number | undefined) => {
    if (left <= 0 || index === undefined || index < 0 || index >= prompt.length || marked.has(index)) return;
    const message = prompt[index] as LooseMessage;
    if (hasCacheControl(message.providerOptions)) return;
    const options = message.providerOptions ?? {};
    prompt[index] = { ...message, providerOptions: { ...options, anthropic: { ...options.anthropic, cacheControl: { type: 'ephemeral' } } } };
    marked.add(index);
    left -= 1;
  };
  if (suggested?.prefix !== false && where.systemCount > 0) mark(where.systemCount - 1);
  mark(prompt.length - 1);
  mark(where.currentUser);
  for (const index of [...(suggested?.messages ?? [])].reverse()) mark(where.indexOf[index]);
}
