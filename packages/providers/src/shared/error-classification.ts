/**
 * Provider failures as data: one row per known error shape, each with a sample
 * message that the unit test feeds back through {@link classifyModelError}.
 * Adapters for every wire API share this table; add a row, not an `if`.
 */
import { ModelError, type ModelErrorKind } from '@episodic/core';

/** One way to recognise a provider failure. Message patterns are tried before status ranges. */
export interface ErrorRule {
  kind: ModelErrorKind;
  retryable: boolean;
  /** Matched against the provider's error message. */
  pattern?: RegExp;
  /** Inclusive HTTP status range. */
  status?: readonly [number, number];
  /** A real-shaped message (or status) this row must classify; checked by the unit test. */
  sample: { status?: number; message: string };
}

/**
 * The rows, most specific first. Context-overflow rows come first because
 * providers report them as plain 400s.
 * - Anthropic: https://docs.claude.com/en/api/errors
 * - Gemini: https://ai.google.dev/gemini-api/docs/troubleshooting
 * - OpenAI: https://platform.openai.com/docs/guides/error-codes
 * - Groq: https://console.groq.com/docs/errors
 * - Moonshot: https://platform.moonshot.ai/docs/api/chat
 */
export const errorRules: readonly ErrorRule[] = [
  {
    kind: 'context-overflow',
    retryable: false,
    pattern: /prompt is too long/i,
    sample: { status: 400, message: 'prompt is too long: 212345 tokens > 200000 maximum' },
  },
  {
    // Anthropic, when input plus `max_tokens` passes the window (before the input alone does).
    kind: 'context-overflow',
    retryable: false,
    pattern: /input length and `max_tokens` exceed context limit/i,
    sample: {
      status: 400,
      message:
        'input length and `max_tokens` exceed context limit: 178959 + 64000 > 200000, decrease input length or `max_tokens` and try again',
    },
  },
  {
    kind: 'context-overflow',
    retryable: false,
    pattern: /input token count \(\d+\) exceeds the maximum/i,
    sample: {
      status: 400,
      message: 'The input token count (1200000) exceeds the maximum number of tokens allowed (1048576).',
    },
  },
  {
    kind: 'context-overflow',
    retryable: false,
    pattern: /context_length_exceeded|maximum context length|exceeds the context window/i,
    sample: {
      status: 400,
      message:
        "This model's maximum context length is 128000 tokens. However, your messages resulted in 130512 tokens.",
    },
  },
  {
    // Groq and Cerebras (code `context_length_exceeded`, which the SDK leaves out of the message).
    kind: 'context-overflow',
    retryable: false,
    pattern: /reduce the length of the messages/i,
    sample: { status: 400, message: 'Please reduce the length of the messages or completion.' },
  },
  {
    // Moonshot (Kimi).
    kind: 'context-overflow',
    retryable: false,
    pattern: /exceeded model token limit/i,
    sample: {
      status: 400,
      message: 'Invalid request: Your request exceeded model token limit: 262144 (requested: 269030)',
    },
  },
  {
    // Groq (recorded, as a 400 and as an in-stream error event): the model's own tool
    // call failed the server's schema check. The request is fine; another try may not fail.
    kind: 'protocol',
    retryable: true,
    pattern: /tool_use_failed|tool call validation failed/i,
    sample: {
      status: 400,
      message: "tool_use_failed: Tool call validation failed: tool call validation failed: parameters for tool get_something_by_name did not match schema: errors: [missing properties: 'name']",
    },
  },
  {
    kind: 'overloaded',
    retryable: true,
    pattern: /overloaded/i,
    sample: { status: 529, message: 'Overloaded' },
  },
  { kind: 'overloaded', retryable: true, status: [529, 529], sample: { status: 529, message: '' } },
  {
    kind: 'rate-limit',
    retryable: true,
    status: [429, 429],
    sample: { status: 429, message: 'Number of request tokens has exceeded your per-minute rate limit' },
  },
  {
    kind: 'auth',
    retryable: false,
    status: [401, 403],
    sample: { status: 401, message: 'invalid x-api-key' },
  },
  {
    kind: 'server',
    retryable: true,
    status: [500, 599],
    sample: { status: 500, message: 'Internal server error' },
  },
  {
    kind: 'rate-limit',
    retryable: true,
    pattern: /rate limit|resource has been exhausted|quota/i,
    sample: { message: 'Resource has been exhausted (e.g. check quota).' },
  },
  {
    kind: 'invalid-request',
    retryable: false,
    status: [400, 499],
    sample: { status: 400, message: 'messages.1.content.0: unexpected `tool_use_id` found in `tool_result` blocks' },
  },
];

/** What an adapter knows about a failed call. */
export interface ProviderFailure {
  provider: string;
  status?: number;
  message: string;
  /** Seconds the provider asked to wait. */
  retryAfter?: number;
  cause?: unknown;
}

/** The first rule that matches a failure, if any. */
export function matchErrorRule(
  failure: Pick<ProviderFailure, 'status' | 'message'>,
  rules: readonly ErrorRule[] = errorRules,
): ErrorRule | undefined {
  const byMessage = rules.find((rule) => rule.pattern?.test(failure.message) === true);
  if (byMessage) return byMessage;
  const status = failure.status;
  if (status === undefined) return undefined;
  return rules.find((rule) => rule.status !== undefined && status >= rule.status[0] && status <= rule.status[1]);
}

/** Turns a provider failure into a typed {@link ModelError} whose message says what to do. */
export function classifyModelError(failure: ProviderFailure, rules: readonly ErrorRule[] = errorRules): ModelError {
  const rule = matchErrorRule(failure, rules);
  const kind = rule?.kind ?? 'protocol';
  const status = failure.status === undefined ? '' : ` (HTTP ${failure.status})`;
  const detail = failure.message.replace(/\.\s*$/, '');
  return new ModelError(kind, `${failure.provider}${status}: ${detail}. ${adviceFor(kind)}`, {
    retryable: rule?.retryable ?? false,
    status: failure.status,
    retryAfter: failure.retryAfter,
    cause: failure.cause,
  });
}

const advice: Record<ModelErrorKind, string> = {
  'rate-limit': 'Rate limited: retry after the indicated delay or lower the request rate.',
  overloaded: 'The provider is overloaded: retry with backoff.',
  server: 'Provider-side failure: retry with backoff.',
  'context-overflow': 'The request exceeds the context window: repack with a smaller budget.',
  auth: 'Check the API key and its permissions.',
  'invalid-request': 'The provider rejected the request; this is a bug in the request shape or settings.',
  aborted: 'The call was aborted.',
  network: 'Network failure: check connectivity and retry.',
  protocol: 'Unexpected response from the provider.',
};

function adviceFor(kind: ModelErrorKind): string {
  return advice[kind];
}

/** Parses a `retry-after` header (seconds or an HTTP date) into seconds. */
export function parseRetryAfter(value: string | null | undefined, now = Date.now()): number | undefined {
  if (!value) return undefined;
  const seconds = Number(value);
  if (Number.isFinite(seconds)) return Math.max(0, seconds);
  const date = Date.parse(value);
  return Number.isNaN(date) ? undefined : Math.max(0, Math.ceil((date - now) / 1000));
}

/**
 * Socket-level error codes (Node and undici) of a connection that failed or
 * dropped; the call may well succeed when retried.
 */
const connectionErrorCodes: ReadonlySet<string> = new Set([
  'ECONNRESET',
  'ECONNREFUSED',
  'EPIPE',
  'ETIMEDOUT',
  'ENOTFOUND',
  'EAI_AGAIN',
  'UND_ERR_SOCKET',
  'UND_ERR_CLOSED',
  'UND_ERR_CONNECT_TIMEOUT',
  'UND_ERR_HEADERS_TIMEOUT',
  'UND_ERR_BODY_TIMEOUT',
]);

/**
 * The retryable `network` error for a connection that failed or dropped mid-stream
 * (fetch reports it as `TypeError: terminated` / `fetch failed` with a socket
 * error as cause), or undefined when `error` is something else.
 */
export function connectionFailure(provider: string, error: unknown): ModelError | undefined {
  if (!(error instanceof Error)) return undefined;
  const cause = (error as { cause?: unknown }).cause;
  const code = (cause instanceof Error ? (cause as { code?: unknown }).code : undefined) ?? (error as { code?: unknown }).code;
  const fetchFailure = error instanceof TypeError && /^(terminated|fetch failed)$/.test(error.message);
  if (!fetchFailure && !(typeof code === 'string' && connectionErrorCodes.has(code))) return undefined;
  const detail = cause instanceof Error ? `${error.message} (${cause.message})` : error.message;
  return new ModelError('network', `${provider}: the connection failed: ${detail}. ${adviceFor('network')}`, {
    retryable: true,
    cause: error,
  });
}

/** The aborted-call error every adapter throws when its signal fires. */
export function abortedError(provider: string, cause?: unknown): ModelError {
  return new ModelError('aborted', `${provider}: the call was aborted before it finished.`, { cause });
}
