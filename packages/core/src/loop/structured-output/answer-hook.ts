/**
 * Structured answers as a hook of the loop (how answers are asked for and checked:
 * structured-output.ts): after a tool batch an accepted `final_answer` ends the
 * episode; at the episode's end a failed check sends the model its feedback and the
 * episode goes on; the accepted answer is the episode's `output`.
 */
import type { LoopHook } from '../hooks/loop-hook.js';
import type { OutputSettings } from '../loop-types.js';
import type { NextStep } from '../next-step.js';
import { AnswerCheck } from './structured-output.js';

/** The hook of a run that must give a structured answer; it checks this run's answers only. */
export function answerHook(output: OutputSettings): LoopHook {
  const answers = new AnswerCheck(output);
  return {
    name: 'structured-output',
    async decide(next, state) {
      let decided: NextStep | undefined;
      if (state.results && next.type !== 'paused' && state.message && (await answers.afterTools(state.message, state.results))) {
        decided = { type: 'final', message: state.message };
      }
      const end = decided ?? next;
      if (end.type !== 'final' && end.type !== 'stop' && end.type !== 'paused') return decided;
      const feedback = await answers.atEnd(end, state.messages);
      if (!feedback) return decided;
      await state.append([feedback]);
      return { type: 'call-model' };
    },
    async finish() {
      return { output: answers.value };
    },
  };
}
