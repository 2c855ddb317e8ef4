/**
 * An AI SDK model stream (`doStream`) as Episodic stream events, and its parts folded
 * into the finished assistant message: text, reasoning and tool calls in the order
 * they started, each with the `providerMetadata` it streamed with (merged per provider
 * over its start, deltas and end) as provider data, which goes back as the part's
 * `providerOptions` on later calls. Parts the Episodic model has no type for (sources,
 * files, provider-executed tools) are kept whole as opaque parts.
 */
import type { AssistantMessage, AssistantPart, ModelRef, ModelStreamEvent, StopReason, Usage } from '@episodic/core';
import { toModelError } from './ai-sdk-errors-to-model-error.js';
import { providerDataFor } from './from-ai-sdk-prompt.js';
import type { AISDKProviderOptions, AISDKStreamPart, LoosePart } from './ai-sdk-types.js';

/** A part being streamed: where it sits in the message and what it has so far. */
interface OpenPart {
  type: 'text' | 'reasoning' | 'tool-call';
  text: string;
  metadata: AISDKProviderOptions | undefined;
  toolName?: string;
  input?: string;
}

/** Merges streamed provider metadata per provider, later fields over earlier ones. */
function merge(into: AISDKProviderOptions | undefined, next: unknown): AISDKProviderOptions | undefined {
  if (!next || typeof next !== 'object') return into;
  const out: AISDKProviderOptions = { ...into };
  for (const [provider, fields] of Object.entries(next as AISDKProviderOptions)) {
    out[provider] = { ...out[provider], ...(fields as Record<string, unknown>) };
  }
  return out;
}

const stopReasons: Readonly<Record<string, StopReason>> = {
  stop: 'stop',
  length: 'max-tokens',
  'content-filter': 'content-filter',
  'tool-calls': 'tool-calls',
  error: 'error',
};

/** Folds the stream of one call; `events()` yields the Episodic events as the parts arrive. */
export class AISDKStreamFold {
  private readonly order: (OpenPart | AssistantPart)[] = [];
  private readonly open = new Map<string, OpenPart>();
  private usage: Usage = { inputTokens: 0, outputTokens: 0 };
  private stopReason: StopReason = 'other';
  private finished = false;

  constructor(private readonly model: ModelRef) {}

  /** The events one stream part gives (none for bookkeeping parts); throws the typed error of an error part. */
  * accept(part: AISDKStreamPart): Iterable<ModelStreamEvent> {
    const loose = part as unknown as LoosePart & { id?: string; delta?: string; providerMetadata?: unknown };
    const id = `${loose.type.split('-')[0]}:${String(loose.id ?? '')}`;
    switch (loose.type) {
      case 'text-start':
      case 'reasoning-start':
        this.start(id, loose.type === 'text-start' ? 'text' : 'reasoning', loose.providerMetadata);
        return;
      case 'text-delta':
      case 'reasoning-delta': {
        const open = this.open.get(id) ?? this.start(id, loose.type === 'text-delta' ? 'text' : 'reasoning', undefined);
        open.text += loose.delta ?? '';
        open.metadata = merge(open.metadata, loose.providerMetadata);
        if (loose.delta) yield { type: loose.type, text: loose.delta };
        return;
      }
      case 'text-end':
      case 'reasoning-end': {
        const open = this.open.get(id);
        if (open) open.metadata = merge(open.metadata, loose.providerMetadata);
        return;
      }
      case 'tool-input-start':
        if (loose.providerExecuted === true) return;
        this.start(`tool:${String(loose.id)}`, 'tool-call', loose.providerMetadata).toolName = String(loose.toolName);
        yield { type: 'tool-call-start', id: String(loose.id), name: String(loose.toolName) };
        return;
      case 'tool-input-delta': {
        const open = this.open.get(`tool:${String(loose.id)}`);
        if (!open) return;
        open.input = (open.input ?? '') + (loose.delta ?? '');
        if (loose.delta) yield { type: 'tool-call-delta', id: String(loose.id), argsDelta: loose.delta };
        return;
      }
      case 'tool-input-end':
        return;
      case 'tool-call':
        yield* this.toolCall(loose);
        return;
      case 'finish':
        this.finish(loose);
        return;
      case 'error':
        throw toModelError(this.model.provider, loose.error);
      case 'stream-start':
      case 'response-metadata':
      case 'raw':
      case 'ping':
        return;
      default: {
        // Sources, files, provider-executed tool results and parts a later AI SDK adds: kept whole.
        const { providerMetadata, ...rest } = loose;
        const kept = providerMetadata ? { ...rest, providerOptions: providerMetadata } : rest;
        const kind = loose.type === 'tool-result' ? 'result' : 'call';
        this.order.push(opaque(kept as LoosePart, this.model, kind));
      }
    }
  }

  private start(id: string, type: OpenPart['type'], metadata: unknown): OpenPart {
    const open: OpenPart = { type, text: '', metadata: merge(undefined, metadata) };
    this.open.set(id, open);
    this.order.push(open);
    return open;
  }

  private* toolCall(part: LoosePart & { providerMetadata?: unknown }): Iterable<ModelStreamEvent> {
    const id = String(part.toolCallId);
    const input = typeof part.input === 'string' ? part.input : JSON.stringify(part.input ?? {});
    if (part.providerExecuted === true) {
      const { providerMetadata, ...rest } = part;
      this.order.push(opaque({ ...rest, input: parse(input), ...(providerMetadata ? { providerOptions: providerMetadata } : {}) } as LoosePart, this.model, 'call'));
      return;
    }
    let open = this.open.get(`tool:${id}`);
    if (!open) {
      // A model that streams no input deltas (mock models, some providers) gives the call whole.
      open = this.start(`tool:${id}`, 'tool-call', undefined);
      yield { type: 'tool-call-start', id, name: String(part.toolName) };
      yield { type: 'tool-call-delta', id, argsDelta: input };
    }
    open.toolName = String(part.toolName);
    open.input = input;
    open.metadata = merge(open.metadata, part.providerMetadata);
    (open as OpenPart & { callId?: string }).callId = id;
  }

  private finish(part: LoosePart): void {
    this.finished = true;
    const reason = part.finishReason as { unified?: string } | string | undefined;
    const unified = typeof reason === 'string' ? reason : reason?.unified;
    this.stopReason = stopReasons[unified ?? ''] ?? 'other';
    this.usage = usageOf(part.usage);
  }

  /** The finish event, once the stream ended; a stream without a finish part is a retryable protocol error. */
  result(): ModelStreamEvent & { type: 'finish' } {
    if (!this.finished) {
      throw toModelError(this.model.provider, new Error('the AI SDK stream ended without a finish part'));
    }
    const content = this.order.flatMap((part) => (isOpen(part) ? this.toPart(part) : [part]));
    const message: AssistantMessage = { role: 'assistant', content, model: this.model, usage: this.usage };
    const calls = content.some((part) => part.type === 'tool-call');
    const stopReason = calls && this.stopReason === 'stop' ? 'tool-calls' : this.stopReason;
    return { type: 'finish', message, usage: this.usage, stopReason };
  }

  private toPart(part: OpenPart & { callId?: string }): AssistantPart[] {
    const providerData = providerDataFor(part.type, part.metadata, this.model);
    const data = providerData ? { providerData } : {};
    if (part.type === 'text') return part.text === '' && !providerData ? [] : [{ type: 'text', text: part.text, ...data }];
    if (part.type === 'reasoning') {
      const redacted = part.metadata?.anthropic?.redactedData !== undefined;
      return [{ type: 'reasoning', text: part.text, ...(redacted ? { redacted: true } : {}), ...data }];
    }
    // A tool input the model never finished (no `tool-call` part) is not a call.
    if (part.callId === undefined) return [];
    return [{ type: 'tool-call', id: part.callId, name: part.toolName ?? '', args: parse(part.input ?? '{}'), ...data }];
  }
}

function isOpen(part: OpenPart | AssistantPart): part is OpenPart {
  // Only open parts have the `metadata` key (set, maybe to undefined, when they start).
  return 'metadata' in part;
}

function opaque(part: LoosePart, model: ModelRef, kind: 'call' | 'result'): AssistantPart {
  const id = typeof part.toolCallId === 'string' ? { id: part.toolCallId } : {};
  const name = typeof part.toolName === 'string' ? part.toolName : `ai-sdk:${part.type}`;
  return { type: 'provider-tool', name, kind, ...id, providerData: { provider: model.provider, model: model.id, part } };
}

/** Tool input as JSON when it parses, else the raw text (the loop reports the bad arguments to the model). */
function parse(input: string): unknown {
  try {
    return JSON.parse(input === '' ? '{}' : input);
  } catch {
    return input;
  }
}

/** AI SDK usage (v3/v4 nested totals, or v2 flat counts) as Episodic usage. */
function usageOf(usage: unknown): Usage {
  const record = (usage ?? {}) as Record<string, unknown>;
  const input = record.inputTokens;
  const output = record.outputTokens;
  if (input && typeof input === 'object') {
    const { total, cacheRead, cacheWrite } = input as Record<string, number | undefined>;
    const out = (output ?? {}) as Record<string, number | undefined>;
    return compact({
      inputTokens: total ?? 0,
      cachedInputTokens: cacheRead,
      cacheWriteTokens: cacheWrite,
      outputTokens: out.total ?? 0,
      reasoningTokens: out.reasoning,
    });
  }
  return compact({
    inputTokens: typeof input === 'number' ? input : 0,
    cachedInputTokens: record.cachedInputTokens as number | undefined,
    outputTokens: typeof output === 'number' ? output : 0,
    reasoningTokens: record.reasoningTokens as number | undefined,
  });
}

function compact(usage: Usage): Usage {
  return Object.fromEntries(Object.entries(usage).filter(([, value]) => value !== undefined)) as Usage;
}
