/**
 * Property tests for every packer guarantee in docs/architecture.md, over random transcripts
 * replayed call by call with the pack state carried, as a live session does.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { words } from '../../../../test/support/transcripts.js';
import { ContextOverflowError } from '../errors/input-errors.js';
import type { AssistantPart, Message } from '../message/message.js';
import { countContext } from './message-fits.js';
import { packContext } from './pack-context.js';
import type { Retention } from '../message/retention.js';
import type { SummaryRequest } from './pack-summary.js';
import type { PackResult, PackState } from './pack-types.js';
import { OPAQUE_CHARACTERS_PER_TOKEN, opaqueReasoningTokens } from '../tokens/reasoning-tokens.js';
import { createTokenCounter } from '../tokens/token-counter.js';

interface StepSpec {
  reasoning: number;
  text: number;
  /** Reasoning data also rides on the step's text and tool calls (as Gemini's signatures do). */
  signed?: boolean;
  /** Tokens of an opaque-only reasoning part (encrypted, no text); odd counts are reported, even ones estimated. */
  opaque?: number;
  results: { size: number; missing: boolean }[];
}

const stepArbitrary = fc.record({
  reasoning: fc.oneof(fc.constant(0), fc.integer({ min: 1, max: 300 })),
  text: fc.oneof(fc.constant(0), fc.integer({ min: 1, max: 40 })),
  signed: fc.boolean(),
  opaque: fc.oneof(fc.constant(0), fc.constant(0), fc.integer({ min: 20, max: 2500 })),
  results: fc.array(
    fc.record({
      size: fc.oneof(fc.integer({ min: 1, max: 80 }), fc.integer({ min: 500, max: 3000 })),
      missing: fc.integer({ min: 0, max: 19 }).map((value) => value === 0),
    }),
    { maxLength: 3 },
  ),
});
const episodeArbitrary = fc.record({
  user: fc.integer({ min: 1, max: 60 }),
  steps: fc.array(stepArbitrary, { maxLength: 7 }),
});
const transcriptArbitrary = fc.record({
  preamble: fc.integer({ min: 0, max: 9 }).map((value) => value === 0),
  episodes: fc.array(episodeArbitrary, { minLength: 1, maxLength: 8 }),
});

/** Builds messages and remembers, for each part and message, the episode it came from. */
type TranscriptSpec = typeof transcriptArbitrary extends fc.Arbitrary<infer Value> ? Value : never;

/** A part's identity that survives the packer taking reasoning data off it (a copy of the part). */
function partKey(part: AssistantPart): string {
  if (part.type === 'tool-call') return `call:${part.id}`;
  return `${part.type}:${'text' in part ? part.text : ''}:${String(part.providerData?.id ?? '')}`;
}

/** Where the original of a packed assistant message is: by its first part, the same object or (a copy) the same key. */
function originIndex(visible: readonly Message[], packed: Message & { role: 'assistant' }): number {
  const first = packed.content[0] as AssistantPart;
  const same = visible.findIndex((other) => other.role === 'assistant' && other.content.includes(first));
  if (same >= 0) return same;
  return visible.findIndex((other) => other.role === 'assistant' && other.content.some((part) => partKey(part) === partKey(first)));
}

function build(spec: TranscriptSpec) {
  const messages: Message[] = [];
  const episodeOf = new Map<object | string, number>();
  let ids = 0;
  let seed = 1;
  const addStep = (step: StepSpec, episode: number) => {
    const parts: AssistantPart[] = [];
    if (step.reasoning)
      parts.push({ type: 'reasoning', text: `r${ids} ${words(step.reasoning, seed++)}`, signature: `s${ids}` });
    const signature = () =>
      step.signed
        ? { providerData: { provider: 'p', model: 'm', thoughtSignature: `t${ids}`, reasoningFields: ['thoughtSignature'] } }
        : {};
    if (step.opaque) {
      const reported = step.opaque % 2 === 1 ? { tokens: step.opaque } : {};
      const encrypted_content = 'e'.repeat(step.opaque * OPAQUE_CHARACTERS_PER_TOKEN);
      parts.push({ type: 'reasoning', text: '', providerData: { provider: 'p', model: 'm', id: `rs_${parts.length}_${seed++}`, encrypted_content }, ...reported });
    }
    // Numbered, so a copied part is found by its key alone (a one-word text could repeat an earlier one).
    if (step.text) parts.push({ type: 'text', text: `t${seed} ${words(step.text, seed++)}`, ...signature() });
    const calls = step.results.map(
      (): AssistantPart => ({ type: 'tool-call', id: `call_${ids++}`, name: 'probe', args: { n: ids }, ...signature() }),
    );
    parts.push(...calls);
    const message: Message = { role: 'assistant', content: parts };
    messages.push(message);
    for (const part of parts) {
      episodeOf.set(part, episode);
      episodeOf.set(partKey(part), episode);
    }
    step.results.forEach((result, index) => {
      if (result.missing) return;
      const part = calls[index] as { id: string };
      messages.push({ role: 'tool', toolCallId: part.id, toolName: 'probe', content: words(result.size, seed++) });
    });
  };
  if (spec.preamble) addStep({ reasoning: 20, text: 5, results: [{ size: 10, missing: false }] }, -1);
  spec.episodes.forEach((episode, index) => {
    messages.push({ role: 'user', content: `question ${index} ${words(episode.user, seed++)}` });
    for (const step of episode.steps) addStep(step, index);
  });
  return { messages, episodeOf };
}

function checkCall(
  packed: PackResult,
  visible: readonly Message[],
  budget: number,
  retention: Retention,
  episodeOf: Map<object | string, number>,
  verifier: ReturnType<typeof createTokenCounter>,
) {
  const currentEpisode = visible.filter((message) => message.role === 'user').length - 1;
  // 1. Budget, counted over exactly what is returned (fresh counter: no cache involved).
  expect(packed.stats.tokens.total).toBeLessThanOrEqual(budget);
  expect(countContext(verifier, { system: packed.system, messages: packed.messages })).toBe(packed.stats.tokens.total);
  // 2. Retention.
  const reasoningParts = packed.messages.flatMap((message) =>
    message.role === 'assistant' ? message.content.filter((part) => part.type === 'reasoning') : [],
  );
  if (retention === 'none') expect(reasoningParts).toHaveLength(0);
  // Opaque-only reasoning weighs what it carries, not its empty text: the total holds at least that.
  const opaque = reasoningParts.reduce((sum, part) => sum + (part.text === '' ? opaqueReasoningTokens(part) : 0), 0);
  expect(packed.stats.tokens.total).toBeGreaterThanOrEqual(opaque);
  if (retention === 'episode') for (const part of reasoningParts) expect(episodeOf.get(part)).toBe(currentEpisode);
  // Reasoning data on text and tool-call parts follows the same rule as reasoning parts.
  const signedParts = packed.messages.flatMap((message) =>
    message.role === 'assistant' ? message.content.filter((part) => part.providerData?.thoughtSignature !== undefined) : [],
  );
  if (retention === 'none') expect(signedParts).toHaveLength(0);
  if (retention === 'episode') for (const part of signedParts) expect(episodeOf.get(partKey(part))).toBe(currentEpisode);
  const lastAssistant = [...visible].reverse().find((message) => message.role === 'assistant');
  const lastUser = visible.findLastIndex((message) => message.role === 'user');
  if (lastAssistant && retention !== 'none' && visible.indexOf(lastAssistant) > lastUser) {
    for (const part of lastAssistant.content) if (part.type === 'reasoning') expect(reasoningParts).toContain(part);
  }
  // 3. Pairing and no empty messages.
  const seenCalls = new Set<string>();
  const results = new Set(packed.messages.flatMap((message) => (message.role === 'tool' ? [message.toolCallId] : [])));
  for (const message of packed.messages) {
    if (message.role === 'assistant') {
      expect(message.content.length).toBeGreaterThan(0);
      for (const part of message.content)
        if (part.type === 'tool-call') {
          expect(results.has(part.id)).toBe(true);
          seenCalls.add(part.id);
        }
    }
    if (message.role === 'tool') expect(seenCalls.has(message.toolCallId)).toBe(true);
  }
  // 4. Order preserved and the current user message present.
  const position = (message: Message): number => {
    if (message.role === 'tool')
      return visible.findIndex((other) => other.role === 'tool' && other.toolCallId === message.toolCallId);
    if (message.role === 'assistant') return originIndex(visible, message);
    return visible.indexOf(message);
  };
  const positions = packed.messages.filter((message) => !message.summary).map(position);
  expect(positions.every((value) => value >= 0)).toBe(true);
  expect(positions).toEqual([...positions].sort((left, right) => left - right));
  if (lastUser >= 0) expect(packed.messages).toContain(visible[lastUser]);
}

/** The episode of each message of a transcript (summary lines get -1). */
function episodesOf(messages: readonly Message[]): Map<Message, number> {
  const out = new Map<Message, number>();
  let episode = messages[0]?.role === 'user' ? -1 : 0;
  for (const message of messages) {
    if (message.role === 'user') episode += 1;
    out.set(message, message.role === 'summary' ? -1 : episode);
  }
  return out;
}

/**
 * Head and summary: the summary sits between the episodes before the ones it covers
 * and those after them, it changes only when `summaryChangedNow` says so and then
 * extends; at an eviction that keeps the head, the head is the previous call's prefix.
 */
function checkHeadAndSummary(packed: PackResult, previous: PackResult | undefined, visible: readonly Message[]) {
  const episodes = episodesOf(visible);
  const episodeOfPacked = (message: Message) => {
    if (message.role === 'tool') return episodes.get(visible.find((other) => other.role === 'tool' && other.toolCallId === message.toolCallId)!);
    if (message.role === 'assistant') return episodes.get(visible[originIndex(visible, message)]!);
    return episodes.get(message);
  };
  const at = packed.messages.findIndex((message) => message.summary === true);
  const covered = packed.state.summarized;
  expect(at >= 0).toBe(covered !== undefined);
  if (covered) {
    for (const message of packed.messages.slice(0, at)) expect(episodeOfPacked(message)).toBeLessThan(covered.from);
    for (const message of packed.messages.slice(at + 1)) expect(episodeOfPacked(message)).toBeGreaterThanOrEqual(covered.to);
  }
  if (!previous) return;
  const text = (result: PackResult) => result.messages.find((message) => message.summary === true)?.content as string | undefined;
  if (!packed.stats.summaryChangedNow) expect(text(packed)).toBe(text(previous));
  else if (text(packed) && text(previous) && packed.state.summarized?.from === previous.state.summarized?.from) {
    expect(text(packed)!.startsWith(text(previous)!)).toBe(true);
  }
  const [head, before] = [packed.state.head, previous.state.head];
  const sameEpisode = previous.state.current?.start === packed.state.current?.start;
  const sameHead = head && before && head.end > head.start && head.start === before.start && head.end === before.end;
  if (packed.stats.evictedNow && sameEpisode && sameHead) {
    const length = packed.messages.findIndex(
      (message) => message.summary === true || (episodeOfPacked(message) ?? 0) >= head.end,
    );
    expect(length).toBeGreaterThan(0);
    expect(JSON.stringify(packed.messages.slice(0, length))).toBe(JSON.stringify(previous.messages.slice(0, length)));
  }
}

describe('packContext properties', () => {
  it('holds every guarantee on random sessions replayed call by call, summary lines landing late', () => {
    fc.assert(
      fc.property(
        transcriptArbitrary,
        fc.integer({ min: 300, max: 12_000 }),
        fc.constantFrom<Retention>('episode', 'tool-episodes', 'all', 'none'),
        fc.record({ headShare: fc.constantFrom(0, 0.1, 0.25, 0.45), summaryDelay: fc.integer({ min: 0, max: 3 }) }),
        (spec, budget, retention, { headShare, summaryDelay }) => {
          const { messages, episodeOf } = build(spec);
          const counter = createTokenCounter();
          const verifier = createTokenCounter();
          let state: PackState | undefined;
          let previous: PackResult | undefined;
          // As the agent loop does: a requested summary lands as a summary line some calls later (3: never).
          let pending: { request: SummaryRequest; calls: number } | undefined;
          const transcript: Message[] = [];
          for (let end = 0; end <= messages.length; end += 1) {
            if (end < messages.length && messages[end]?.role !== 'assistant') {
              transcript.push(messages[end] as Message);
              continue;
            }
            if (pending && summaryDelay < 3 && pending.calls >= summaryDelay) {
              const { from, to } = pending.request.episodes;
              transcript.push({ role: 'summary', content: `summary of ${from} to ${to - 1}.`, episodes: { from, to } });
              pending = undefined;
            }
            if (transcript.length === 0) {
              transcript.push(messages[end] as Message);
              continue;
            }
            const visible = [...transcript];
            let packed: PackResult;
            try {
              packed = packContext({
                messages: visible,
                budget,
                retention,
                tokenizer: counter,
                state,
                system: 'system prompt',
                headShare,
              });
            } catch (error) {
              expect(error).toBeInstanceOf(ContextOverflowError);
              expect((error as ContextOverflowError).shortfall).toBeGreaterThan(0);
              return;
            }
            checkCall(packed, visible, budget, retention, episodeOf, verifier);
            checkHeadAndSummary(packed, previous, visible);
            if (pending) pending.calls += 1;
            else if (packed.summaryRequest) pending = { request: packed.summaryRequest, calls: 0 };
            // 5. Cache stability: without an eviction event, a new summary or a new
            // reduction in the same episode, the previous packed messages are a byte-identical prefix.
            const sameEpisode = previous && previous.state.current?.start === packed.state.current?.start;
            const sameReductions = JSON.stringify(previous?.state.current) === JSON.stringify(packed.state.current);
            if (previous && sameEpisode && sameReductions && !packed.stats.evictedNow && !packed.stats.summaryChangedNow) {
              expect(JSON.stringify(packed.messages.slice(0, previous.messages.length))).toBe(
                JSON.stringify(previous.messages),
              );
            }
            state = packed.state;
            previous = packed;
            if (end < messages.length) transcript.push(messages[end] as Message);
          }
        },
      ),
      { numRuns: 120 },
    );
    // 120 replayed sessions take about 20 s alone; the margin is for a loaded machine.
  }, 300_000);
});
