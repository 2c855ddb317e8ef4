/**
 * A loopback Anthropic Messages API (https://docs.claude.com/en/api/messages):
 * streams scripted answers as the real API does (named SSE events, block
 * start/delta/stop, `signature_delta` just before a thinking block stops, usage in
 * `message_start` and `message_delta`) and rejects what the API rejects, with its
 * status codes and error strings (see ./anthropic-validation.ts).
 */
import { createHmac, randomBytes } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { contextManagementProblem, type ManagedContext, manageContext } from './anthropic-context-rules.js';
import { bindingBeta, bindingControlsProblem, bindingView, dropFailedBlocks } from './anthropic-binding.js';
import { OnDemandCompactions, sendOnDemandProblem } from './anthropic-on-demand.js';
import { systemMessageProblem } from './anthropic-system-messages.js';
import {
  type AnthropicBody,
  type IssuedThinking,
  normalizeBody,
  prefixKey,
  type SignatureCheck,
  validateAnthropicRequest,
  viewOfAnthropicRequest,
  type WireBlock,
} from './anthropic-validation.js';
import {
  canonicalJson,
  type RecordedRequest,
  type ScriptedReply,
  type ScriptedServer,
  ScriptQueue,
} from './scripted-server.js';
import {
  clientGone,
  headerRecord,
  readJsonBody,
  sendJson,
  startLoopbackServer,
  startSse,
  writeSseEvent,
} from './sse.js';

export interface AnthropicServerOptions {
  /** Models whose signatures are bound to their prefix. Default: the models the docs list (Fable 5.1 on). */
  boundToPrefix?: (model: string) => boolean;
  /** Models that reject manual (`enabled`) thinking. Default: the 5.x family. */
  adaptiveOnly?: (model: string) => boolean;
  /** Models that take adaptive thinking. Default: Opus/Sonnet 4.6+, Mythos and the 5.x family. */
  adaptiveSupported?: (model: string) => boolean;
  /** Models that take mid-conversation `role: "system"` messages. Default: the models the docs name (./anthropic-system-messages.ts). */
  systemMessages?: (model: string) => boolean;
}

const fiveFamily = (model: string) => /^claude-[a-z]+-5/.test(model);
/**
 * Preserved thinking (prefix-bound signatures): the `supportedModels` of the docs'
 * prefix-check pages (platform.claude.com/docs/en/build-with-claude/preserved-thinking/prefix-checks,
 * read 2026-12-04). Opus 5, Sonnet 5, Fable 5 and Mythos 5 run no prefix check.
 */
const preservedThinking = (model: string) =>
  /^claude-((fable|mythos)-5-[12]|(opus|sonnet|haiku)-5-5)$/.test(model);
const adaptiveModels = (model: string) => /^claude-([a-z]+-5|(opus|sonnet)-4-[6-9]|mythos)/.test(model);

/** A strict loopback Anthropic server; `compactions` scripts its on-demand compaction answers. */
export type AnthropicServer = ScriptedServer & { compactions: OnDemandCompactions };

/** Starts a strict loopback Anthropic server. */
export async function startAnthropicServer(options: AnthropicServerOptions = {}): Promise<AnthropicServer> {
  const secret = randomBytes(16).toString('hex');
  const queue = new ScriptQueue();
  const requests: RecordedRequest[] = [];
  const issued = new Map<string, { model: string; blocks: IssuedThinking[] }>();
  const written = new Set<string>();
  const bound = options.boundToPrefix ?? preservedThinking;
  const summaries = new Set<string>();
  const compactions = new OnDemandCompactions();

  const issuedSignatures = new Map<string, string>();
  const compute = (model: string, content: string, prefix: string | undefined) =>
    createHmac('sha256', secret)
      .update(`${model}\n${prefix ?? ''}\n${content}`)
      .digest('base64');
  const sign = (model: string, content: string, prefix: string | undefined) => {
    const signature = compute(model, content, prefix);
    issuedSignatures.set(signature, model);
    return signature;
  };
  const signatures: SignatureCheck = {
    valid: (model, content, signature, prefix) =>
      signature === compute(model, content, bound(model) ? prefix : undefined),
    bound,
    issuedFor: (signature) => issuedSignatures.get(signature),
  };

  const handler = async (request: IncomingMessage, response: ServerResponse) => {
    const path = request.url ?? '';
    const headers = headerRecord(request);
    const raw = (await readJsonBody(request)) as AnthropicBody;
    const record: RecordedRequest = { path, headers, body: raw, status: 200 };
    requests.push(record);
    if (path.startsWith('/v1/messages/count_tokens')) {
      sendJson(response, 200, { input_tokens: estimateTokens(normalizeBody(raw)) });
      return;
    }
    if (!path.startsWith('/v1/messages')) return reject(response, record, 404, 'not_found_error', 'Not found');
    const sent = normalizeBody(raw);
    // On-demand compaction (./anthropic-on-demand.ts): the compaction request and the signed blocks later requests carry.
    const onDemandProblem = compactions.problem(sent, headers);
    if (onDemandProblem) {
      record.status = 400;
      record.error = onDemandProblem.message;
      return sendOnDemandProblem(response, onDemandProblem);
    }
    // With `drop_block`, the blocks that fail the prefix check are gone before anything reads the request.
    const { body, dropped } = dropFailedBlocks(sent, signatures);
    record.view = viewOfAnthropicRequest(body, signatures);
    record.binding = { ...bindingView(body, signatures, issued), dropped: dropped.length };
    // The tool-use-turn rules read the turn as sent; the API drops failed blocks only after them.
    const requestProblem = bindingControlsProblem(sent, headers) ?? systemMessageProblem(sent, headers, options.systemMessages);
    const problem = requestProblem ?? validateAnthropicRequest(sent, headers, {
      afterDrops: body,
      signatures,
      issued,
      adaptiveOnly: options.adaptiveOnly ?? fiveFamily,
      adaptiveSupported: options.adaptiveSupported ?? adaptiveModels,
    });
    const threshold = OnDemandCompactions.withoutSignedBlocks(body);
    const contextProblem = problem ?? contextManagementProblem(threshold, headers);
    if (contextProblem) return reject(response, record, 400, 'invalid_request_error', contextProblem);
    if (OnDemandCompactions.isRequest(body)) {
      // A compaction request is no conversation turn: it answers with the block alone, and takes no scripted reply.
      delete record.view;
      return compactions.answer(response, body, record);
    }
    const managed = manageContext(threshold, summaries);
    if (managed.compaction) summaries.add(managed.compaction.content);
    record.context = contextView(managed);
    for (const { block } of OnDemandCompactions.signedBlocks(body))
      if (typeof block.content === 'string') record.context.compactionsSent.push(block.content);
    // Paused after compacting: the compaction alone, and no scripted reply used.
    if (managed.compaction && managed.paused) return streamPausedCompaction(response, body.model, managed);
    const scripted = queue.next();
    if (scripted.type === 'error') return rejectScripted(response, record, scripted.status, scripted.retryAfterSeconds);
    if (scripted.type === 'context-overflow') {
      const tokens = estimateTokens(body);
      return reject(
        response,
        record,
        400,
        'invalid_request_error',
        `prompt is too long: ${tokens + 200_000} tokens > 200000 maximum`,
      );
    }
    const usage = managedUsage(managed, cacheUsage(managed.body, written));
    startSse(response);
    if (scripted.type === 'stall') {
      writeMessageStart(response, body.model, usage);
      writeSseEvent(
        response,
        { type: 'content_block_start', index: 0, content_block: { type: 'text', text: '', citations: null } },
        { event: 'content_block_start' },
      );
      writeSseEvent(
        response,
        { type: 'content_block_delta', index: 0, delta: { type: 'text_delta', text: scripted.text } },
        { event: 'content_block_delta' },
      );
      await clientGone(response);
      return;
    }
    // Bound to what was sent: the client sends the same history back, dropped blocks and all.
    const prefix = prefixKey(sent, sent.messages.length);
    const reported = (headers['anthropic-beta'] ?? '').split(',').includes(bindingBeta) ? { input_transformations: dropped } : {};
    streamReply(
      response,
      body.model,
      scripted,
      usage,
      (content) => sign(body.model, content, bound(body.model) ? prefix : undefined),
      issued,
      body.context_management === undefined ? undefined : managed,
      reported,
    );
  };

  const server = await startLoopbackServer(handler);
  return {
    url: server.url,
    requests,
    enqueue: (...responses) => queue.push(...responses),
    modelCalls: () => requests.filter((request) => request.view !== undefined),
    close: () => server.close(),
    compactions,
  };
}

/** What the model read, for tests: user texts and tool-result contents after the provider's edits. */
function contextView(managed: ManagedContext): NonNullable<RecordedRequest['context']> {
  const seenTexts = managed.body.messages.flatMap((message) =>
    message.role !== 'user'
      ? []
      : message.content.map((block) => (block.type === 'text' ? String(block.text) : JSON.stringify(block.content ?? ''))),
  );
  const { appliedEdits, compactionsSent } = managed;
  return { seenTexts, appliedEdits, compacted: managed.compaction !== undefined, compactionsSent };
}

/** After a compaction the answering pass reads only the summary (and system and tools). */
function managedUsage(managed: ManagedContext, usage: StreamUsage): StreamUsage {
  if (!managed.compaction) return usage;
  const { system, tools } = managed.body;
  const input = Math.ceil(JSON.stringify(stripCacheControl({ s: system, t: tools, m: [managed.compaction.content] })).length / 4);
  return { input, cacheRead: 0, cacheWrite: 0 };
}

function stripCacheControl(value: unknown): unknown {
  return JSON.parse(
    JSON.stringify(value ?? null, (key, item: unknown) => (key === 'cache_control' ? undefined : item)),
  );
}

function estimateTokens(body: AnthropicBody): number {
  return Math.ceil(JSON.stringify(stripCacheControl({ s: body.system, t: body.tools, m: body.messages })).length / 4);
}

interface StreamUsage {
  input: number;
  cacheRead: number;
  cacheWrite: number;
}

/** How far the cache lookup walks back from a breakpoint, in content blocks (docs/providers.md). */
const lookbackBlocks = 20;

/**
 * Simulated prompt caching: each breakpoint writes the prefix up to it; a later
 * request reads a written prefix only when one of its breakpoints sits at that
 * prefix's end or at most 20 blocks after it (the lookup walks back from each
 * breakpoint, block by block, and stops at the first written prefix). Tokens are
 * estimated.
 */
function cacheUsage(body: AnthropicBody, written: Set<string>): StreamUsage {
  const segments: unknown[] = [...(body.tools ?? []), ...(body.system ?? [])];
  for (const message of body.messages) for (const block of message.content) segments.push(block);
  const total = estimateTokens(body);
  const keys = new Map<number, string>();
  const keyAt = (index: number) => {
    let key = keys.get(index);
    if (key === undefined) {
      key = canonicalJson(stripCacheControl(segments.slice(0, index + 1)));
      keys.set(index, key);
    }
    return key;
  };
  const breakpoints = [...segments.keys()].filter((index) => (segments[index] as WireBlock).cache_control);
  let read = 0;
  for (const breakpoint of breakpoints) {
    for (let index = breakpoint; index >= Math.max(0, breakpoint - lookbackBlocks); index -= 1) {
      if (!written.has(keyAt(index))) continue;
      read = Math.max(read, Math.ceil(keyAt(index).length / 4));
      break;
    }
  }
  let position = 0;
  for (const breakpoint of breakpoints) {
    written.add(keyAt(breakpoint));
    position = Math.max(position, Math.ceil(keyAt(breakpoint).length / 4));
  }
  const write = Math.max(0, position - read);
  return { input: Math.max(1, total - read - write), cacheRead: read, cacheWrite: write };
}

function writeMessageStart(response: ServerResponse, model: string, usage: StreamUsage, reported: Record<string, unknown> = {}): void {
  const message = {
    ...reported,
    id: `msg_${randomBytes(12).toString('hex')}`,
    type: 'message',
    role: 'assistant',
    model,
    content: [],
    stop_reason: null,
    stop_sequence: null,
    usage: {
      input_tokens: usage.input,
      cache_creation_input_tokens: usage.cacheWrite,
      cache_read_input_tokens: usage.cacheRead,
      output_tokens: 1,
    },
  };
  writeSseEvent(response, { type: 'message_start', message }, { event: 'message_start' });
  writeSseEvent(response, { type: 'ping' }, { event: 'ping' });
}

function streamReply(
  response: ServerResponse,
  model: string,
  reply: ScriptedReply,
  usage: StreamUsage,
  sign: (content: string) => string,
  issued: Map<string, { model: string; blocks: IssuedThinking[] }>,
  managed?: ManagedContext,
  reported: Record<string, unknown> = {},
): void {
  writeMessageStart(response, model, managed?.compaction ? { ...usage, input: managed.compaction.inputTokens } : usage, reported);
  const blocks: IssuedThinking[] = [];
  let index = 0;
  const event = (data: Record<string, unknown>) => writeSseEvent(response, data, { event: String(data.type) });
  if (managed?.compaction) {
    // As recorded: the block starts empty, its summary comes whole in one `compaction_delta`.
    event({ type: 'content_block_start', index, content_block: { type: 'compaction', content: null } });
    event({ type: 'content_block_delta', index, delta: { type: 'compaction_delta', content: managed.compaction.content } });
    event({ type: 'content_block_stop', index });
    index += 1;
  }
  for (const thinking of reply.reasoning ?? []) {
    const signature = sign(thinking);
    blocks.push({ type: 'thinking', thinking, signature });
    event({ type: 'content_block_start', index, content_block: { type: 'thinking', thinking: '', signature: '' } });
    for (const piece of halves(thinking))
      event({ type: 'content_block_delta', index, delta: { type: 'thinking_delta', thinking: piece } });
    event({ type: 'content_block_delta', index, delta: { type: 'signature_delta', signature } });
    event({ type: 'content_block_stop', index });
    index += 1;
  }
  if (reply.redactedReasoning) {
    const data = sign('[redacted]');
    blocks.push({ type: 'redacted_thinking', data });
    event({ type: 'content_block_start', index, content_block: { type: 'redacted_thinking', data } });
    event({ type: 'content_block_stop', index });
    index += 1;
  }
  if (reply.text) {
    event({ type: 'content_block_start', index, content_block: { type: 'text', text: '', citations: null } });
    for (const piece of halves(reply.text))
      event({ type: 'content_block_delta', index, delta: { type: 'text_delta', text: piece } });
    event({ type: 'content_block_stop', index });
    index += 1;
  }
  for (const call of reply.toolCalls ?? []) {
    const id = `toolu_${randomBytes(12).toString('hex')}`;
    issued.set(id, { model, blocks });
    event({ type: 'content_block_start', index, content_block: { type: 'tool_use', id, name: call.name, input: {} } });
    for (const piece of halves(JSON.stringify(call.args)))
      event({ type: 'content_block_delta', index, delta: { type: 'input_json_delta', partial_json: piece } });
    event({ type: 'content_block_stop', index });
    index += 1;
  }
  const stopReason = reply.toolCalls?.length ? 'tool_use' : 'end_turn';
  const output = reply.usage?.output ?? 10 + index * 5;
  event({
    type: 'message_delta',
    delta: { stop_reason: stopReason, stop_sequence: null, stop_details: null, container: null },
    usage: {
      input_tokens: reply.usage?.input ?? usage.input,
      cache_creation_input_tokens: reply.usage?.cacheWrite ?? usage.cacheWrite,
      cache_read_input_tokens: reply.usage?.cacheRead ?? usage.cacheRead,
      output_tokens: output,
      output_tokens_details: reply.usage?.reasoning === undefined ? null : { thinking_tokens: reply.usage.reasoning },
      ...(managed?.compaction ? { iterations: iterationsOf(managed.compaction, usage, output) } : {}),
    },
    ...(managed ? { context_management: { applied_edits: managed.appliedEdits } } : {}),
  });
  event({ type: 'message_stop' });
  response.end();
}

/** A response paused after compaction: the compaction block alone, `stop_reason: "compaction"`, one iteration. */
function streamPausedCompaction(response: ServerResponse, model: string, managed: ManagedContext): void {
  const compaction = managed.compaction!;
  const usage = { input: compaction.inputTokens, cacheRead: 0, cacheWrite: 0 };
  startSse(response);
  writeMessageStart(response, model, usage);
  const event = (data: Record<string, unknown>) => writeSseEvent(response, data, { event: String(data.type) });
  event({ type: 'content_block_start', index: 0, content_block: { type: 'compaction', content: null } });
  event({ type: 'content_block_delta', index: 0, delta: { type: 'compaction_delta', content: compaction.content } });
  event({ type: 'content_block_stop', index: 0 });
  event({
    type: 'message_delta',
    delta: { stop_reason: 'compaction', stop_sequence: null, stop_details: null, container: null },
    usage: {
      input_tokens: 0,
      cache_creation_input_tokens: 0,
      cache_read_input_tokens: 0,
      output_tokens: compaction.outputTokens,
      iterations: [
        { type: 'compaction', input_tokens: compaction.inputTokens, output_tokens: compaction.outputTokens, cache_read_input_tokens: 0, cache_creation_input_tokens: 0 },
      ],
    },
    context_management: { applied_edits: managed.appliedEdits },
  });
  event({ type: 'message_stop' });
  response.end();
}

/** `usage.iterations` of a call that compacted: the compaction pass, then the answering pass. */
function iterationsOf(compaction: NonNullable<ManagedContext['compaction']>, usage: StreamUsage, output: number) {
  const pass = { cache_read_input_tokens: 0, cache_creation_input_tokens: 0 };
  return [
    { type: 'compaction', input_tokens: compaction.inputTokens, output_tokens: compaction.outputTokens, ...pass },
    { type: 'message', input_tokens: usage.input, output_tokens: output, ...pass },
  ];
}

/** Splits text in two deltas, as real streams split text at arbitrary points. */
function halves(text: string): string[] {
  const middle = Math.ceil(text.length / 2);
  return [text.slice(0, middle), text.slice(middle)].filter((piece) => piece.length > 0);
}

function reject(
  response: ServerResponse,
  record: RecordedRequest,
  status: number,
  type: string,
  message: string,
): void {
  record.status = status;
  record.error = message;
  sendJson(response, status, {
    type: 'error',
    error: { type, message },
    request_id: `req_${randomBytes(8).toString('hex')}`,
  });
}

function rejectScripted(response: ServerResponse, record: RecordedRequest, status: number, retryAfter?: number): void {
  const shapes: Record<number, [string, string]> = {
    429: ['rate_limit_error', 'Number of request tokens has exceeded your per-minute rate limit'],
    529: ['overloaded_error', 'Overloaded'],
    500: ['api_error', 'Internal server error'],
    503: ['api_error', 'Service unavailable'],
  };
  const [type, message] = shapes[status] ?? ['api_error', 'Internal server error'];
  record.status = status;
  record.error = message;
  const headers: Record<string, string> = retryAfter === undefined ? {} : { 'retry-after': String(retryAfter) };
  sendJson(response, status, { type: 'error', error: { type, message } }, headers);
}
