/**
 * Per-agent controls on what a model streams (`AgentOptions.reasoning.output`), as a
 * wrapper around its adapter:
 *
 * - `maxReasoningTokens`: a cap on reasoning for models without a native thinking
 *   budget (DeepSeek, Qwen, GLM and other reasoning models behind OpenAI-compatible
 *   hosts; Anthropic, OpenAI and Gemini have budgets or efforts of their own: use
 *   those). Reasoning mode is ended this way: once the reasoning streamed passes the
 *   cap before any answer text or tool call, the stream is stopped (the request is
 *   aborted, so the host stops generating), and the call is made once more with the
 *   reasoning so far quoted in its system prompt and the instruction to answer now.
 *   The answer's message holds the cut reasoning followed by the second call's parts.
 *   If the second call reasons past the cap too, it is stopped as well and the step
 *   ends with its reasoning and stop reason `max-tokens`. A `reasoning-capped` warning
 *   says when either happened.
 * - `echoSuppression`: drops immediately repeated word runs from text and reasoning,
 *   for servers that echo bursts of deltas (see echo-filter.ts).
 *
 * The leak-check settings are read by the loop's reasoning report, not here.
 */
import { InvalidArgumentError } from '../../errors/input-errors.js';
import type { AssistantMessage, AssistantPart, Usage } from '../../message/message.js';
import type { ModelAdapter, ModelRequest, ModelStreamEvent, StreamOptions } from '../../model/model-adapter.js';
import { createApproximateCounter } from '../../tokens/token-counter.js';
import type { LeakCheckOptions } from '../stats/leak-check.js';
import { fenceFor } from '../handoff/handoff-note.js';
import { EchoFilter, type EchoSuppression, suppressEcho } from './echo-filter.js';

/** Options of `AgentOptions.reasoning.output`. */
export interface ReasoningOutputOptions {
  /** Most reasoning tokens per call before reasoning mode is ended (see the file comment). Default: no cap. */
  maxReasoningTokens?: number;
  /** Drop immediately repeated word runs; `true` uses n 3, window 32. Default off. */
  echoSuppression?: boolean | EchoSuppression;
  /** Settings of the per-step leak check (tags, probe length, shortest trace); `false` turns it off. */
  leakCheck?: LeakCheckOptions | false;
}

const counter = createApproximateCounter();

/** The system prompt of the call that asks for the answer after reasoning was cut. */
export function answerNowPrompt(system: string | undefined, reasoning: string): string {
  const fence = fenceFor([reasoning]);
  const note = [
    '[Note from the application]',
    'Your reasoning for this step reached its length limit and was stopped. It is quoted below.',
    'Do not reason further: give your answer, or the tool calls you need, now.',
    `${fence}text`,
    reasoning,
    fence,
  ].join('\n');
  return system ? `${system}\n\n${note}` : note;
}

/** What one capped pass of the stream produced. */
interface Pass {
  reasoning: string;
  finish: Extract<ModelStreamEvent, { type: 'finish' }> | undefined;
}

/** The stream controls of one adapter: the reasoning cap, the echo filter's settings. */
interface StreamControls {
  cap: number | undefined;
  echo: EchoSuppression | undefined;
}

/** The stream controls `options` ask for, checked now (not at the first call); undefined when none is set. */
function controlsOf(options: ReasoningOutputOptions | undefined): StreamControls | undefined {
  const cap = options?.maxReasoningTokens;
  const echo = options?.echoSuppression;
  if (cap === undefined && !echo) return undefined;
  if (cap !== undefined && !(Number.isInteger(cap) && cap > 0))
    throw new InvalidArgumentError(`reasoningOutput.maxReasoningTokens must be a positive whole number (got ${cap})`);
  const echoOptions = echo === true ? {} : echo || undefined;
  if (echoOptions) new EchoFilter(echoOptions); // checks the settings
  return { cap, echo: echoOptions };
}

/** `options` when they are valid; throws an `InvalidArgumentError` naming the bad setting. */
export function checkReasoningOutput(options: ReasoningOutputOptions | undefined): ReasoningOutputOptions | undefined {
  controlsOf(options);
  return options;
}

/** `model` with the stream controls of `options` applied; the same adapter when none is set. */
export function withReasoningOutput(model: ModelAdapter, options: ReasoningOutputOptions | undefined): ModelAdapter {
  const controls = controlsOf(options);
  if (!controls) return model;
  const wrapped: ModelAdapter = {
    model: model.model,
    ...(model.profile ? { profile: model.profile } : {}),
    stream: (request, streamOptions) => controlled(model, request, streamOptions, controls),
  };
  if (model.countTokens) wrapped.countTokens = model.countTokens.bind(model);
  if (model.secretValues) wrapped.secretValues = model.secretValues.bind(model);
  // A compaction call answers with a summary only: nothing for the controls to act on.
  if (model.compact) wrapped.compact = model.compact.bind(model);
  return wrapped;
}

async function* controlled(
  model: ModelAdapter,
  request: ModelRequest,
  options: StreamOptions | undefined,
  controls: StreamControls,
): AsyncGenerator<ModelStreamEvent> {
  const text = controls.echo ? new EchoFilter(controls.echo) : undefined;
  const thought = controls.echo ? new EchoFilter(controls.echo) : undefined;
  const forward = (event: ModelStreamEvent): ModelStreamEvent | undefined => {
    const filter = event.type === 'text-delta' ? text : event.type === 'reasoning-delta' ? thought : undefined;
    if (!filter || (event.type !== 'text-delta' && event.type !== 'reasoning-delta')) return event;
    const kept = filter.push(event.text);
    return kept === '' ? undefined : { ...event, text: kept };
  };
  const first: Pass = { reasoning: '', finish: undefined };
  for await (const event of capped(model, request, options, controls.cap, first)) {
    const out = forward(event);
    if (out && out.type !== 'finish') yield out;
  }
  let finish = first.finish;
  let cut = '';
  if (!finish) {
    yield { type: 'warning', code: 'reasoning-capped', message: cappedMessage(model, controls.cap as number, 'answer asked for') };
    const second: Pass = { reasoning: '', finish: undefined };
    const retry = { ...request, system: answerNowPrompt(request.system, first.reasoning) };
    for await (const event of capped(model, retry, options, controls.cap, second)) {
      const out = forward(event);
      if (out && out.type !== 'finish') yield out;
    }
    finish = second.finish;
    cut = first.reasoning;
    if (!finish) {
      yield { type: 'warning', code: 'reasoning-capped', message: cappedMessage(model, controls.cap as number, 'step ended') };
      cut += second.reasoning;
      const message: AssistantMessage = { role: 'assistant', model: model.model, content: [] };
      finish = { type: 'finish', message, usage: { inputTokens: 0, outputTokens: 0 }, stopReason: 'max-tokens' };
    }
  }
  for (const filter of [thought, text]) {
    const rest = filter?.flush() ?? '';
    if (rest !== '') yield { type: filter === text ? 'text-delta' : 'reasoning-delta', text: rest };
  }
  yield finished(finish, cut, controls.echo);
}

/** Streams one call, stopping it once reasoning passes `cap` before any answer; records the pass. */
async function* capped(
  model: ModelAdapter,
  request: ModelRequest,
  options: StreamOptions | undefined,
  cap: number | undefined,
  pass: Pass,
): AsyncGenerator<ModelStreamEvent> {
  const stop = new AbortController();
  const outer = options?.signal;
  const onAbort = () => stop.abort(outer?.reason);
  outer?.addEventListener('abort', onAbort, { once: true });
  let answering = false;
  let tokens = 0;
  try {
    for await (const event of model.stream(request, { ...options, signal: stop.signal })) {
      if (event.type === 'finish') pass.finish = event;
      else if (event.type === 'reasoning-delta') {
        pass.reasoning += event.text;
        tokens += counter.countText(event.text);
      } else if (event.type === 'text-delta' || event.type === 'tool-call-start') answering = true;
      yield event;
      if (cap !== undefined && !answering && tokens > cap) {
        stop.abort(new Error('reasoning cap reached'));
        return;
      }
    }
  } finally {
    outer?.removeEventListener('abort', onAbort);
  }
}

function cappedMessage(model: ModelAdapter, cap: number, outcome: string): string {
  return `${model.model.provider}/${model.model.id} reasoned past reasoningOutput.maxReasoningTokens (${cap}): the stream was stopped and the ${outcome}.`;
}

/**
 * The step's final message: the cut reasoning of the first call (text only: a cut
 * trace has no signature) before the parts of the call that answered, and the echo
 * filter applied to every text and reasoning part, as it was to the deltas.
 */
function finished(
  finish: Extract<ModelStreamEvent, { type: 'finish' }>,
  cut: string,
  echo: EchoSuppression | undefined,
): Extract<ModelStreamEvent, { type: 'finish' }> {
  const cutText = echo && cut !== '' ? suppressEcho(cut, echo) : cut;
  const cutTokens = cutText === '' ? 0 : counter.countText(cutText);
  const parts: AssistantPart[] = cutText === '' ? [] : [{ type: 'reasoning', text: cutText }];
  for (const part of finish.message.content) {
    if (echo && (part.type === 'text' || part.type === 'reasoning')) parts.push({ ...part, text: suppressEcho(part.text, echo) });
    else parts.push(part);
  }
  const usage: Usage =
    cutTokens === 0
      ? finish.usage
      : {
          ...finish.usage,
          // The stopped call reported no usage: its reasoning is counted here (an estimate).
          outputTokens: finish.usage.outputTokens + cutTokens,
          reasoningTokens: (finish.usage.reasoningTokens ?? 0) + cutTokens,
        };
  return { type: 'finish', message: { ...finish.message, content: parts }, usage, stopReason: finish.stopReason };
}
