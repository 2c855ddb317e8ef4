/**
 * `createTelemetry`: OpenTelemetry traces of an agent's sessions.
 *
 * ```ts
 * const telemetry = await createTelemetry();          // off when @opentelemetry/api is not installed
 * const session = await agent.session();
 * await session.send('CI is red', { onEvent: telemetry.handler() });
 * ```
 *
 * Spans go to the globally registered tracer provider (or the `tracer` given), so
 * any OpenTelemetry exporter receives them. Prompts, reasoning, answers, tool
 * arguments and tool results stay out of the spans unless `recordContent` is set.
 */
import type { AgentEventHandler } from '../loop/agent-events.js';
import { EpisodeTracer } from './episode-tracer.js';
import { loadOpenTelemetryApi, type OpenTelemetryApi, type TelemetryTracer } from './telemetry-api.js';

/** Options of {@link createTelemetry}. */
export interface TelemetryOptions {
  /**
   * Record content on spans: the user message, each call's output (reasoning
   * included), tool arguments and results (`gen_ai.input.messages`,
   * `gen_ai.output.messages`, `gen_ai.tool.call.arguments`, `gen_ai.tool.call.result`).
   * Default false: spans carry counts, names, ids and timings only.
   */
  recordContent?: boolean;
  /** `gen_ai.agent.name` and the episode span's name. Default `episodic`. */
  agentName?: string;
  /** The tracer to use. Default: `trace.getTracer('@episodic/core')` of the global provider. */
  tracer?: TelemetryTracer;
  /**
   * The `@opentelemetry/api` module, for setups where a dynamic import cannot find it
   * (some bundlers): `import * as api from '@opentelemetry/api'`. Default: imported on first use.
   */
  api?: OpenTelemetryApi;
}

/** A tracing setup; see {@link createTelemetry}. */
export interface Telemetry {
  /** False when `@opentelemetry/api` is not installed: handlers then do nothing. */
  readonly enabled: boolean;
  /**
   * An event handler that traces the runs of one session (pass it as `onEvent` to
   * `send`, `stream` or `resume`; reuse it for that session's next episodes). Give
   * each session its own: the events of two runs at once cannot be told apart.
   * `next` receives every event too.
   */
  handler(next?: AgentEventHandler): AgentEventHandler;
}

const TRACER_NAME = '@episodic/core';

/**
 * Sets up tracing. Imports `@opentelemetry/api` (an optional peer dependency) only
 * now, and returns a disabled setup when it is not installed.
 */
export async function createTelemetry(options: TelemetryOptions = {}): Promise<Telemetry> {
  const api = options.api ?? (await loadOpenTelemetryApi());
  if (!api) return { enabled: false, handler: (next) => next ?? (() => {}) };
  const settings = {
    api,
    tracer: options.tracer ?? api.trace.getTracer(TRACER_NAME),
    agentName: options.agentName ?? 'episodic',
    recordContent: options.recordContent === true,
  };
  return {
    enabled: true,
    handler(next) {
      const { onEvent } = new EpisodeTracer(settings);
      if (!next) return onEvent;
      return (event) => {
        onEvent(event);
        next(event);
      };
    },
  };
}
