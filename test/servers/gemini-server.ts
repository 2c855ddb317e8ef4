/**
 * A loopback Gemini API (https://ai.google.dev/api/generate-content): streams
 * scripted answers as `streamGenerateContent?alt=sse` does (bare `data:` events,
 * thought parts first, the signature on the first function call of a step or on
 * a final empty-text part, usage on every chunk, the finish reason on the last)
 * and rejects what the API rejects (./gemini-validation.ts).
 */
import { randomBytes } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import {
  type GeminiBody,
  type GeminiPart,
  type IssuedStep,
  validateGeminiRequest,
  viewOfGeminiRequest,
} from './gemini-validation.js';
import { type RecordedRequest, type ScriptedReply, type ScriptedServer, ScriptQueue } from './scripted-server.js';
import {
  clientGone,
  headerRecord,
  readJsonBody,
  sendJson,
  startLoopbackServer,
  startSse,
  writeSseEvent,
} from './sse.js';

export interface GeminiServerOptions {
  requiresSignatures?: (model: string) => boolean;
  budgetOnly?: (model: string) => boolean;
  /** Refuse thought signatures before the current turn (see `GeminiValidationContext`). */
  rejectPastSignatures?: boolean;
}

/** Starts a strict loopback Gemini server. */
export async function startGeminiServer(options: GeminiServerOptions = {}): Promise<ScriptedServer> {
  const queue = new ScriptQueue();
  const requests: RecordedRequest[] = [];
  const issued = new Map<string, IssuedStep>();
  const context = {
    issued,
    requiresSignatures: options.requiresSignatures ?? ((model: string) => /^gemini-3/.test(model)),
    budgetOnly: options.budgetOnly ?? ((model: string) => /^gemini-2\.5/.test(model)),
    rejectPastSignatures: options.rejectPastSignatures ?? false,
  };

  const handler = async (request: IncomingMessage, response: ServerResponse) => {
    const path = request.url ?? '';
    const body = (await readJsonBody(request)) as GeminiBody;
    const record: RecordedRequest = { path, headers: headerRecord(request), body, status: 200 };
    requests.push(record);
    const match = /\/models\/([^:/]+):(\w+)/.exec(path);
    const model = match?.[1] ?? '';
    if (match?.[2] === 'countTokens') {
      sendJson(response, 200, { totalTokens: estimateTokens(body) });
      return;
    }
    if (match?.[2] !== 'streamGenerateContent') return reject(response, record, 404, 'NOT_FOUND', 'Not found');
    record.view = viewOfGeminiRequest(model, body, issued);
    const problem = validateGeminiRequest(model, body, context);
    if (problem) return reject(response, record, 400, 'INVALID_ARGUMENT', problem);
    const scripted = queue.next();
    if (scripted.type === 'error') return rejectScripted(response, record, scripted.status, scripted.retryAfterSeconds);
    if (scripted.type === 'context-overflow')
      return reject(
        response,
        record,
        400,
        'INVALID_ARGUMENT',
        `The input token count (${estimateTokens(body) + 1_048_576}) exceeds the maximum number of tokens allowed (1048576).`,
      );
    startSse(response);
    if (scripted.type === 'stall') {
      writeChunk(response, model, [{ text: scripted.text }], undefined, usageOf(body));
      await clientGone(response);
      return;
    }
    streamReply(response, model, body, scripted, issued);
  };

  const server = await startLoopbackServer(handler);
  return {
    url: server.url,
    requests,
    enqueue: (...responses) => queue.push(...responses),
    modelCalls: () => requests.filter((request) => request.view !== undefined),
    close: () => server.close(),
  };
}

function estimateTokens(body: GeminiBody): number {
  return Math.ceil(JSON.stringify(body ?? {}).length / 4);
}

interface UsageMetadata {
  promptTokenCount: number;
  candidatesTokenCount?: number;
  thoughtsTokenCount?: number;
  cachedContentTokenCount?: number;
  totalTokenCount: number;
}

function usageOf(body: GeminiBody, reply?: ScriptedReply): UsageMetadata {
  const prompt = reply?.usage?.input ?? estimateTokens(body);
  const candidates = reply?.usage?.output ?? 12;
  const thoughts = reply?.usage?.reasoning ?? (reply?.reasoning?.length ? 20 : undefined);
  const cached = reply?.usage?.cacheRead;
  return {
    promptTokenCount: prompt,
    candidatesTokenCount: candidates,
    ...(thoughts === undefined ? {} : { thoughtsTokenCount: thoughts }),
    ...(cached === undefined ? {} : { cachedContentTokenCount: cached }),
    totalTokenCount: prompt + candidates + (thoughts ?? 0),
  };
}

function writeChunk(
  response: ServerResponse,
  model: string,
  parts: GeminiPart[],
  finishReason: string | undefined,
  usage: UsageMetadata,
): void {
  const candidate = { content: { role: 'model', parts }, index: 0, ...(finishReason ? { finishReason } : {}) };
  writeSseEvent(
    response,
    { candidates: [candidate], usageMetadata: usage, modelVersion: model, responseId: randomBytes(8).toString('hex') },
    { separator: '\r\n' },
  );
}

function streamReply(
  response: ServerResponse,
  model: string,
  body: GeminiBody,
  reply: ScriptedReply,
  issued: Map<string, IssuedStep>,
): void {
  const usage = usageOf(body, reply);
  const signature = randomBytes(24).toString('base64');
  issued.set(signature, { model, calls: reply.toolCalls?.length ?? 0, reasoning: reply.reasoning ?? [] });
  for (const thought of reply.reasoning ?? [])
    writeChunk(response, model, [{ text: thought, thought: true }], undefined, usage);
  const calls = reply.toolCalls ?? [];
  if (reply.text) {
    const middle = Math.ceil(reply.text.length / 2);
    writeChunk(response, model, [{ text: reply.text.slice(0, middle) }], undefined, usage);
    writeChunk(response, model, [{ text: reply.text.slice(middle) }], undefined, usage);
  }
  if (calls.length > 0) {
    const parts: GeminiPart[] = calls.map((call, index) => ({
      functionCall: { name: call.name, args: call.args },
      ...(index === 0 ? { thoughtSignature: signature } : {}),
    }));
    writeChunk(response, model, parts, 'STOP', usage);
  } else {
    // Text answers carry their signature on a final empty-text part.
    writeChunk(response, model, [{ text: '', thoughtSignature: signature }], 'STOP', usage);
  }
  response.end();
}

function reject(
  response: ServerResponse,
  record: RecordedRequest,
  code: number,
  status: string,
  message: string,
): void {
  record.status = code;
  record.error = message;
  sendJson(response, code, { error: { code, message, status } });
}

function rejectScripted(response: ServerResponse, record: RecordedRequest, code: number, retryAfter?: number): void {
  const shapes: Record<number, [string, string]> = {
    429: ['RESOURCE_EXHAUSTED', 'Resource has been exhausted (e.g. check quota).'],
    500: [
      'INTERNAL',
      'An internal error has occurred. Please retry or report in https://developers.generativeai.google/guide/troubleshooting',
    ],
    503: ['UNAVAILABLE', 'The model is overloaded. Please try again later.'],
    529: ['UNAVAILABLE', 'The model is overloaded. Please try again later.'],
  };
  const [status, message] = shapes[code] ?? ['INTERNAL', 'Internal error'];
  record.status = code;
  record.error = message;
  const details =
    retryAfter === undefined
      ? []
      : [{ '@type': 'type.googleapis.com/google.rpc.RetryInfo', retryDelay: `${retryAfter}s` }];
  sendJson(response, code, { error: { code, message, status, details } });
}
