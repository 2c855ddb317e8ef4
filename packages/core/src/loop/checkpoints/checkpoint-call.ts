/**
 * The compaction side of one model call: what the call sends in place of history a
 * provider compacted. The model that made a compaction gets its item; any other (a
 * fallback, a hand-off, a switched model or provider) gets the compaction's readable
 * text or Episodic's checkpoint summary of it (checkpoint-summaries.ts). Never neither:
 * when an opaque compaction has no summary yet, the call sends the messages it replaced
 * if they fit the budget, else a summary made on the spot; a typed warning says which
 * (once per session object for each compaction and kind).
 */
import type { Message, ModelRef } from '../../message/message.js';
import { compactionReader, messagesAfterCompaction } from '../../packing/compaction-cut.js';
import type { WarningEvent } from '../../reasoning/reasoning-events.js';
import type { AgentEvent, AgentEventHandler } from '../agent-events.js';
import { checkpointRange, type CheckpointSummarizer } from './checkpoint-summaries.js';
import type { ModelAdapter } from '../../model/model-adapter.js';
import type { ToolSpec } from '../../message/message.js';
import type { TokenCounter } from '../../tokens/token-counter.js';

/** What the call's settings give here. */
interface CallShape {
  model: ModelAdapter;
  system: string | undefined;
  toolSpecs: readonly ToolSpec[];
  tokenizer: TokenCounter;
}

/**
 * What a call sent in place of a compaction its model cannot read, when no summary was
 * there yet: `originals` (the messages it replaced, which fit the budget), `summary-made`
 * (a summary made before the call, the call waited for it), `originals-over-budget`
 * (no summary could be made: the messages it replaced, packed to the budget, which may
 * evict some of them).
 */
export type CheckpointFallback = 'originals' | 'summary-made' | 'originals-over-budget';

/** The warning event of a call that found a compaction its model cannot read, with no summary of it yet. */
export interface CheckpointWarning extends WarningEvent {
  /** Its code: the compaction has no text summary yet. */
  code: 'compaction-checkpoint-missing';
  /** Which compaction, whose, for which model, and what went in its place. */
  checkpoint: {
    /** What was sent in the compaction's place. */
    sent: CheckpointFallback;
    /** Index in the transcript of the message that holds the compaction. */
    message: number;
    /** The model that made it (the only one that can read it). */
    producer: ModelRef;
    /** The model of this call. */
    model: ModelRef;
  };
}

/** True for the warning of {@link CheckpointWarning}. */
export function isCheckpointWarning(event: AgentEvent): event is CheckpointWarning {
  return event.type === 'warning' && event.code === 'compaction-checkpoint-missing' && 'checkpoint' in event;
}

/** The call's context, as the loop hands it to `callModel`. */
export interface CheckpointContext {
  /** The transcript as stored (the call's own view is stripped of other models' data). */
  messages: readonly Message[];
  step: number;
  /** The session's checkpoint summaries; without it a missing summary cannot be made. */
  checkpoints?: CheckpointSummarizer | undefined;
}

/**
 * The messages to pack for this call (see the file comment). `own` is the call's view of
 * the transcript (other models' reasoning and opaque data stripped), `budget` what the
 * packer may fill. Starts the background summary of a compaction that has none.
 */
export async function messagesForCall(
  settings: CallShape,
  context: CheckpointContext,
  own: readonly Message[],
  { budget, emit, signal }: { budget: number; emit: AgentEventHandler; signal?: AbortSignal | undefined },
): Promise<readonly Message[]> {
  context.checkpoints?.request(context.messages);
  const model = settings.model.model;
  const reader = compactionReader(settings.model);
  const cut = messagesAfterCompaction(own, reader);
  if (cut.uncovered === undefined) return cut.messages;
  const at = cut.uncovered;
  // Once per session object and kind: a session that goes on past the item warns at its first call only.
  const warn = (sent: CheckpointFallback, why: string) => {
    if (context.checkpoints?.firstTime(at, sent) !== false) emit(warning(context, { at, sent, model, why }));
  };
  if (tokensOf(settings, cut.messages) <= budget) {
    warn('originals', 'the messages it replaced fit the budget and were sent instead');
    return cut.messages;
  }
  const range = checkpointRange(context.messages, at);
  if (!context.checkpoints || (range.messages.length === 0 && range.previous === undefined)) {
    warn('originals-over-budget', 'no summary can be made of it here; the messages it replaced were packed to the budget instead');
    return cut.messages;
  }
  try {
    const line = await context.checkpoints.summarizeNow(context.messages, at, signal);
    warn('summary-made', 'the messages it replaced do not fit the budget: a summary was made before this call');
    return messagesAfterCompaction([...own, line], reader).messages;
  } catch (error) {
    // An aborted run ends here (the loop reports it), not with a fallback.
    if (signal?.aborted) throw error;
    warn('originals-over-budget', `${context.checkpoints.failure(at, error)} They were packed to the budget`);
    return cut.messages;
  }
}

/** Tokens of `messages` with the call's system prompt and tools, as the packer counts them. */
function tokensOf(settings: CallShape, messages: readonly Message[]): number {
  const { tokenizer, system, toolSpecs } = settings;
  let tokens = (system ? tokenizer.countSystem(system) : 0) + (toolSpecs.length > 0 ? tokenizer.countTools(toolSpecs) : 0);
  for (const message of messages) tokens += tokenizer.countMessage(message);
  return tokens;
}

function warning(
  context: CheckpointContext,
  { at, sent, model, why }: { at: number; sent: CheckpointFallback; model: ModelRef; why: string },
): CheckpointWarning {
  const holder = context.messages[at];
  const part = holder?.role === 'assistant' ? holder.content.findLast((candidate) => candidate.type === 'compaction') : undefined;
  const tag = part?.type === 'compaction' ? part.providerData : undefined;
  const producer: ModelRef = tag ? { provider: tag.provider, id: tag.model } : (holder?.role === 'assistant' && holder.model) || model;
  return {
    type: 'warning',
    step: context.step,
    code: 'compaction-checkpoint-missing',
    message:
      `The compaction in message ${at} (made by ${producer.provider}/${producer.id}) cannot be read by ${model.provider}/${model.id} ` +
      `and has no text summary yet: ${why}.`,
    checkpoint: { sent, message: at, producer, model },
  };
}
