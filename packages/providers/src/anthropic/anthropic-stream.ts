/**
 * Anthropic stream events to neutral stream events
 * (https://docs.claude.com/en/docs/build-with-claude/streaming): blocks start,
 * take deltas (`text_delta`, `thinking_delta`, `signature_delta`,
 * `input_json_delta`) and stop; usage arrives in `message_start` and is updated
 * by `message_delta`.
 */
import type {
  BetaMessageParam as MessageParam,
  BetaMessageDeltaUsage as MessageDeltaUsage,
  BetaRawMessageStreamEvent as RawMessageStreamEvent,
  BetaUsage as WireUsage,
} from '@anthropic-ai/sdk/resources/beta/messages/messages';
import {
  type AppliedContextEdit,
  type AssistantPart,
  type CompactionPart,
  ModelError,
  type ModelRef,
  type InputTransformation,
  type ModelStreamEvent,
  type ProviderToolPart,
  type ReasoningPart,
  type StopReason,
  type TextPart,
  type ToolCallPart,
  type NativeContextOptions,
  type Usage,
} from '@episodic/core';
import { appliedContextEdits } from './anthropic-context-management.js';
import { inputTransformationsOf, inputTransformationWarnings } from './anthropic-input-transformations.js';
import { providerDataFor } from '../shared/provider-data.js';
import { recordReasoningTokens } from '../shared/reasoning-tokens.js';
import { mapAnthropicStopReason } from './map-anthropic-stop-reason.js';

type BlockState =
  | { kind: 'text'; part: TextPart; citations: unknown[] }
  | { kind: 'reasoning'; part: ReasoningPart }
  | { kind: 'tool'; part: ToolCallPart; json: string; input?: unknown }
  | { kind: 'server-tool'; part: ProviderToolPart; block: Record<string, unknown>; json: string }
  | { kind: 'compaction'; part: CompactionPart; block: Record<string, unknown> }
  | { kind: 'other' };

interface StreamState {
  blocks: BlockState[];
  usage: { input: number; cacheRead: number; cacheWrite: number; output: number; reasoning?: number };
  stopReason: StopReason;
  finished: boolean;
  /** Delta types (per block kind) already warned about. */
  unknownDeltas: Set<string>;
  /** Tokens of a compaction pass inside the call (`usage.iterations` of type `compaction`). */
  compaction?: { input: number; output: number };
  contextEdits: AppliedContextEdit[];
  /** The response's `input_transformations`, when it had any (see anthropic-input-transformations.ts). */
  inputTransformations?: InputTransformation[];
}

/** What the call sent, to read back which tool results the API cleared. */
export interface SentContext {
  sent: readonly MessageParam[];
  native: NativeContextOptions | undefined;
}

/**
 * Maps the SDK's event stream. `prefix` is the fingerprint of what this call
 * sent; it is stored on each reasoning part so a later call can tell whether the
 * prefix the signature is bound to is still the same.
 */
export async function* mapAnthropicStream(
  events: AsyncIterable<RawMessageStreamEvent>,
  model: ModelRef,
  prefix: string,
  sent: SentContext = { sent: [], native: undefined },
): AsyncGenerator<ModelStreamEvent> {
  const state: StreamState = {
    blocks: [],
    usage: { input: 0, cacheRead: 0, cacheWrite: 0, output: 0 },
    stopReason: 'other',
    finished: false,
    unknownDeltas: new Set(),
    contextEdits: [],
  };
  for await (const event of events) {
    if (event.type === 'message_start') {
      applyUsage(state, event.message.usage);
      yield* readInputTransformations(state, event.message);
    } else if (event.type === 'content_block_start') yield* startBlock(state, event, model, prefix);
    else if (event.type === 'content_block_delta') yield* applyDelta(state, event);
    else if (event.type === 'content_block_stop') finishBlock(state.blocks[event.index], model);
    else if (event.type === 'message_delta') {
      applyUsage(state, event.usage);
      yield* readInputTransformations(state, event);
      state.stopReason = mapAnthropicStopReason(event.delta.stop_reason);
      applyContextManagement(state, event as unknown as Record<string, unknown>, sent);
    } else if (event.type === 'message_stop') {
      state.finished = true;
      yield finishEvent(state, model);
    }
  }
  if (!state.finished)
    throw new ModelError('protocol', 'anthropic: the stream ended before `message_stop`; retry the call.', {
      retryable: true,
    });
}

/** Takes the event's `input_transformations` (a later list replaces an earlier one) and warns of each entry. */
function* readInputTransformations(state: StreamState, carrier: unknown): Generator<ModelStreamEvent> {
  const entries = inputTransformationsOf(carrier);
  if (entries === undefined) return;
  state.inputTransformations = entries;
  yield* inputTransformationWarnings(entries);
}

function* startBlock(
  state: StreamState,
  event: Extract<RawMessageStreamEvent, { type: 'content_block_start' }>,
  model: ModelRef,
  prefix: string,
): Generator<ModelStreamEvent> {
  const block = event.content_block;
  let next: BlockState = { kind: 'other' };
  if (block.type === 'text') next = { kind: 'text', part: { type: 'text', text: block.text }, citations: [...(block.citations ?? [])] };
  if (block.type === 'thinking')
    next = {
      kind: 'reasoning',
      part: { type: 'reasoning', text: block.thinking, providerData: providerDataFor(model, { prefix }) },
    };
  if (block.type === 'redacted_thinking')
    next = {
      kind: 'reasoning',
      part: {
        type: 'reasoning',
        text: '',
        redacted: true,
        providerData: providerDataFor(model, { prefix, data: block.data }),
      },
    };
  if (block.type === 'tool_use') {
    next = { kind: 'tool', part: { type: 'tool-call', id: block.id, name: block.name, args: {} }, json: '', input: block.input };
    yield { type: 'tool-call-start', id: block.id, name: block.name };
  } else if (block.type === 'compaction') {
    const copy = { ...(block as unknown as Record<string, unknown>) };
    next = { kind: 'compaction', part: { type: 'compaction', providerData: providerDataFor(model, { block: copy }) }, block: copy };
  } else if (next.kind === 'other') next = serverToolBlock(block as unknown as Record<string, unknown>, model) ?? next;
  state.blocks[event.index] = next;
}

/**
 * Every block this adapter does not read itself: a tool the API ran (`server_tool_use`
 * and its `*_tool_result`: web search, code execution, advisor), a remote MCP call
 * (`mcp_tool_use`, its input streamed by `input_json_delta`, and `mcp_tool_result`),
 * and any type added later. It is kept whole as a provider-tool part, so it goes
 * back verbatim and in place in the turn it belongs to (the API wants the turn as it
 * produced it: an `mcp_tool_result` without its `mcp_tool_use` is refused).
 */
function serverToolBlock(block: Record<string, unknown>, model: ModelRef): BlockState | undefined {
  const type = String(block.type);
  const result = type.endsWith('_result');
  const copy = { ...block };
  const id = typeof block.id === 'string' ? block.id : typeof block.tool_use_id === 'string' ? block.tool_use_id : undefined;
  const part: ProviderToolPart = {
    type: 'provider-tool',
    name: !result && typeof block.name === 'string' ? block.name : type,
    kind: result ? 'result' : 'call',
    ...(id === undefined ? {} : { id }),
    providerData: providerDataFor(model, { block: copy }),
  };
  return { kind: 'server-tool', part, block: copy, json: '' };
}

function* applyDelta(
  state: StreamState,
  event: Extract<RawMessageStreamEvent, { type: 'content_block_delta' }>,
): Generator<ModelStreamEvent> {
  const block = state.blocks[event.index];
  const delta = event.delta;
  if (delta.type === 'text_delta' && block?.kind === 'text') {
    block.part.text += delta.text;
    yield { type: 'text-delta', text: delta.text };
  } else if (delta.type === 'thinking_delta' && block?.kind === 'reasoning') {
    block.part.text += delta.thinking;
    yield { type: 'reasoning-delta', text: delta.thinking };
  } else if (delta.type === 'signature_delta' && block?.kind === 'reasoning') {
    block.part.signature = (block.part.signature ?? '') + delta.signature;
  } else if (delta.type === 'input_json_delta' && block?.kind === 'tool') {
    block.json += delta.partial_json;
    yield { type: 'tool-call-delta', id: block.part.id, argsDelta: delta.partial_json };
  } else if (delta.type === 'input_json_delta' && block?.kind === 'server-tool') {
    block.json += delta.partial_json;
  } else if (delta.type === 'citations_delta' && block?.kind === 'text') {
    // Citations ride on the text block and go back with it (to Anthropic only).
    block.citations.push(delta.citation);
  } else if (delta.type === 'compaction_delta' && block?.kind === 'compaction') {
    applyCompactionDelta(block, delta as unknown as Record<string, unknown>);
  } else yield* unknownDelta(state, delta as { type: string }, block);
}

/**
 * A `compaction_delta` carries the block's final values, as the SDK's own stream
 * accumulator reads it: `content` is assigned (null: the compaction failed, and the
 * server treats the block as a no-op), and `encrypted_content`, when the delta has the
 * key, is assigned too and goes back verbatim.
 */
function applyCompactionDelta(block: Extract<BlockState, { kind: 'compaction' }>, delta: Record<string, unknown>): void {
  block.block.content = delta.content ?? null;
  if ('encrypted_content' in delta) block.block.encrypted_content = delta.encrypted_content;
}

/** A delta this adapter cannot apply: said once per type, never silently. */
function* unknownDelta(state: StreamState, delta: { type: string }, block: BlockState | undefined): Generator<ModelStreamEvent> {
  const key = `${delta.type}\u0000${block?.kind ?? 'none'}`;
  if (state.unknownDeltas.has(key)) return;
  state.unknownDeltas.add(key);
  const where = block?.kind === 'server-tool' ? `a \`${String(block.block.type)}\` block` : `a ${block?.kind ?? 'missing'} block`;
  yield {
    type: 'warning',
    code: 'unknown-delta',
    message: `anthropic: a \`${delta.type}\` delta on ${where} is not understood by this adapter and was not applied`,
  };
}

function finishBlock(block: BlockState | undefined, model: ModelRef): void {
  if (block?.kind === 'compaction') finishCompaction(block);
  if (block?.kind === 'server-tool' && block.json.length > 0) block.block.input = JSON.parse(block.json) as unknown;
  if (block?.kind === 'text' && block.citations.length > 0) block.part.providerData = providerDataFor(model, { citations: block.citations });
  if (block?.kind !== 'tool') return;
  // Invalid JSON is kept as the raw string: tool input validation reports it to the model.
  try {
    // A call made from code execution (programmatic tool calling) comes whole in its start block, without deltas.
    block.part.args = block.json.length > 0 ? JSON.parse(block.json) : (block.input ?? {});
  } catch {
    block.part.args = block.json;
  }
}

/** The summary as the part's text; a block without one (null content) is a failed compaction. */
function finishCompaction(block: Extract<BlockState, { kind: 'compaction' }>): void {
  const content = block.block.content;
  if (typeof content === 'string' && content.length > 0) block.part.text = content;
  else block.part.failed = true;
}

/**
 * `context_management.applied_edits` of `message_delta` (what context editing cleared
 * before the model read the call) and `usage.iterations` (a compaction pass inside it).
 */
function applyContextManagement(state: StreamState, event: Record<string, unknown>, sent: SentContext): void {
  const management = event.context_management as { applied_edits?: unknown } | undefined;
  if (management) state.contextEdits = appliedContextEdits(management.applied_edits, sent.sent, sent.native);
  const iterations = (event.usage as { iterations?: unknown } | undefined)?.iterations;
  if (!Array.isArray(iterations)) return;
  for (const iteration of iterations as Record<string, unknown>[]) {
    if (iteration.type !== 'compaction') continue;
    state.compaction ??= { input: 0, output: 0 };
    state.compaction.input += Number(iteration.input_tokens ?? 0) + Number(iteration.cache_read_input_tokens ?? 0);
    state.compaction.output += Number(iteration.output_tokens ?? 0);
  }
}

function applyUsage(state: StreamState, usage: WireUsage | MessageDeltaUsage): void {
  state.usage.input = usage.input_tokens ?? state.usage.input;
  state.usage.cacheRead = usage.cache_read_input_tokens ?? state.usage.cacheRead;
  state.usage.cacheWrite = usage.cache_creation_input_tokens ?? state.usage.cacheWrite;
  state.usage.output = usage.output_tokens ?? state.usage.output;
  const thinking = usage.output_tokens_details?.thinking_tokens;
  if (typeof thinking === 'number') state.usage.reasoning = thinking;
}

/** Anthropic's `input_tokens` counts only what follows the last breakpoint; the neutral total includes cache. */
function neutralUsage(state: StreamState): Usage {
  const { input, cacheRead, cacheWrite, output, reasoning } = state.usage;
  return {
    inputTokens: input + cacheRead + cacheWrite,
    cachedInputTokens: cacheRead,
    cacheWriteTokens: cacheWrite,
    outputTokens: output,
    ...(reasoning === undefined ? {} : { reasoningTokens: reasoning }),
    ...(state.compaction
      ? { compactionInputTokens: state.compaction.input, compactionOutputTokens: state.compaction.output }
      : {}),
    ...(state.inputTransformations?.length ? { inputTransformations: state.inputTransformations } : {}),
  };
}

function finishEvent(state: StreamState, model: ModelRef): ModelStreamEvent {
  const content = state.blocks.flatMap((block): AssistantPart[] => (block.kind === 'other' ? [] : [block.part]));
  const usage = neutralUsage(state);
  recordReasoningTokens(content, usage.reasoningTokens);
  const hasCalls = content.some((part) => part.type === 'tool-call');
  const stopReason = hasCalls && state.stopReason === 'stop' ? 'tool-calls' : state.stopReason;
  const edits = state.contextEdits.filter((edit) => edit.clearedInputTokens > 0 || (edit.clearedToolUses ?? 0) > 0);
  const message = { role: 'assistant' as const, content, model: { ...model }, usage, ...(edits.length > 0 ? { contextEdits: edits } : {}) };
  return { type: 'finish', message, usage, stopReason };
}
