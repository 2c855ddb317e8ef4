/**
 * The part of `@opentelemetry/api` that tracing uses, as structural types, and its
 * loading. The API is an optional peer dependency: core neither imports it on load
 * nor names it in its type declarations (a project without it must still compile),
 * and {@link loadOpenTelemetryApi} imports it only when tracing is switched on.
 *
 * @see https://opentelemetry.io/docs/languages/js/api/
 */

/** A span attribute value. */
export type SpanAttributeValue = string | number | boolean | string[] | number[] | boolean[];

/** Span attributes. */
export type SpanAttributes = Record<string, SpanAttributeValue | undefined>;

/** A point in time as OpenTelemetry takes it (ms since the epoch, or a `Date`). */
export type SpanTime = number | Date;

/** The methods of an OpenTelemetry `Span` that tracing calls. */
export interface TelemetrySpan {
  setAttribute(key: string, value: SpanAttributeValue): unknown;
  setAttributes(attributes: SpanAttributes): unknown;
  addEvent(name: string, attributes?: SpanAttributes, time?: SpanTime): unknown;
  setStatus(status: { code: number; message?: string }): unknown;
  recordException(exception: Error | string, time?: SpanTime): void;
  end(endTime?: SpanTime): void;
}

/** An OpenTelemetry context (opaque here). */
export type TelemetryContext = object;

/** The methods of an OpenTelemetry `Tracer` that tracing calls. */
export interface TelemetryTracer {
  startSpan(
    name: string,
    options?: { kind?: number; attributes?: SpanAttributes; startTime?: SpanTime },
    context?: TelemetryContext,
  ): TelemetrySpan;
}

/** The functions of `@opentelemetry/api` that tracing calls. */
export interface OpenTelemetryApi {
  trace: {
    getTracer(name: string, version?: string): TelemetryTracer;
    setSpan(context: TelemetryContext, span: TelemetrySpan): TelemetryContext;
  };
  context: { active(): TelemetryContext };
}

/** `SpanKind` and `SpanStatusCode` values (stable numbers of the API). */
export const SPAN_KIND = { internal: 0, client: 2 } as const;
export const SPAN_STATUS_ERROR = 2;

/**
 * Imports `@opentelemetry/api`, or returns undefined when it is not installed:
 * tracing is then off and costs nothing. Any other failure to load it is thrown.
 */
export async function loadOpenTelemetryApi(): Promise<OpenTelemetryApi | undefined> {
  try {
    return (await import('@opentelemetry/api')) as unknown as OpenTelemetryApi;
  } catch (error) {
    // Not installed is the documented way to switch tracing off.
    if ((error as { code?: string }).code === 'ERR_MODULE_NOT_FOUND') return undefined;
    throw error;
  }
}
