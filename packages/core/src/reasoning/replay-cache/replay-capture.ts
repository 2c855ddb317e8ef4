/**
 * The agent loop's side of the replay cache: after every model call, the answer's
 * reasoning is stored. A cache failure never fails the run (the cache is an aid,
 * the transcript is the truth): it becomes a warning event.
 */
import type { ReasoningEventHandler } from '../reasoning-events.js';
import type { AssistantMessage, Message, ModelRef } from '../../message/message.js';
import type { ReplayCache } from './replay-cache.js';
import { captureReasoning } from './replay-restore.js';
import type { TokenCounter } from '../../tokens/token-counter.js';

/** Stores `message`'s reasoning in the cache; reports a failure as a `replay-cache-failed` warning. */
export async function captureForReplay(
  settings: { replayCache?: ReplayCache | undefined; tokenizer: TokenCounter; model: { model: ModelRef } },
  answer: { message: AssistantMessage; previous: Message | undefined; step: number },
  emit: ReasoningEventHandler,
): Promise<void> {
  if (!settings.replayCache) return;
  const model = answer.message.model ?? settings.model.model;
  try {
    await captureReasoning(
      settings.replayCache,
      { message: answer.message, previous: answer.previous, model },
      settings.tokenizer,
    );
  } catch (error) {
    emit({
      type: 'warning',
      step: answer.step,
      code: 'replay-cache-failed',
      message: `replay cache: the reasoning of step ${answer.step} was not stored (${(error as Error).message}); later histories without it cannot be completed.`,
    });
  }
}
