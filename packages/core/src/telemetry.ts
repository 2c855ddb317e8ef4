/**
 * `@episodic/core/telemetry`: OpenTelemetry traces of sessions, model calls and tool
 * calls (optional peer `@opentelemetry/api`); pass the result as the agent's `telemetry`.
 */
export { createTelemetry } from './telemetry/create-telemetry.js';
export type { Telemetry, TelemetryOptions } from './telemetry/create-telemetry.js';
export type {
  OpenTelemetryApi,
  SpanAttributes,
  SpanAttributeValue,
  SpanTime,
  TelemetryContext,
  TelemetrySpan,
  TelemetryTracer,
} from './telemetry/telemetry-api.js';
