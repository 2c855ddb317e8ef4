/**
 * Gemini stream chunks to neutral stream events
 * (https://ai.google.dev/api/generate-content#method:-models.streamgeneratecontent).
 * Thought parts become reasoning, a `thoughtSignature` stays on the part that
 * carried it (a signature may arrive on an empty text part at the very end, so
 * the stream is read to its finish reason), usage is taken from the last chunk.
 */
import {
  type AssistantPart,
  ModelError,
  type ModelRef,
  type ModelStreamEvent,
  type ProviderToolPart,
  type ReasoningPart,
  type TextPart,
  type Usage,
} from '@episodic/core';
import type { GenerateContentResponse, GenerateContentResponseUsageMetadata, Part } from '@google/genai';
import { providerDataFor } from '../shared/provider-data.js';
import { recordReasoningTokens } from '../shared/reasoning-tokens.js';
import { mapGoogleStopReason } from './map-google-stop-reason.js';

interface StreamState {
  content: AssistantPart[];
  /** The text or thought part still receiving deltas. */
  open: TextPart | ReasoningPart | undefined;
  usage: GenerateContentResponseUsageMetadata | undefined;
  finishReason: string | undefined;
}

/** Maps the SDK's chunk stream. */
export async function* mapGoogleStream(
  chunks: AsyncIterable<GenerateContentResponse>,
  model: ModelRef,
): AsyncGenerator<ModelStreamEvent> {
  const state: StreamState = { content: [], open: undefined, usage: undefined, finishReason: undefined };
  for await (const chunk of chunks) {
    state.usage = chunk.usageMetadata ?? state.usage;
    const candidate = chunk.candidates?.[0];
    for (const part of candidate?.content?.parts ?? []) yield* mapPart(state, part, model);
    state.finishReason = candidate?.finishReason ?? state.finishReason;
  }
  if (state.finishReason === undefined)
    throw new ModelError('protocol', 'google: the stream ended without a finish reason; retry the call.', {
      retryable: true,
    });
  const usage = neutralUsage(state.usage);
  recordReasoningTokens(state.content, usage.reasoningTokens);
  const hasCalls = state.content.some((part) => part.type === 'tool-call');
  yield {
    type: 'finish',
    message: { role: 'assistant', content: state.content, model: { ...model }, usage },
    usage,
    stopReason: mapGoogleStopReason(state.finishReason, hasCalls),
  };
}

function* mapPart(state: StreamState, part: Part, model: ModelRef): Generator<ModelStreamEvent> {
  const signature = part.thoughtSignature;
  if (part.functionCall) {
    state.open = undefined;
    const call = part.functionCall;
    const id = call.id ?? `call_${globalThis.crypto.randomUUID().replace(/-/g, '').slice(0, 16)}`;
    const name = call.name ?? '';
    const opaque = {
      ...(signature ? signatureData(signature) : {}),
      ...(call.id ? { idFromProvider: true } : {}),
    };
    state.content.push({
      type: 'tool-call',
      id,
      name,
      args: call.args ?? {},
      ...(Object.keys(opaque).length > 0 ? { providerData: providerDataFor(model, opaque) } : {}),
    });
    yield { type: 'tool-call-start', id, name };
    yield { type: 'tool-call-delta', id, argsDelta: JSON.stringify(call.args ?? {}) };
    return;
  }
  const unknown = Object.keys(part).filter((key) => !readFields.has(key) && (part as Record<string, unknown>)[key] !== undefined);
  if (unknown.length > 0) {
    state.open = undefined;
    state.content.push(opaquePart(part, unknown, model));
    return;
  }
  if (typeof part.text !== 'string' && !signature) return;
  const text = part.text ?? '';
  const kind = part.thought ? 'reasoning' : 'text';
  if (state.open?.type !== kind || (text.length === 0 && signature)) state.open = openPart(state, kind, model);
  state.open.text += text;
  if (text.length > 0) yield { type: kind === 'reasoning' ? 'reasoning-delta' : 'text-delta', text };
  if (signature) {
    const data = state.open.type === 'text' ? signatureData(signature) : { thoughtSignature: signature };
    state.open.providerData = providerDataFor(model, { ...state.open.providerData, ...data });
    // The signature closes its part: later text starts a new one.
    state.open = undefined;
  }
}

/** Part fields this adapter reads; a part with any other field is kept whole. */
const readFields = new Set(['text', 'thought', 'thoughtSignature']);

/**
 * A part this adapter does not read itself (`executableCode`, `codeExecutionResult`,
 * `inlineData`, or a field added later): kept whole, signature included, as a
 * provider-tool part that goes back verbatim and in place to this model only.
 */
function opaquePart(part: Part, fields: readonly string[], model: ModelRef): ProviderToolPart {
  const name = fields[0] ?? 'part';
  const kind = /Result|Response/.test(name) ? 'result' : 'call';
  return { type: 'provider-tool', name, kind, providerData: providerDataFor(model, { part: { ...part } }) };
}

/**
 * A signature on a text or function-call part is still the model's reasoning: marked
 * so, the packer drops it with the reasoning when the episode ends.
 */
function signatureData(signature: string): { thoughtSignature: string; reasoningFields: string[] } {
  return { thoughtSignature: signature, reasoningFields: ['thoughtSignature'] };
}

function openPart(state: StreamState, kind: 'reasoning' | 'text', model: ModelRef): TextPart | ReasoningPart {
  const part: TextPart | ReasoningPart =
    kind === 'reasoning'
      ? { type: 'reasoning', text: '', providerData: providerDataFor(model) }
      : { type: 'text', text: '' };
  state.content.push(part);
  return part;
}

/** `promptTokenCount` includes cached tokens; `candidatesTokenCount` excludes thoughts. */
function neutralUsage(usage: GenerateContentResponseUsageMetadata | undefined): Usage {
  const thoughts = usage?.thoughtsTokenCount;
  return {
    inputTokens: usage?.promptTokenCount ?? 0,
    cachedInputTokens: usage?.cachedContentTokenCount ?? 0,
    outputTokens: (usage?.candidatesTokenCount ?? 0) + (thoughts ?? 0),
    ...(thoughts === undefined ? {} : { reasoningTokens: thoughts }),
  };
}
