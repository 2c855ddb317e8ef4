/**
 * The agent loop's side of the cross-model hand-off (see `handoff-note.ts`):
 * builds the note for one call, reports it as events, and says how many tokens it
 * takes from the packer's budget. The note goes into that call's system prompt
 * only; the transcript, the packed messages and later calls are not changed.
 */
import type { ReasoningEventHandler } from '../reasoning-events.js';
import type { Message, ModelRef } from '../../message/message.js';
import type { ModelAdapter } from '../../model/model-adapter.js';
import { stripForeignReasoning } from './foreign-reasoning.js';
import { buildHandoff, type HandoffOptions } from './handoff-note.js';
import type { TokenCounter } from '../../tokens/token-counter.js';

/** Largest share of the call's budget a hand-off note may take; a larger note is left out whole. */
const HANDOFF_BUDGET_SHARE = 0.25;

/** Between the system prompt and the note. */
const SEPARATOR = '\n\n';

/** A note to add to one call's system prompt, and its calibrated tokens. */
export interface CallHandoff {
  note: string;
  tokens: number;
}

/** The last system prompt with a note counted per counter (an episode's calls repeat it). */
const lastAdded = new WeakMap<TokenCounter, { system: string; joined: string; added: number }>();

/** Raw tokens `handoff` adds to `system`, counted joined: tokens can merge across the seam. */
function addedTokens(system: string | undefined, note: string, counter: TokenCounter): number {
  const joined = systemWithHandoff(system, { note }) ?? '';
  const last = lastAdded.get(counter);
  if (last?.joined === joined && last.system === (system ?? '')) return last.added;
  const added = counter.countText(joined) - counter.countText(system ?? '');
  lastAdded.set(counter, { system: system ?? '', joined, added });
  return added;
}

/** The hand-off for this call, or undefined when there is none; emits its events. */
function prepareHandoff(
  options: HandoffOptions,
  call: { messages: readonly Message[]; system: string | undefined; target: ModelRef; budget: number; step: number },
  counter: TokenCounter,
  emit: ReasoningEventHandler,
): CallHandoff | undefined {
  const handoff = buildHandoff(call.messages, call.target, options, counter);
  for (const skip of handoff.skipped) {
    const why =
      skip.reason === 'too-large'
        ? `it alone exceeds handoff.maxTokens (${options.maxTokens ?? 'default'})`
        : 'newer traces used up handoff.maxTokens';
    emit({
      type: 'warning',
      step: call.step,
      code: 'handoff-trace-skipped',
      message: `hand-off: a reasoning trace of ${skip.producer.provider}/${skip.producer.id} (message ${skip.messageIndex}, ${skip.tokens} tokens) was left out whole because ${why}.`,
    });
  }
  if (handoff.note === undefined) return undefined;
  const tokens = counter.calibration.apply(addedTokens(call.system, handoff.note, counter));
  if (tokens > call.budget * HANDOFF_BUDGET_SHARE) {
    emit({
      type: 'warning',
      step: call.step,
      code: 'handoff-trace-skipped',
      message: `hand-off: the note (${tokens} tokens) would take more than a quarter of the call's budget (${call.budget}); it was left out. Lower handoff.maxTokens.`,
    });
    return undefined;
  }
  const from = [
    ...new Map(
      handoff.traces.map((trace) => [`${trace.producer.provider}/${trace.producer.id}`, trace.producer]),
    ).values(),
  ];
  emit({
    type: 'reasoning-handoff',
    step: call.step,
    from,
    traces: handoff.traces.length,
    tokens,
    skipped: handoff.skipped,
  });
  return { note: handoff.note, tokens };
}

/**
 * The reasoning side of one call: the messages without other models' reasoning and
 * opaque data, and the hand-off note when `settings.handoff` is on (else a warning
 * when such reasoning is left out).
 */
export function reasoningForCall(
  settings: {
    model: ModelAdapter;
    system: string | undefined;
    budget: number;
    tokenizer: TokenCounter;
    handoff?: HandoffOptions | undefined;
  },
  context: { messages: readonly Message[]; step: number },
  emit: ReasoningEventHandler,
): { messages: readonly Message[]; handoff: CallHandoff | undefined } {
  const target = settings.model.model;
  const stripped = stripForeignReasoning(context.messages, target);
  let handoff: CallHandoff | undefined;
  if (settings.handoff) {
    const call = { ...context, system: settings.system, target, budget: settings.budget };
    handoff = prepareHandoff(settings.handoff, call, settings.tokenizer, emit);
  } else if (stripped.warning) emit({ type: 'warning', step: context.step, ...stripped.warning });
  return { messages: stripped.messages, handoff };
}

/** The system prompt of a call that carries `handoff`. */
export function systemWithHandoff(
  system: string | undefined,
  handoff: { note?: string | undefined } | undefined,
): string | undefined {
  if (handoff?.note === undefined) return system;
  return system ? `${system}${SEPARATOR}${handoff.note}` : handoff.note;
}
