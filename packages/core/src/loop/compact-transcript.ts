/**
 * An explicit compaction of a session's transcript by the provider's standalone endpoint
 * (OpenAI `POST /responses/compact`, Anthropic on-demand compaction): the context the next call would send is packed as
 * usual and given to the adapter's `compact`, whose answer, an assistant message holding
 * one opaque `compaction` part, is appended to the transcript. From then on the packer
 * sends from it on (`messagesAfterCompaction`) and the adapter sends the part back
 * verbatim; the history before it stays in the transcript, unsent.
 */
import { InvalidArgumentError } from '../errors/input-errors.js';
import type { AssistantMessage, Message, Usage } from '../message/message.js';
import { compactionReader, messagesAfterCompaction } from '../packing/compaction-cut.js';
import { packContext } from '../packing/pack-context.js';
import { prepareForPacking } from '../packing/prepare-for-packing.js';
import type { PackState } from '../packing/pack-types.js';
import { estimateCost } from '../model/usage-totals.js';
import type { LoopSettings } from './loop-types.js';

/** The compaction message to append: packed, compacted by the provider, counted for the packer. */
export async function compactTranscript(
  settings: LoopSettings,
  context: { messages: readonly Message[]; packState: PackState | undefined },
  signal: AbortSignal | undefined,
): Promise<AssistantMessage> {
  const { model } = settings;
  if (!model.compact) {
    throw new InvalidArgumentError(
      `compact(): ${model.model.provider}/${model.model.id} has no standalone compaction (OpenAI Responses has, and Anthropic's on-demand models); use the context policy instead.`,
    );
  }
  if (!context.messages.some((message) => message.role === 'user'))
    throw new InvalidArgumentError('compact(): the session has no messages to compact; call send() first.');
  const { messages } = messagesAfterCompaction(context.messages, compactionReader(model));
  const packed = packContext({
    ...settings.pack,
    messages,
    system: settings.system,
    tools: settings.toolSpecs,
    budget: settings.budget,
    retention: settings.retention,
    tokenizer: settings.tokenizer,
    state: context.packState,
  });
  const request = {
    system: packed.system,
    messages: packed.messages,
    ...(settings.toolSpecs.length > 0 ? { tools: settings.toolSpecs } : {}),
  };
  const result = await model.compact(request, { signal });
  const usage: Usage = settings.pricing ? { ...result.usage, costUsd: estimateCost(result.usage, settings.pricing) } : result.usage;
  // An on-demand compaction (Anthropic) stands for the whole transcript: later calls send it first, in its place.
  const covered = model.profile?.nativeContext?.compaction?.onDemand ? context.messages.length : undefined;
  const content =
    covered === undefined
      ? result.message.content
      : result.message.content.map((part) => (part.type === 'compaction' ? { ...part, summarizedMessages: covered } : part));
  const message: AssistantMessage = { ...result.message, content, model: result.message.model ?? model.model, usage };
  if (!message.content.some((part) => part.type === 'compaction'))
    throw new InvalidArgumentError(`compact(): ${model.model.provider} answered without a compaction item; nothing was saved.`);
  prepareForPacking(message, { ...settings.pack, budget: settings.budget, tokenizer: settings.tokenizer });
  return message;
}
