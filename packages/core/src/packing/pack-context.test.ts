import { describe, expect, it } from 'vitest';
import {
  assistant,
  call,
  episode,
  reasoning,
  result,
  step,
  text,
  user,
  words,
} from '../../../../test/support/transcripts.js';
import { ContextOverflowError, InvalidArgumentError } from '../errors/input-errors.js';
import type { AssistantMessage, Message, ToolMessage } from '../message/message.js';
import { countContext } from './message-fits.js';
import { packContext } from './pack-context.js';
import { prepareForPacking } from './prepare-for-packing.js';
import type { SummaryRequest } from './pack-summary.js';
import type { PackResult, PackState } from './pack-types.js';
import { createTokenCounter, type TokenCounter } from '../tokens/token-counter.js';

const reasoningTexts = (messages: readonly Message[]) =>
  messages.flatMap((message) =>
    message.role === 'assistant'
      ? message.content.filter((part) => part.type === 'reasoning').map((part) => (part as { text: string }).text)
      : [],
  );

function threeEpisodes(): Message[] {
  return [
    ...episode('first question', 2, 30, 1),
    ...episode('second question', 2, 30, 2),
    user('third question'),
    ...step('current step thought', [{ name: 'grep', result: 'match' }]),
  ];
}

describe('packContext retention', () => {
  const messages = threeEpisodes();

  it('episode: keeps only the current episode reasoning', () => {
    const packed = packContext({ messages, budget: 100_000 });
    expect(reasoningTexts(packed.messages)).toEqual(['current step thought']);
    expect(packed.stats.reasoning.keptParts).toBe(1);
    expect(packed.stats.reasoning.droppedParts).toBe(6);
  });

  it('tool-episodes: also keeps past reasoning of assistant messages that made tool calls', () => {
    const packed = packContext({ messages, budget: 100_000, retention: 'tool-episodes' });
    const kept = reasoningTexts(packed.messages);
    expect(kept).toHaveLength(5);
    expect(kept.some((value) => value.startsWith('final thought'))).toBe(false);
  });

  it('all keeps everything and none keeps nothing', () => {
    expect(reasoningTexts(packContext({ messages, budget: 100_000, retention: 'all' }).messages)).toHaveLength(7);
    expect(reasoningTexts(packContext({ messages, budget: 100_000, retention: 'none' }).messages)).toHaveLength(0);
  });

  it('removes a past assistant message that only had reasoning', () => {
    const only: AssistantMessage = assistant([reasoning('just thinking')]);
    const packed = packContext({ messages: [user('a'), only, user('b')], budget: 10_000 });
    expect(packed.messages).toEqual([user('a'), user('b')].map((message) => expect.objectContaining(message)));
    expect(packed.messages).toHaveLength(2);
  });

  it('rejects an unknown retention and a bad budget with typed errors', () => {
    expect(() => packContext({ messages, budget: 1000, retention: 'some' as 'all' })).toThrow(InvalidArgumentError);
    expect(() => packContext({ messages, budget: -1 })).toThrow(/budget must be a positive number/);
  });
});

describe('packContext budget', () => {
  it('throws ContextOverflowError with the shortfall when the minimum cannot fit', () => {
    const messages = [user(words(400))];
    const error = (() => {
      try {
        packContext({ messages, budget: 100, system: 'sys' });
      } catch (caught) {
        return caught;
      }
    })() as ContextOverflowError;
    expect(error).toBeInstanceOf(ContextOverflowError);
    const counter = createTokenCounter();
    const required = countContext(counter, { system: 'sys', messages });
    expect(error.required).toBe(required);
    expect(error.shortfall).toBe(required - 100);
    expect(error.message).toContain(`short by ${required - 100}`);
  });

  it('shortens a single tool result larger than the budget, keeping head and tail', () => {
    const lines = Array.from({ length: 4000 }, (_, index) => `line ${index}: ${words(8, index)}`).join('\n');
    const big = call('get_log');
    const messages = [user('why red?'), assistant([reasoning('look'), big]), result(big, lines)];
    // A cap of 3% of the budget: enough to keep whole lines at both ends.
    const packed = packContext({ messages, budget: 8_000, currentToolResultCap: 240 });
    const tool = packed.messages[2] as ToolMessage & { content: string };
    expect(packed.stats.tokens.total).toBeLessThanOrEqual(8_000);
    expect(tool.content.startsWith('line 0:')).toBe(true);
    expect(tool.content.endsWith(lines.slice(lines.lastIndexOf('\n') + 1))).toBe(true);
    // The marker sits on a line of its own, between whole lines.
    expect(tool.content).toMatch(/\n\[\.\.\. \d+ characters cut from the middle of this tool result \.\.\.\]\nline \d+: /);
    expect(packed.stats.truncatedToolResults).toBe(1);
    // Deterministic: the same input gives the same shortened text, with a fresh counter too.
    const again = packContext({ messages, budget: 8_000, currentToolResultCap: 240, tokenizer: createTokenCounter() });
    expect((again.messages[2] as ToolMessage).content).toBe(tool.content);
  });

  it('by default sends a current result whole, and cuts it to the past cap once its episode is past', () => {
    const body = words(3000);
    const first = call('get_log');
    const second = call('get_log');
    const before = [user('a'), assistant([first]), result(first, body)];
    const current = packContext({ messages: before, budget: 20_000 });
    // Under the current cap (a quarter of the budget): whole while its episode is the current one.
    expect((current.messages[2] as ToolMessage).content).toBe(body);
    const messages = [...before, assistant([text('ok')]), user('b'), assistant([second]), result(second, body)];
    const packed = packContext({ messages, budget: 20_000, state: current.state });
    const [past, now] = packed.messages.filter((message): message is ToolMessage => message.role === 'tool');
    // Past: cut to the past cap (512 at 20k), the one change of the cached prefix at the boundary.
    expect(past!.truncated).toBe(true);
    expect(now!.content).toBe(body);
    expect(packed.stats.prefixReuseTokens).toBeLessThan(current.stats.tokens.total - 3);
    // With one cap for both, the boundary rewrites no result, so the cached prefix holds across it.
    const oneCap = { budget: 20_000, toolResultCap: 512, currentToolResultCap: 512 };
    const currentOne = packContext({ messages: before, ...oneCap });
    const packedOne = packContext({ messages, ...oneCap, state: currentOne.state });
    const [pastOne] = packedOne.messages.filter((message): message is ToolMessage => message.role === 'tool');
    expect(pastOne).toEqual(currentOne.messages[2]);
    expect(packedOne.stats.prefixReuseTokens).toBe(currentOne.stats.tokens.total - 3);
  });

  it('shortens a 50-step current episode oldest first and keeps the latest reasoning', () => {
    const messages: Message[] = [user('long task')];
    for (let index = 0; index < 50; index += 1)
      messages.push(...step(`thought ${index} ${words(60, index)}`, [{ name: 'probe', result: words(200, index) }]));
    const counter = createTokenCounter();
    // Current results may take 3% of the budget here, so the episode itself must be cut.
    const packed = packContext({ messages, budget: 6_000, currentToolResultCap: 180, tokenizer: counter });
    expect(packed.stats.tokens.total).toBeLessThanOrEqual(6_000);
    expect(packed.stats.currentEpisodeShortened).toBe(true);
    expect(packed.messages[0]).toBe(messages[0]);
    const kept = reasoningTexts(packed.messages);
    expect(kept.at(-1)).toMatch(/^thought 49 /);
    // Kept reasoning is a contiguous run of the newest steps.
    const numbers = kept.map((value) => Number(/^thought (\d+)/.exec(value)?.[1]));
    expect(numbers).toEqual(numbers.map((_, index) => 50 - numbers.length + index));
    expect(countContext(createTokenCounter(), { messages: packed.messages })).toBe(packed.stats.tokens.total);
  });

  it('packs a transcript with no user message (the preamble is the current episode)', () => {
    const first = call('boot');
    const messages = [assistant([reasoning('starting'), first]), result(first, 'ok')];
    const packed = packContext({ messages, budget: 1000 });
    expect(packed.messages).toHaveLength(2);
    expect(reasoningTexts(packed.messages)).toEqual(['starting']);
  });

  it('folds leading system messages into the system prompt', () => {
    const messages: Message[] = [{ role: 'system', content: 'from transcript' }, user('hi')];
    const packed = packContext({ messages, budget: 1000, system: 'given' });
    expect(packed.system).toBe('given\n\nfrom transcript');
    expect(packed.messages).toEqual([user('hi')]);
  });

  it('keeps later system and developer lines where they stand (v1.1)', () => {
    const late: Message = { role: 'system', content: 'The model changed.' };
    const developer: Message = { role: 'developer', content: 'Answer in French.' };
    const messages: Message[] = [user('x'), late, developer];
    const packed = packContext({ messages, budget: 1000, system: 'given' });
    expect(packed.system).toBe('given');
    expect(packed.messages).toEqual([user('x'), late, developer]);
  });
});

describe('packContext pairing', () => {
  it('keeps parallel calls with their results and drops dangling calls and orphaned results', () => {
    const [a, b, c] = [call('a'), call('b'), call('c')];
    const orphan: ToolMessage = { role: 'tool', toolCallId: 'nobody', toolName: 'x', content: 'lost' };
    const messages = [
      user('go'),
      assistant([reasoning('fan out'), a, b, c]),
      result(a, '1'),
      result(b, '2'),
      orphan,
      user('next'),
      assistant([text('later')]),
    ];
    const packed = packContext({ messages, budget: 10_000 });
    const calls = packed.messages.flatMap((message) =>
      message.role === 'assistant' ? message.content.filter((part) => part.type === 'tool-call') : [],
    );
    expect(calls.map((part) => (part as { id: string }).id)).toEqual([
      (a as { id: string }).id,
      (b as { id: string }).id,
    ]);
    expect(packed.messages.filter((message) => message.role === 'tool')).toHaveLength(2);
    expect(packed.stats.unpairedDropped).toBe(2);
  });
});

describe('packContext cache stability and eviction', () => {
  function replay(
    messages: readonly Message[],
    budget: number,
    extra: Partial<Parameters<typeof packContext>[0]> = {},
  ) {
    const counter = createTokenCounter();
    let state: PackState | undefined;
    const calls = [];
    for (let index = 1; index <= messages.length; index += 1) {
      if (messages[index]?.role !== 'assistant' && index !== messages.length) continue;
      const packed = packContext({
        messages: messages.slice(0, index),
        budget,
        tokenizer: counter,
        state,
        system: 'You debug CI.',
        ...extra,
      });
      state = packed.state;
      calls.push(packed);
    }
    return calls;
  }

  const long: Message[] = [];
  for (let index = 0; index < 12; index += 1) long.push(...episode(`question ${index}`, 4, 120, index + 1));

  it('evicts whole episodes with hysteresis and keeps the prefix byte-identical between events', () => {
    const calls = replay(long, 4_000, { toolResultCap: 150 });
    const events = calls.filter((packed) => packed.stats.evictedNow);
    expect(events.length).toBeGreaterThan(1);
    expect(events.length).toBeLessThan(calls.length / 4);
    for (const packed of calls) expect(packed.stats.tokens.total).toBeLessThanOrEqual(4_000);
    for (const packed of events) expect(packed.stats.tokens.total).toBeLessThanOrEqual(4_000 * 0.6);
    for (let index = 1; index < calls.length; index += 1) {
      const [before, after] = [calls[index - 1]!, calls[index]!];
      if (after.stats.evictedNow || after.state.current?.start !== before.state.current?.start) continue;
      const prefix = after.messages.slice(0, before.messages.length);
      expect(JSON.stringify(prefix)).toBe(JSON.stringify(before.messages));
      expect(after.stats.prefixReuseTokens).toBe(
        countContext(createTokenCounter(), { system: 'You debug CI.', messages: before.messages }) - 3,
      );
    }
  });

  it('keeps the first episodes as a head and evicts from the middle, so the head prefix survives', () => {
    const calls = replay(long, 4_000, { toolResultCap: 150 });
    const events = calls.filter((packed) => packed.stats.evictedNow);
    expect(events.length).toBeGreaterThan(1);
    const first = events[0]!;
    expect(first.stats.headEpisodes).toBeGreaterThan(0);
    expect(first.messages[0]).toBe(long[0]);
    for (let index = 1; index < calls.length; index += 1) {
      const [before, after] = [calls[index - 1]!, calls[index]!];
      if (!after.stats.evictedNow || after.stats.headEpisodes === 0) continue;
      // The head's messages are the previous call's first messages, byte for byte.
      const headLength = after.stats.cacheBreakpoints.messages[0]! + 1;
      expect(JSON.stringify(after.messages.slice(0, headLength))).toBe(JSON.stringify(before.messages.slice(0, headLength)));
      expect(after.stats.prefixReuseTokens).toBeGreaterThan(0);
    }
  });

  it('evicts oldest first with headShare 0, as before heads', () => {
    const calls = replay(long, 4_000, { toolResultCap: 150, headShare: 0 });
    for (const packed of calls) expect(packed.stats.headEpisodes).toBe(0);
    const last = calls.at(-1)!;
    expect(last.messages[0]).toMatchObject({ role: 'user' });
    expect(last.stats.evictedEpisodes).toBeGreaterThan(0);
    expect(last.messages[0]).not.toBe(long[0]);
  });
});

describe('packContext current-episode head', () => {
  /** One long episode of tool steps without reasoning: only leaving steps out can shorten it. */
  function longEpisode(steps: number): Message[] {
    const messages: Message[] = [user('long task')];
    for (let index = 0; index < steps; index += 1) {
      const part = call('probe', { q: index });
      messages.push(assistant([part]), result(part, `step ${index} ${words(200, index + 1)}`));
    }
    return messages;
  }

  /** Packs before every assistant message, as the loop does; returns the calls that left steps out anew. */
  function cuts(messages: readonly Message[], extra: Partial<Parameters<typeof packContext>[0]> = {}) {
    const counter = createTokenCounter();
    let state: PackState | undefined;
    const events: { packed: PackResult; previous: PackResult }[] = [];
    let previous: PackResult | undefined;
    for (let index = 1; index < messages.length; index += 1) {
      if (messages[index]?.role !== 'assistant') continue;
      const packed = packContext({ messages: messages.slice(0, index), budget: 6_000, tokenizer: counter, state, system: 'You debug CI.', toolResultCap: 400, ...extra });
      if (previous && packed.state.current?.stepsDroppedBefore !== state?.current?.stepsDroppedBefore) events.push({ packed, previous });
      state = packed.state;
      previous = packed;
    }
    return events;
  }

  const stepOf = (message: Message | undefined) =>
    message?.role === 'tool' && typeof message.content === 'string' ? Number(/^step (\d+)/.exec(message.content)?.[1]) : undefined;

  it('keeps the first steps as a head when it leaves steps out, so each cut keeps the cached prefix up to it', () => {
    const events = cuts(longEpisode(60));
    expect(events.length).toBeGreaterThanOrEqual(3);
    for (const { packed, previous } of events) {
      expect(packed.stats.tokens.total).toBeLessThanOrEqual(6_000);
      const steps = packed.messages.map(stepOf).filter((value) => value !== undefined);
      // The head (steps 0, 1, ...) stays, the latest step is there, and steps in between are left out.
      expect(steps[0]).toBe(0);
      expect(steps[1]).toBe(1);
      const gap = steps.findIndex((value, index) => index > 0 && value !== steps[index - 1]! + 1);
      expect(gap).toBeGreaterThan(1);
      const head = packed.state.current?.stepsHeadEnd ?? 0;
      expect(head).toBeGreaterThan(2);
      // Everything before the head's end is the previous call's bytes: the cache keeps it.
      expect(packed.messages.slice(0, head)).toEqual(previous.messages.slice(0, head));
      expect(packed.stats.prefixReuseTokens).toBeGreaterThan(packed.stats.tokens.total * 0.2);
    }
  });

  it('leaves out the oldest steps with headShare 0, as before heads: each cut keeps only the user message cached', () => {
    const events = cuts(longEpisode(60), { headShare: 0 });
    expect(events.length).toBeGreaterThanOrEqual(3);
    for (const { packed } of events) {
      expect(packed.state.current?.stepsHeadEnd).toBeUndefined();
      expect(packed.messages.map(stepOf).find((value) => value !== undefined)).toBeGreaterThan(0);
      expect(packed.stats.prefixReuseTokens).toBeLessThan(packed.stats.tokens.total * 0.1);
    }
  });

  it('lets the head go when the head and the latest step alone are over the low-water mark', () => {
    const messages = longEpisode(20);
    const part = call('probe', { q: 'big' });
    messages.push(assistant([part]), result(part, `step 99 ${words(3_000, 7)}`));
    const packed = packContext({ messages, budget: 6_000, lowWater: 0.6, system: 'You debug CI.', toolResultCap: 400, currentToolResultCap: 3_000 });
    expect(packed.stats.tokens.total).toBeLessThanOrEqual(6_000);
    // The head went with the steps after it: what is left is the newest steps, oldest left out first.
    const steps = packed.messages.map(stepOf).filter((value) => value !== undefined);
    expect(steps.at(-1)).toBe(99);
    expect(steps.length).toBeGreaterThan(1);
    expect(steps.slice(0, -1)).toEqual(steps.slice(0, -1).map((_, index) => 20 - (steps.length - 1) + index));
    expect(packed.state.current?.stepsHeadEnd).toBeUndefined();
  });
});

describe('packContext summaries', () => {
  const long: Message[] = [];
  for (let index = 0; index < 12; index += 1) long.push(...episode(`question ${index}`, 4, 120, index + 1));

  /** Replays like the agent loop: a requested summary lands as a summary line before the next call. */
  function replayWithSummaries(messages: readonly Message[], budget: number) {
    const counter = createTokenCounter();
    const transcript: Message[] = [];
    let state: PackState | undefined;
    let pending: SummaryRequest | undefined;
    const calls: PackResult[] = [];
    const requests: SummaryRequest[] = [];
    for (const message of messages) {
      if (message.role === 'assistant') {
        if (pending) {
          const { from, to } = pending.episodes;
          transcript.push({ role: 'summary', content: `Episodes ${from} to ${to - 1} fixed CI.`, episodes: { from, to } });
          pending = undefined;
        }
        const packed = packContext({ messages: transcript, budget, tokenizer: counter, state, system: 'You debug CI.', toolResultCap: 150 });
        if (packed.summaryRequest) {
          requests.push(packed.summaryRequest);
          pending = packed.summaryRequest;
        }
        state = packed.state;
        calls.push(packed);
      }
      transcript.push(message);
    }
    return { calls, requests, transcript };
  }

  it('requests each evicted episode once and sends the summary lines after the head, extending', () => {
    const { calls, requests } = replayWithSummaries(long, 4_000);
    expect(requests.length).toBeGreaterThan(1);
    // Consecutive requests pick up where the previous summary ended.
    for (let index = 1; index < requests.length; index += 1) {
      expect(requests[index]!.episodes.from).toBe(requests[index - 1]!.episodes.to);
      expect(requests[index]!.previousSummary).toContain(`to ${requests[index - 1]!.episodes.to - 1} fixed CI.`);
    }
    const withSummary = calls.filter((packed) => packed.stats.tokens.summary > 0);
    expect(withSummary.length).toBeGreaterThan(0);
    let previousText: string | undefined;
    for (const packed of withSummary) {
      const at = packed.messages.findIndex((message) => message.summary === true);
      expect(at).toBe(packed.stats.headEpisodes === 0 ? 0 : packed.stats.cacheBreakpoints.messages[0]! + 1);
      const content = String(packed.messages[at]!.content);
      expect(content).toContain('fixed CI.');
      if (previousText !== undefined && packed.stats.summaryChangedNow) expect(content.startsWith(previousText)).toBe(true);
      previousText = content;
      expect(packed.stats.tokens.total).toBeLessThanOrEqual(4_000);
      expect(countContext(createTokenCounter(), { system: 'You debug CI.', messages: packed.messages })).toBe(packed.stats.tokens.total);
    }
  });

  it('marks the call where a summary line arrives, and keeps the head prefix there', () => {
    const { calls } = replayWithSummaries(long, 4_000);
    const arrivals = calls.filter((packed, index) => index > 0 && packed.stats.summaryChangedNow && !packed.stats.evictedNow);
    expect(arrivals.length).toBeGreaterThan(0);
    for (const packed of arrivals) if (packed.stats.headEpisodes > 0) expect(packed.stats.prefixReuseTokens).toBeGreaterThan(0);
  });

  it('ignores a later summary line that covers the same episodes (the sent text does not change)', () => {
    const { calls, transcript } = replayWithSummaries(long, 4_000);
    const last = calls.at(-1)!;
    const lines = transcript.filter((message) => message.role === 'summary');
    const again = [...transcript, { ...lines[0]!, content: 'A rewritten summary.' }];
    const repacked = packContext({ messages: again, budget: 4_000, system: 'You debug CI.', toolResultCap: 150, state: last.state, tokenizer: createTokenCounter() });
    expect(JSON.stringify(repacked.messages.filter((message) => message.summary))).not.toContain('A rewritten summary.');
  });

  it('keeps one packed summary message per summary while sessions interleave', () => {
    const counter = createTokenCounter();
    const messages = threeEpisodes();
    const withLine = (text: string): Message[] => [...messages, { role: 'summary', content: text, episodes: { from: 0, to: 1 } }];
    const state: PackState = { version: 1, evictedEpisodes: 1, head: { start: 0, end: 0 } };
    const pack = (text: string) => packContext({ messages: withLine(text), budget: 100_000, tokenizer: counter, state });
    const first = pack('Session A: the flaky test was fixed.');
    pack('Session B: the build cache was cleared.');
    const again = pack('Session A: the flaky test was fixed.');
    expect(first.messages[0]).toMatchObject({ role: 'user', summary: true });
    // The same object, so its count and fingerprint are cached, not redone at every call of every session.
    expect(again.messages[0]).toBe(first.messages[0]);
  });

  it('loads a state written before heads and summary lines (evicted from the front)', () => {
    const messages = threeEpisodes();
    const old = { version: 1, evictedEpisodes: 1, summary: { episodes: 1, text: 'old hook summary' } } as PackState;
    const packed = packContext({ messages, budget: 100_000, state: old });
    expect(packed.stats.evictedEpisodes).toBe(1);
    expect(packed.messages[0]).toMatchObject({ role: 'user', content: 'second question' });
    expect(packed.summaryRequest).toBeUndefined();
  });
});

describe('prepareForPacking', () => {
  function countingCounter() {
    const inner = createTokenCounter();
    const calls = { countText: 0 };
    const counter: TokenCounter = {
      encoding: inner.encoding,
      calibration: inner.calibration,
      countText: (value) => {
        calls.countText += 1;
        return inner.countText(value);
      },
      countCached: (owner, value) => inner.countCached(owner, value),
      countMessage: (message) => inner.countMessage(message),
      countSystem: (system) => inner.countSystem(system),
      countTools: (tools) => inner.countTools(tools),
    };
    return { counter, calls };
  }
  const big = call('get_log');
  const messages = [
    user('a'),
    assistant([reasoning('r'), big]),
    result(big, words(6000)),
    assistant([text('done')]),
    user('b'),
  ];

  it('moves all tokenizing off the packing call', () => {
    const { counter, calls } = countingCounter();
    for (const message of messages) prepareForPacking(message, { budget: 20_000, tokenizer: counter });
    calls.countText = 0;
    const packed = packContext({ messages, budget: 20_000, tokenizer: counter });
    expect(calls.countText).toBe(0);
    expect(packed.stats.truncatedToolResults).toBe(1);
  });

  it('without it, the first packing call shortens (and counts) on the call path', () => {
    const { counter, calls } = countingCounter();
    packContext({ messages, budget: 20_000, tokenizer: counter });
    expect(calls.countText).toBeGreaterThan(0);
  });
});

describe('packContext with transcript v1.1 content', () => {
  it('an injected user message does not end the episode: its reasoning and the cached prefix stay', () => {
    const thought = call('get_log');
    const notice: Message = { role: 'user', content: '<system-reminder>a task finished</system-reminder>', injected: true };
    const before = [user('why is CI red?'), assistant([reasoning('read the log'), thought]), result(thought, 'FAIL')];
    const first = packContext({ messages: before, budget: 10_000 });
    const after = packContext({ messages: [...before, notice], budget: 10_000, state: first.state });
    expect(reasoningTexts(after.messages)).toEqual(['read the log']);
    expect(after.messages.at(-1)).toBe(notice);
    expect(after.stats.prefixReuseTokens).toBe(first.stats.tokens.total - first.stats.tokens.system - 3);
    const typed = packContext({ messages: [...before, user('and now?')], budget: 10_000, state: first.state });
    expect(reasoningTexts(typed.messages)).toEqual([]);
  });

  it('shortens a past tool result with an image to text, saying the image was left out', () => {
    const shot = call('screenshot');
    const image: ToolMessage = {
      role: 'tool',
      toolCallId: (shot as { id: string }).id,
      toolName: 'screenshot',
      content: [
        { type: 'text', text: words(400, 3) },
        { type: 'image', data: 'iVBORw0KGgo=', mediaType: 'image/png' },
      ],
    };
    const messages = [user('look'), assistant([shot]), image, assistant([text('seen')]), user('next')];
    const packed = packContext({ messages, budget: 20_000, toolResultCap: 100 });
    const sent = packed.messages.find((message) => message.role === 'tool') as ToolMessage;
    expect(typeof sent.content).toBe('string');
    expect(sent.content).toContain('[image left out of this shortened tool result]');
    expect(sent.truncated).toBe(true);
    const current = packContext({
      messages: messages.slice(0, 3),
      budget: 20_000,
      toolResultCap: 100,
      currentToolResultCap: 5_000,
    });
    expect(current.messages.at(-1)).toBe(image);
  });
});
