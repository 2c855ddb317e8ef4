/**
 * Turns one session's agent events into OpenTelemetry spans, as they happen:
 *
 * ```
 * invoke_agent <agent>          one per episode (session turn)
 * ├─ chat <model>               one per model call attempt (a retry is a new span)
 * ├─ execute_tool <tool>        one per tool call
 * └─ chat <model> ...
 * ```
 *
 * Built on the event stream rather than inside the loop, so the loop stays free of
 * tracing. Timing follows from the events: a model call runs from `context-packed`
 * to the first event after its answer (its usage arrives later, with `step-finish`,
 * and is set before the span ends at the recorded time); a tool call ends at its
 * `tool-result` and started `durationMs` earlier.
 */
import type { AgentEvent } from '../loop/agent-events.js';
import { type ToolCallPart, toolResultText } from '../message/message.js';
import {
  errorType,
  finishReason,
  inputMessages,
  modelAttributes,
  outputMessages,
  packAttributes,
  usageAttributes,
} from './gen-ai-attributes.js';
import {
  type OpenTelemetryApi,
  SPAN_KIND,
  SPAN_STATUS_ERROR,
  type SpanAttributes,
  type TelemetryContext,
  type TelemetrySpan,
  type TelemetryTracer,
} from './telemetry-api.js';

/** Settings shared by the tracers of one telemetry setup. */
export interface EpisodeTracerSettings {
  api: OpenTelemetryApi;
  tracer: TelemetryTracer;
  agentName: string;
  recordContent: boolean;
}

interface OpenEpisode {
  span: TelemetrySpan;
  context: TelemetryContext;
  model: AgentEventOf<'episode-start'>['model'];
  retries: number;
  /** Tool calls of the current step, for their spans' arguments. */
  calls: Map<string, ToolCallPart>;
  attempts: Map<number, number>;
  /** Attributes for the next model call (a hand-off note announced before it is packed). */
  nextCall: SpanAttributes;
}

interface OpenCall {
  span: TelemetrySpan;
  /** When the model's answer was complete (the span ends there, once its usage is known). */
  answeredAt: number | undefined;
}

type AgentEventOf<Type extends AgentEvent['type']> = Extract<AgentEvent, { type: Type }>;

/**
 * Milliseconds since the epoch on the clock OpenTelemetry stamps spans with (and the
 * tool executor measures `durationMs` with), so explicit and implicit times agree.
 */
function now(): number {
  return performance.timeOrigin + performance.now();
}

/** Traces the episodes of one session (one run at a time, as a session runs them). */
export class EpisodeTracer {
  private episode: OpenEpisode | undefined;
  private call: OpenCall | undefined;

  constructor(private readonly settings: EpisodeTracerSettings) {}

  /** The agent event handler: pass it as `onEvent`. */
  readonly onEvent = (event: AgentEvent): void => {
    if (event.type === 'episode-start') return this.startEpisode(event);
    const episode = this.episode;
    if (!episode) return;
    switch (event.type) {
      case 'reasoning-handoff':
        Object.assign(episode.nextCall, {
          'episodic.handoff.traces': event.traces,
          'episodic.handoff.tokens': event.tokens,
          'episodic.handoff.from': event.from.map((model) => `${model.provider}/${model.id}`),
        });
        return;
      case 'context-packed':
        return this.startCall(episode, event);
      case 'model-fallback':
        episode.span.addEvent('episodic.model_fallback', {
          'episodic.fallback.from': `${event.from.provider}/${event.from.id}`,
          'episodic.fallback.to': `${event.to.provider}/${event.to.id}`,
          'episodic.fallback.reason': event.reason,
          'error.type': event.code,
        });
        return;
      case 'reasoning-stats':
        if (event.scope === 'episode') {
          episode.span.setAttributes({
            'episodic.reasoning.tokens': event.stats.reasoningTokens,
            'episodic.reasoning.visible_tokens': event.stats.visibleTokens,
          });
        } else this.answered();
        return;
      case 'reasoning-leak':
        this.call?.span.addEvent('episodic.reasoning_leak', { 'episodic.leak.findings': event.findings.length });
        return;
      case 'reasoning-restored':
        episode.span.addEvent('episodic.reasoning_restored', {
          'episodic.restored.messages': event.messages,
          'episodic.restored.tokens': event.tokens,
        });
        return;
      case 'warning':
        (this.call?.span ?? episode.span).addEvent('episodic.warning', {
          'episodic.warning.code': event.code,
          'episodic.warning.message': event.message,
        });
        return;
      case 'tool-call':
        this.answered();
        episode.calls.set(event.call.id, event.call);
        return;
      case 'tool-result':
        return this.traceTool(episode, event);
      case 'step-finish':
        return this.finishCall(event);
      case 'error':
        return this.fail(episode, event);
      case 'episode-finish':
        return this.finishEpisode(episode, event);
    }
  };

  private startEpisode(event: AgentEventOf<'episode-start'>): void {
    // A run that ended without episode-finish (its handler was swapped): close what it left.
    this.closeCall();
    this.episode?.span.end();
    const { api, tracer, agentName, recordContent } = this.settings;
    const span = tracer.startSpan(
      `invoke_agent ${agentName}`,
      {
        kind: SPAN_KIND.internal,
        attributes: {
          'gen_ai.operation.name': 'invoke_agent',
          'gen_ai.agent.name': agentName,
          'gen_ai.conversation.id': event.sessionId,
          ...modelAttributes(event.model),
          'episodic.episode.resumed': event.resumed,
          ...(recordContent && event.input ? { 'gen_ai.input.messages': inputMessages(event.input) } : {}),
        },
      },
      api.context.active(),
    );
    this.episode = {
      span,
      context: api.trace.setSpan(api.context.active(), span),
      model: event.model,
      retries: 0,
      calls: new Map(),
      attempts: new Map(),
      nextCall: {},
    };
  }

  private startCall(episode: OpenEpisode, event: AgentEventOf<'context-packed'>): void {
    this.closeCall();
    const attempt = (episode.attempts.get(event.step) ?? 0) + 1;
    episode.attempts.set(event.step, attempt);
    // A fallback chain may send this call to another model than the episode's.
    const model = event.model ?? episode.model;
    const span = this.settings.tracer.startSpan(
      `chat ${model.id}`,
      {
        kind: SPAN_KIND.client,
        attributes: {
          'gen_ai.operation.name': 'chat',
          ...modelAttributes(model),
          'episodic.step': event.step,
          'episodic.attempt': attempt,
          ...packAttributes(event.stats, event.budget),
          ...episode.nextCall,
        },
      },
      episode.context,
    );
    episode.nextCall = {};
    this.call = { span, answeredAt: undefined };
  }

  /** The model call's answer is complete; its span ends here once the usage is known. */
  private answered(): void {
    if (this.call) this.call.answeredAt ??= now();
  }

  private finishCall(event: AgentEventOf<'step-finish'>): void {
    const call = this.call;
    if (!call) return;
    call.span.setAttributes({
      ...(event.usage ? usageAttributes(event.usage) : {}),
      'gen_ai.response.finish_reasons': [finishReason(event.stopReason)],
      'gen_ai.response.model': event.message.model?.id,
      ...(this.settings.recordContent ? { 'gen_ai.output.messages': outputMessages(event.message, event.stopReason) } : {}),
    });
    call.span.end(call.answeredAt ?? now());
    this.call = undefined;
  }

  private traceTool(episode: OpenEpisode, event: AgentEventOf<'tool-result'>): void {
    const { result, durationMs } = event;
    const finished = now();
    const call = episode.calls.get(result.toolCallId);
    const content = this.settings.recordContent
      ? { 'gen_ai.tool.call.arguments': JSON.stringify(call?.args ?? {}), 'gen_ai.tool.call.result': toolResultText(result) }
      : {};
    const span = this.settings.tracer.startSpan(
      `execute_tool ${result.toolName}`,
      {
        kind: SPAN_KIND.internal,
        startTime: finished - durationMs,
        attributes: {
          'gen_ai.operation.name': 'execute_tool',
          'gen_ai.tool.name': result.toolName,
          'gen_ai.tool.call.id': result.toolCallId,
          'gen_ai.tool.type': 'function',
          'episodic.step': event.step,
          'episodic.tool.result_chars': result.content.length,
          ...content,
        },
      },
      episode.context,
    );
    // The error text may quote files or arguments, so it is content: only the fact is recorded.
    if (result.isError) {
      span.setAttribute('error.type', 'tool_error');
      span.setStatus({ code: SPAN_STATUS_ERROR });
    }
    span.end(finished);
  }

  private fail(episode: OpenEpisode, event: AgentEventOf<'error'>): void {
    const type = errorType(event.error);
    const call = this.call;
    if (event.willRetry) {
      episode.retries += 1;
      episode.span.addEvent('episodic.retry', { 'error.type': type, 'episodic.retry.delay_ms': event.retryInMs });
    }
    if (call && call.answeredAt === undefined) {
      markFailed(call.span, event.error, type);
      if (event.willRetry) call.span.setAttribute('episodic.retry.delay_ms', event.retryInMs ?? 0);
    }
    this.closeCall();
    if (!event.willRetry) markFailed(episode.span, event.error, type);
  }

  private finishEpisode(episode: OpenEpisode, event: AgentEventOf<'episode-finish'>): void {
    this.closeCall();
    episode.span.setAttributes({
      ...usageAttributes(event.usage),
      'episodic.episode.finish_reason': event.reason,
      'episodic.episode.model_calls': event.usage.calls,
      'episodic.retries': episode.retries,
      ...(this.settings.recordContent && event.message
        ? { 'gen_ai.output.messages': outputMessages(event.message, undefined) }
        : {}),
    });
    episode.span.end();
    this.episode = undefined;
  }

  /** Ends a model call span left open (its end is unknown; now is the best guess). */
  private closeCall(): void {
    this.call?.span.end(this.call.answeredAt ?? now());
    this.call = undefined;
  }
}

function markFailed(span: TelemetrySpan, error: Error, type: string): void {
  span.recordException(error);
  span.setAttribute('error.type', type);
  span.setStatus({ code: SPAN_STATUS_ERROR, message: error.message });
}
