/**
 * A loopback OpenAI Responses API (https://platform.openai.com/docs/api-reference/responses):
 * streams scripted answers as the real API does (`response.created`,
 * `response.output_item.added/done`, `response.reasoning_summary_text.delta`,
 * `response.output_text.delta`, `response.function_call_arguments.delta`,
 * `response.completed`) with encrypted reasoning items, and rejects what the API
 * rejects (see ./openai-responses-validation.ts). Cached-token usage follows
 * OpenAI's rule: the byte-identical prefix, from 1024 tokens, in 128-token steps.
 */
import type { ServerResponse } from 'node:http';
import {
  type InputItem,
  type IssuedItem,
  inputItems,
  phaseModel,
  validateResponsesInput,
  viewOfResponsesRequest,
} from './openai-responses-validation.js';
import { modelJson } from './model-json.js';
import { compactionProblem, compactThreshold, type IssuedCompactions, issueCompaction } from './openai-responses-compaction.js';
import type { RecordedRequest, ScriptedReply, ScriptedResponse, ScriptedServer } from './scripted-server.js';
import {
  clientGone,
  headerRecord,
  readJsonBody,
  sendJson,
  startLoopbackServer,
  startSse,
  writeSseEvent,
} from './sse.js';
import { openAIFormatProblem, openAIFormatView } from './structured-output-rules.js';
import { type WithheldEntry, withheldAtTurnBoundary } from './openai-responses-withheld.js';

/** Scripted answers: the neutral ones plus OpenAI-only endings. */
export type OpenAIScript =
  | ScriptedResponse
  /** Ends with `response.incomplete` (Responses) or `finish_reason: length` (Chat). */
  | { type: 'incomplete'; reason: 'max_output_tokens' | 'content_filter'; text?: string }
  /** Answers with exactly this HTTP status, body and headers. */
  | { type: 'http-error'; status: number; body: unknown; headers?: Record<string, string> }
  /** A reply whose response also lists these `input_transformations` entries (after the server's own). */
  | (ScriptedReply & { withheld: Record<string, unknown>[] });

/** A scripted server that also takes OpenAI-only script entries. */
export interface OpenAIScriptedServer extends ScriptedServer {
  enqueue(...responses: OpenAIScript[]): void;
}

/** OpenAI's bodies for the neutral scripted errors. */
export function openaiScriptedError(status: number): { message: string; type: string; code: string | null } {
  if (status === 429) {
    return {
      message: 'Rate limit reached for requests. Please try again in 1s.',
      type: 'requests',
      code: 'rate_limit_exceeded',
    };
  }
  if (status === 503 || status === 529) {
    return { message: 'The engine is currently overloaded, please try again later.', type: 'server_error', code: null };
  }
  return {
    message: 'The server had an error while processing your request. Sorry about that!',
    type: 'server_error',
    code: null,
  };
}

/** OpenAI's context-length error. */
export const contextOverflowError = {
  message: 'Your input exceeds the context window of this model. Please adjust your input and try again.',
  type: 'invalid_request_error',
  param: 'input',
  code: 'context_length_exceeded',
};

/** Rough token count (4 characters a token) for simulated usage. */
export const tokensOf = (text: string) => Math.ceil(text.length / 4);

/** Cached tokens as OpenAI counts them: the shared prefix, from 1024 tokens, in 128-token steps. */
export function cachedPrefixTokens(previous: string, current: string): number {
  let shared = 0;
  const limit = Math.min(previous.length, current.length);
  while (shared < limit && previous.charCodeAt(shared) === current.charCodeAt(shared)) shared += 1;
  const tokens = Math.floor(shared / 4);
  return tokens < 1024 ? 0 : Math.floor(tokens / 128) * 128;
}

/** Splits text into small deltas, as the real APIs stream them. */
export function chunks(text: string, size = 7): string[] {
  const pieces: string[] = [];
  for (let index = 0; index < text.length; index += size) pieces.push(text.slice(index, index + size));
  return pieces;
}

/** Answers a scripted error entry; returns true when it handled the request. */
export function answerScriptedError(
  response: ServerResponse,
  record: RecordedRequest,
  scripted: OpenAIScript,
): boolean {
  if (scripted.type === 'http-error') {
    record.status = scripted.status;
    sendJson(response, scripted.status, scripted.body, scripted.headers);
    return true;
  }
  if (scripted.type === 'error') {
    const error = openaiScriptedError(scripted.status);
    record.status = scripted.status;
    record.error = error.message;
    const headers: Record<string, string> =
      scripted.retryAfterSeconds !== undefined ? { 'retry-after': String(scripted.retryAfterSeconds) } : {};
    sendJson(response, scripted.status, { error: { ...error, param: null } }, headers);
    return true;
  }
  if (scripted.type === 'context-overflow') {
    record.status = 400;
    record.error = contextOverflowError.message;
    sendJson(response, 400, { error: contextOverflowError });
    return true;
  }
  return false;
}

/** Reasoning models; gpt-5-chat is not one (it refuses reasoning parameters). */
const reasoningModel = /^(o\d|gpt-5(?!-chat))/;

/** What a model that does not reason refuses: reasoning settings and encrypted reasoning. */
function reasoningParameterProblem(body: Record<string, unknown>): { message: string; code: string } | undefined {
  if (reasoningModel.test(String(body.model))) return undefined;
  if (Array.isArray(body.include) && body.include.includes('reasoning.encrypted_content'))
    return { message: 'Encrypted content is not supported with this model.', code: 'unsupported_parameter' };
  const reasoning = body.reasoning as Record<string, unknown> | undefined;
  const field = reasoning ? Object.keys(reasoning)[0] : undefined;
  return field
    ? {
        message: `Unsupported parameter: 'reasoning.${field}' is not supported with this model.`,
        code: 'unsupported_parameter',
      }
    : undefined;
}

/** Starts a strict loopback Responses server; `url` is the SDK `baseURL` (ends in `/v1`). */
export async function startOpenAIResponsesServer(): Promise<OpenAIScriptedServer> {
  const queue: OpenAIScript[] = [];
  const requests: RecordedRequest[] = [];
  const issued = new Map<string, IssuedItem>();
  const compactions: IssuedCompactions = new Map();
  let counter = 0;
  let previousPrefix = '';
  const nextId = (prefix: string) => `${prefix}_${(++counter).toString(16).padStart(24, '0')}`;

  const server = await startLoopbackServer(async (request, response) => {
    const path = request.url ?? '';
    const headers = headerRecord(request);
    const body = ((await readJsonBody(request)) ?? {}) as Record<string, unknown>;
    const record: RecordedRequest = { path, headers, body, status: 200 };
    requests.push(record);
    const refuse = (status: number, message: string, code: string | null = null) => {
      record.status = status;
      record.error = message;
      sendJson(response, status, { error: { message, type: 'invalid_request_error', param: 'input', code } });
    };
    const compactPath = path.endsWith('/responses/compact');
    if (!path.endsWith('/responses') && !compactPath) return refuse(404, `Invalid URL (POST ${path})`);
    if (!headers.authorization?.startsWith('Bearer ')) return refuse(401, 'You did not provide an API key.');
    if (compactPath) return compactResponse({ body, record, issued, compactions, nextId }, response, refuse);
    const unsupported = reasoningParameterProblem(body);
    if (unsupported) return refuse(400, unsupported.message, unsupported.code);
    record.view = viewOfResponsesRequest(body, issued);
    const format = (body.text as { format?: unknown } | undefined)?.format;
    const formatView = openAIFormatView(format);
    if (formatView) record.view.outputFormat = formatView;
    const formatProblem = openAIFormatProblem(format, 'text.format');
    if (formatProblem) return refuse(400, formatProblem, 'invalid_json_schema');
    const problem = validateResponsesInput(body, issued);
    if (problem) return refuse(problem.status, problem.message, problem.code);
    const compaction = compactionProblem(body, inputItems(body), compactions);
    if (compaction) return refuse(400, compaction.message, compaction.code);
    const scripted = queue.shift() ?? { type: 'reply', text: 'ok' };
    if (answerScriptedError(response, record, scripted)) return;
    const prefix = JSON.stringify([body.instructions, body.tools, inputItems(body)]);
    const usage = { input: tokensOf(prefix), cached: cachedPrefixTokens(previousPrefix, prefix) };
    previousPrefix = prefix;
    // With store: false, encrypted reasoning comes back only when asked for (older reasoning models).
    const encrypted = Array.isArray(body.include) && body.include.includes('reasoning.encrypted_content');
    const stream = new ResponseStream(response, String(body.model), issued, nextId, encrypted);
    stream.withheld = [...withheldAtTurnBoundary(body, inputItems(body)), ...('withheld' in scripted ? scripted.withheld : [])];
    const threshold = compactThreshold(body);
    const compacts = threshold !== undefined && usage.input > threshold;
    if (compacts) stream.compaction = issueCompaction(String(body.model), inputItems(body).length, compactions, nextId('cmp'));
    const sentBack = inputItems(body).flatMap((item) => (item.type === 'compaction' ? [String(item.encrypted_content)] : []));
    record.context = { seenTexts: [], appliedEdits: [], compacted: compacts, compactionsSent: sentBack };
    startSse(response);
    if (scripted.type === 'stall') {
      stream.begin();
      stream.message(scripted.text, false);
      await clientGone(response);
      return;
    }
    if (scripted.type === 'incomplete') {
      stream.begin();
      if (scripted.text) stream.message(scripted.text);
      stream.finish(usage, undefined, scripted.reason);
      return;
    }
    stream.reply(scripted as ScriptedReply, usage);
  });
  return {
    url: `${server.url}/v1`,
    requests,
    enqueue: (...responses) => queue.push(...responses),
    modelCalls: () => requests.filter((request) => request.view !== undefined),
    close: () => server.close(),
  };
}

/**
 * `POST /responses/compact` (openai-node `CompactedResponse`): the input checked as a create
 * request's; the output is its user messages, then one opaque compaction item bound to the model.
 */
type CompactContext = { body: Record<string, unknown>; record: RecordedRequest; issued: Map<string, IssuedItem> };
type CompactIds = { compactions: IssuedCompactions; nextId: (prefix: string) => string };
function compactResponse(context: CompactContext & CompactIds, response: ServerResponse,
  refuse: (status: number, message: string, code?: string | null) => void): void {
  const { body, record, issued, compactions } = context;
  if (typeof body.model !== 'string') return refuse(400, "Missing required parameter: 'model'.", 'missing_required_parameter');
  if (body.stream !== undefined) return refuse(400, "Unknown parameter: 'stream'.", 'unknown_parameter');
  record.view = viewOfResponsesRequest(body, issued);
  const problem = validateResponsesInput(body, issued) ?? { status: 400, ...compactionProblem(body, inputItems(body), compactions) };
  if (problem.message) return refuse(problem.status, problem.message, problem.code);
  const input = inputItems(body);
  const item = issueCompaction(body.model, input.length, compactions, context.nextId('cmp'));
  const output = [...input.filter((entry) => entry.role === 'user').map((entry) => ({ type: 'message', ...entry })), item];
  const [inputTokens, outputTokens] = [tokensOf(JSON.stringify([body.instructions, input])), tokensOf(JSON.stringify(item))];
  record.context = { seenTexts: [], appliedEdits: [], compacted: true, compactionsSent: [] };
  const usage = { input_tokens: inputTokens, input_tokens_details: { cached_tokens: 0 }, output_tokens: outputTokens,
    output_tokens_details: { reasoning_tokens: 0 }, total_tokens: inputTokens + outputTokens };
  sendJson(response, 200, { id: context.nextId('resp'), object: 'response.compaction', created_at: Math.floor(Date.now() / 1000), output, usage });
}

function messageTextOf(item: InputItem): string {
  return (item.content as { text?: string }[]).map((part) => part.text ?? '').join('');
}

/** Writes one response's events and registers its items for later validation. */
class ResponseStream {
  private sequence = 0;
  private readonly output: InputItem[] = [];
  private reasoningId: string | undefined;
  private readonly responseId: string;
  /** Set when this response compacts: the item goes out before the reply. */
  compaction: InputItem | undefined;
  /** The response's `input_transformations` (left out when empty). */
  withheld: (WithheldEntry | Record<string, unknown>)[] = [];

  constructor(
    private readonly response: ServerResponse,
    private readonly model: string,
    private readonly issued: Map<string, IssuedItem>,
    private readonly nextId: (prefix: string) => string,
    private readonly encrypted: boolean,
  ) {
    this.responseId = nextId('resp');
  }

  private send(type: string, fields: Record<string, unknown>): void {
    writeSseEvent(this.response, { type, sequence_number: this.sequence++, ...fields }, { event: type });
  }

  private shell(status: string): Record<string, unknown> {
    return { id: this.responseId, object: 'response', created_at: 0, model: this.model, status, output: this.output };
  }

  begin(): void {
    this.send('response.created', { response: this.shell('in_progress') });
    this.send('response.in_progress', { response: this.shell('in_progress') });
  }

  reply(scripted: ScriptedReply, usage: { input: number; cached: number }): void {
    this.begin();
    if (this.compaction) {
      const item = this.compaction;
      this.send('response.output_item.added', { output_index: this.output.length, item });
      this.send('response.output_item.done', { output_index: this.output.length, item });
      this.output.push(item);
    }
    if (scripted.reasoning && scripted.reasoning.length > 0) this.reasoning(scripted.reasoning);
    // Phase models label a message before tool calls as commentary, the last one as the final answer.
    const phase = scripted.toolCalls?.length ? 'commentary' : 'final_answer';
    if (scripted.text !== undefined) this.message(scripted.text, true, phaseModel.test(this.model) ? phase : undefined);
    for (const call of scripted.toolCalls ?? []) this.functionCall(call.name, call.args);
    this.finish(usage, scripted);
  }

  private item(item: InputItem, body: (outputIndex: number) => void): void {
    const outputIndex = this.output.length;
    const id = String(item.id);
    if (item.type !== 'reasoning') {
      const reasoning = this.reasoningId ? this.issued.get(this.reasoningId) : undefined;
      if (reasoning && !reasoning.followingId) reasoning.followingId = id;
      const labelled = typeof item.phase === 'string' ? { phase: item.phase, text: messageTextOf(item) } : {};
      this.issued.set(id, {
        type: item.type as IssuedItem['type'],
        model: this.model,
        reasoningId: this.reasoningId,
        ...labelled,
      });
    }
    const started =
      item.type === 'reasoning'
        ? { type: 'reasoning', id, summary: [] }
        : item.type === 'message'
          ? { ...item, status: 'in_progress', content: [] }
          : { ...item, status: 'in_progress', arguments: '' };
    this.send('response.output_item.added', { output_index: outputIndex, item: started });
    body(outputIndex);
    this.send('response.output_item.done', { output_index: outputIndex, item });
    this.output.push(item);
  }

  private reasoning(texts: string[]): void {
    const id = this.nextId('rs');
    this.reasoningId = id;
    const encrypted = Buffer.from(JSON.stringify({ id, model: this.model, nonce: Math.random() })).toString('base64');
    this.issued.set(id, { type: 'reasoning', model: this.model, encrypted, texts });
    const summary = texts.map((text) => ({ type: 'summary_text', text }));
    const item = { type: 'reasoning', id, summary, ...(this.encrypted ? { encrypted_content: encrypted } : {}) };
    this.item(item, (outputIndex) => {
      texts.forEach((text, summaryIndex) => {
        const where = { item_id: id, output_index: outputIndex, summary_index: summaryIndex };
        this.send('response.reasoning_summary_part.added', { ...where, part: { type: 'summary_text', text: '' } });
        for (const delta of chunks(text)) this.send('response.reasoning_summary_text.delta', { ...where, delta });
        this.send('response.reasoning_summary_text.done', { ...where, text });
        this.send('response.reasoning_summary_part.done', { ...where, part: { type: 'summary_text', text } });
      });
    });
  }

  message(text: string, complete = true, phase?: string): void {
    const id = this.nextId('msg');
    const labelled = phase ? { phase } : {};
    const part = { type: 'output_text', text, annotations: [], logprobs: [] };
    const where = { item_id: id, output_index: this.output.length, content_index: 0 };
    if (!complete) {
      this.send('response.output_item.added', {
        output_index: where.output_index,
        item: { type: 'message', id, role: 'assistant', status: 'in_progress', content: [] },
      });
      this.send('response.output_text.delta', { ...where, delta: text, logprobs: [] });
      return;
    }
    this.item({ type: 'message', id, role: 'assistant', status: 'completed', content: [part], ...labelled }, () => {
      this.send('response.content_part.added', { ...where, part: { ...part, text: '' } });
      for (const delta of chunks(text)) this.send('response.output_text.delta', { ...where, delta, logprobs: [] });
      this.send('response.output_text.done', { ...where, text, logprobs: [] });
      this.send('response.content_part.done', { ...where, part });
    });
  }

  private functionCall(name: string, args: unknown): void {
    const id = this.nextId('fc');
    const callId = this.nextId('call');
    const text = modelJson(args);
    const item = { type: 'function_call', id, call_id: callId, name, arguments: text, status: 'completed' };
    this.issued.set(callId, { type: 'function_call', model: this.model, arguments: text });
    this.item(item, (outputIndex) => {
      for (const delta of chunks(text)) {
        this.send('response.function_call_arguments.delta', { item_id: id, output_index: outputIndex, delta });
      }
      this.send('response.function_call_arguments.done', { item_id: id, output_index: outputIndex, arguments: text });
    });
  }

  finish(usage: { input: number; cached: number }, scripted?: ScriptedReply, incomplete?: string): void {
    const reasoningTokens =
      scripted?.usage?.reasoning ??
      tokensOf(
        this.output.flatMap((item) => (item.type === 'reasoning' ? [JSON.stringify(item.summary)] : [])).join(''),
      );
    const output = scripted?.usage?.output ?? tokensOf(JSON.stringify(this.output));
    const input = scripted?.usage?.input ?? usage.input;
    const wireUsage = {
      input_tokens: input,
      input_tokens_details: { cached_tokens: scripted?.usage?.cacheRead ?? usage.cached, cache_write_tokens: 0 },
      output_tokens: output,
      output_tokens_details: { reasoning_tokens: Math.min(reasoningTokens, output) },
      total_tokens: input + output,
    };
    const status = incomplete ? 'incomplete' : 'completed';
    const finished = {
      ...this.shell(status),
      usage: wireUsage,
      incomplete_details: incomplete ? { reason: incomplete } : null,
      ...(this.withheld.length ? { input_transformations: this.withheld } : {}),
    };
    this.send(incomplete ? 'response.incomplete' : 'response.completed', { response: finished });
    this.response.end();
  }
}
