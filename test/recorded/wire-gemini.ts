/**
 * The Gemini API as the recorded suite reads it
 * (https://ai.google.dev/api/generate-content). Signatures are compared as bytes:
 * the Python SDK that made most recordings sends them back in URL-safe base64,
 * the API sends standard base64.
 */
import type { AssistantMessage, Message, StopReason } from '@episodic/core';
import type { RecordedResponse } from './recordings.js';
import { type RecordedAnswer, sseData, textOf, type WireFormat, type WireTurn } from './recorded-wire.js';

type Json = Record<string, unknown>;
type Part = Json & { text?: string; thought?: boolean; thoughtSignature?: string; functionCall?: Json; functionResponse?: Json };

/** The bytes of a base64 signature, whichever alphabet it was written in. */
export const signatureBytes = (signature: string) => Buffer.from(signature, 'base64').toString('hex');

function chunksOf(response: RecordedResponse): Json[] {
  if (response.kind === 'json') return Array.isArray(response.body) ? (response.body as Json[]) : [response.body as Json];
  return sseData(response.text);
}

const stopReasons: Record<string, StopReason> = { STOP: 'stop', MAX_TOKENS: 'max-tokens', SAFETY: 'content-filter' };

function answer(response: RecordedResponse): RecordedAnswer {
  const parts: Part[] = [];
  let usage: Json = {};
  let finish = '';
  for (const chunk of chunksOf(response)) {
    const candidate = ((chunk.candidates ?? []) as Json[])[0];
    parts.push(...((((candidate?.content as Json | undefined)?.parts ?? []) as Part[])));
    if (chunk.usageMetadata) usage = chunk.usageMetadata as Json;
    if (candidate?.finishReason) finish = String(candidate.finishReason);
  }
  const calls = parts.filter((part) => part.functionCall);
  const thoughts = parts.filter((part) => part.thought === true).map((part) => part.text ?? '').join('');
  const number = (key: string) => (typeof usage[key] === 'number' ? (usage[key] as number) : 0);
  const mapped = stopReasons[finish] ?? 'other';
  return {
    reasoning: thoughts ? [{ type: 'reasoning', text: thoughts }] : [],
    text: parts.filter((part) => part.thought !== true && typeof part.text === 'string').map((part) => part.text).join(''),
    calls: calls.map((part) => {
      const call = part.functionCall as Json;
      return { ...(typeof call.id === 'string' ? { id: call.id } : {}), name: String(call.name), args: call.args ?? {}, raw: JSON.stringify(call.args ?? {}) };
    }),
    usage: {
      inputTokens: number('promptTokenCount'),
      cachedInputTokens: number('cachedContentTokenCount'),
      outputTokens: number('candidatesTokenCount') + number('thoughtsTokenCount'),
      ...(usage.thoughtsTokenCount === undefined ? {} : { reasoningTokens: number('thoughtsTokenCount') }),
    },
    stopReason: mapped === 'stop' && calls.length > 0 ? 'tool-calls' : mapped,
    signatures: parts.flatMap((part) => (part.thoughtSignature ? [part.thoughtSignature] : [])),
  };
}

const contentsOf = (body: unknown) => ((body as Json).contents ?? []) as { role?: string; parts: Part[] }[];

/** The fields of a part the comparison reads; any other one (code execution, a server tool's call) is compared as it is. */
const compared = new Set(['text', 'thought', 'thoughtSignature', 'functionCall']);

/** A model turn as compared: its parts, empty text without a signature left out, signatures as bytes. */
function normalise(parts: readonly Part[]): Json[] {
  return parts
    .filter((part) => !(part.text === '' && !part.thoughtSignature && !part.functionCall))
    .map((part) => ({
      ...Object.fromEntries(Object.entries(part).filter(([key]) => !compared.has(key))),
      ...(typeof part.text === 'string' ? { text: part.text } : {}),
      ...(part.thought ? { thought: true } : {}),
      ...(part.functionCall ? { functionCall: { name: part.functionCall.name, args: part.functionCall.args ?? {} } } : {}),
      ...(part.thoughtSignature ? { signature: signatureBytes(part.thoughtSignature) } : {}),
    }));
}

export const geminiWire: WireFormat = {
  answer,
  start(body) {
    const last = contentsOf(body).findLast((content) => content.role === 'user' && content.parts.some((part) => part.text));
    return [{ role: 'user', content: last?.parts.map((part) => part.text ?? '').join('') || 'Hello' }];
  },
  turns(body) {
    return contentsOf(body).flatMap((content, index): WireTurn[] => {
      if (content.role !== 'model') return [];
      const turn = normalise(content.parts);
      const keys = turn.flatMap((part) => [part.signature, (part.functionCall as Json | undefined)?.name, part.text].filter((key): key is string => typeof key === 'string' && key !== ''));
      return [{ keys, turn, end: index }];
    });
  },
  after(body, end) {
    return contentsOf(body)
      .slice(end + 1)
      .flatMap((content): Message[] =>
        content.parts.flatMap((part): Message[] => {
          if (part.functionResponse) {
            const response = part.functionResponse;
            const id = typeof response.id === 'string' ? response.id : String(response.name);
            return [{ role: 'tool', toolCallId: id, toolName: String(response.name), content: textOf(JSON.stringify(response.response ?? {})) }];
          }
          if (part.functionCall)
            return [{ role: 'assistant', content: [{ type: 'tool-call', id: String(part.functionCall.id ?? part.functionCall.name), name: String(part.functionCall.name), args: part.functionCall.args ?? {} }] }];
          if (typeof part.text === 'string' && part.text !== '')
            return [content.role === 'model' ? { role: 'assistant', content: [{ type: 'text', text: part.text }] } : { role: 'user', content: part.text }];
          return [];
        }),
      );
  },
  keysOf(message: AssistantMessage) {
    return message.content.flatMap((part) => {
      const signature = part.providerData?.thoughtSignature;
      if (typeof signature === 'string') return [signatureBytes(signature)];
      if (part.type === 'tool-call') return [part.name];
      return part.type === 'text' && part.text ? [part.text] : [];
    });
  },
};
