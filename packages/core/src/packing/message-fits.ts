/**
 * How a context is counted (system, tools, messages, reply priming) and the check that
 * a new message can be packed at all.
 */
import { ContextOverflowError } from '../errors/input-errors.js';
import type { Message, ToolSpec } from '../message/message.js';
import type { PackOptions } from './pack-types.js';
import { defaultTokenCounter } from './default-token-counter.js';
import { boundsOf, FRAMING, type TokenCounter } from '../tokens/token-counter.js';

/** Counts a context exactly as the packer does: system + tools + messages + reply priming. */
export function countContext(
  counter: TokenCounter,
  context: { system?: string | undefined; tools?: readonly ToolSpec[] | undefined; messages: readonly Message[] },
): number {
  let total = counter.calibration.apply(FRAMING.reply);
  if (context.system) total += counter.countSystem(context.system);
  if (context.tools && context.tools.length > 0) total += counter.countTools(context.tools);
  for (const message of context.messages) total += counter.countMessage(message);
  return total;
}

/**
 * Leading system messages are folded into the system prompt. System and developer
 * lines further on stay where they are, in the episode they stand in (evicted with
 * it, never cut from the current one), and each adapter places them on its wire.
 */
export function foldSystem(
  messages: readonly Message[],
  system: string | undefined,
): { system: string | undefined; start: number } {
  let start = 0;
  const parts = system ? [system] : [];
  while (start < messages.length && messages[start]?.role === 'system') {
    parts.push(messages[start]?.content as string);
    start += 1;
  }
  return { system: parts.length > 0 ? parts.join('\n\n') : undefined, start };
}

/**
 * Throws {@link ContextOverflowError} when `message`, with the system prompt, the
 * tools and the reply priming, does not fit in the budget: a user message that no
 * pack of its episode could hold. The agent loop checks a new user message with it
 * before saving it, so such a message never reaches the transcript.
 */
export function checkMessageFits(
  message: Message,
  options: Pick<PackOptions, 'messages' | 'system' | 'tools' | 'budget' | 'tokenizer'>,
): void {
  const counter = options.tokenizer ?? defaultTokenCounter();
  const { system } = foldSystem(options.messages, options.system);
  const context = { system, tools: options.tools, messages: [message] };
  // Fits by the byte bound (never under the count): no need to load the tokenizer for it.
  const bounds = boundsOf(counter);
  if (bounds && countContext(bounds, context) <= options.budget) return;
  const tokens = countContext(counter, context);
  if (tokens <= options.budget) return;
  const own = counter.countMessage(message);
  throw new ContextOverflowError(
    tokens,
    Math.floor(options.budget),
    `The new ${message.role} message alone takes ${own} tokens, so no call could send it; it was not saved. ` +
      'Send it in smaller parts, or raise the budget.',
  );
}
