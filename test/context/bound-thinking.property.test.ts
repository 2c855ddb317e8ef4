/**
 * Property: on a model that binds its thinking to everything sent before it (Anthropic
 * preserved thinking), the whole path (agent loop, packer, Anthropic adapter, SDK) never
 * sends a request the strict loopback server refuses, and no tool-result continuation
 * goes on without the thinking its last step was issued with. Random sessions: several
 * episodes of tool steps with thinking of random length, tool results under and over the
 * cap (cuts), budgets of 16k to 64k tokens (evictions, cuts of the current episode), and
 * background summaries of evicted episodes in some of them.
 *
 * A step loses its thinking only where no plan that knew what the session had shown could
 * have kept it: the episode's least form (bound-losses.ts) is over the budget alone
 * (`boundCutCause: 'episode'`), or larger than every earlier episode of the session; and
 * never where a choice at the lost step itself could have kept it (its new results, all
 * that comes after its thinking, cut to their marker would not free enough).
 *
 * The figures (requests, blocks checked, blocks left out, lost last-step thinking, each loss
 * with its sizes, history kept at user turns, results as first sent) are printed with
 * `EPISODIC_BOUND_REPORT=1`.
 */
import { Agent, type AgentTool, MemorySessionStore } from '@episodic/core';
import { scriptedModel } from '@episodic/core/testing';
import { createAnthropicAdapter } from '@episodic/providers/anthropic';
import fc from 'fast-check';
import { afterAll, describe, expect, it } from 'vitest';
import { startAnthropicServer } from '../servers/anthropic-server.js';
import type { RecordedRequest, ScriptedResponse } from '../servers/scripted-server.js';
import { words } from '../support/transcripts.js';
import { addKept, type Loss, losses, newKept, type PackEvent } from './bound-losses.js';

const model = 'claude-fable-5-1';

/** Sessions: `steps` and `thinking` bound how much one episode can grow, `budgets` the budget. */
function sessions(limits: { steps: number; thinking: number; budgets: [number, number]; episodes: number; resultLines: number }) {
  const step = fc.record({
    thinking: fc.integer({ min: 5, max: limits.thinking }),
    results: fc.array(fc.integer({ min: 1, max: limits.resultLines }), { minLength: 1, maxLength: 2 }),
  });
  return fc.record({
    budget: fc.integer({ min: limits.budgets[0], max: limits.budgets[1] }),
    summaries: fc.boolean(),
    episodes: fc.array(
      fc.record({
        question: fc.integer({ min: 3, max: 300 }),
        steps: fc.array(step, { maxLength: limits.steps }),
        answer: fc.integer({ min: 1, max: 200 }),
      }),
      { minLength: 2, maxLength: limits.episodes },
    ),
  });
}
/** Any session: episodes that alone outgrow what the budget leaves them force cuts inside a tool-use turn. */
const anySession = sessions({ steps: 10, thinking: 1_200, budgets: [16_000, 64_000], episodes: 8, resultLines: 2_500 });
/**
 * Sessions whose episodes fit in the room an eviction at a user turn leaves (half the
 * budget) once their new results are shortened where they are first sent: at most 6 steps
 * of at most 600 tokens of thinking, 2 results each of any size up to 2,500 lines (about
 * 25,000 tokens, over the current-episode cap).
 */
const plannableSession = sessions({ steps: 6, thinking: 600, budgets: [24_000, 48_000], episodes: 12, resultLines: 2_500 });
type SessionSpec = typeof anySession extends fc.Arbitrary<infer Value> ? Value : never;

/**
 * A session of the first property (seed 35) whose third episode loses one step's thinking:
 * its least form reaches 2.3 times that of any earlier episode, beside the 5,800 tokens of
 * history its user turn kept, and at the lost step appending is over the budget by about
 * 670 tokens, where cutting that step's new result to its marker would free under 100.
 * Run at every run count, so the loss assertions always meet a loss. Episodes as
 * `[question, answer, steps]`, each step `[thinking, ...result lines]`.
 */
const losingSession: SessionSpec = {
  budget: 16004,
  summaries: false,
  episodes: (
    [
      [287, 41, [[8, 489, 1561], [940, 973, 73], [34, 574]]],
      [5, 8, [[520, 95], [12, 5], [1193, 436], [5, 2492], [795, 3]]],
      [293, 159, [[594, 912, 1070], [1044, 6], [1197, 1130], [1193, 820, 2441], [548, 1015], [8, 646, 89], [1025, 1162],
        [296, 2288]]],
      [31, 127, [[10, 1745, 2091], [1191, 674], [1195, 5, 2491], [623, 2171, 2369], [843, 651], [188, 2046], [782, 1199],
        [1192, 1529], [46, 2493, 1902]]],
    ] as [number, number, number[][]][]
  ).map(([question, answer, steps]) => ({
    question,
    answer,
    steps: steps.map(([thinking, ...results]) => ({ thinking: thinking as number, results })),
  })),
};

/** Totals over the session runs of one property. */
const newTotals = () => ({
  sessions: 0,
  requests: 0,
  refused: 0,
  continuations: 0,
  lostLastThinking: 0,
  checkedBlocks: 0,
  failedBlocks: 0,
  issuedBlocks: 0,
  evictions: 0,
  currentCuts: 0,
  cutResults: 0,
  boundReasoningCuts: 0,
  /** Cuts the pack showed forced: appending (new results at the floor cap) was over the budget. */
  forcedCuts: 0,
  leftOut: new Set<string>(),
  losses: [] as Loss[],
  kept: newKept(),
});
type Totals = ReturnType<typeof newTotals>;
const totals = { any: newTotals(), plannable: newTotals() };

/** The tool: answers each call with the text the session spec gave it, in order. */
function runTool(outputs: string[]): AgentTool {
  return {
    spec: { name: 'run', description: 'Runs a command.', inputSchema: { type: 'object', properties: { command: { type: 'string' } } } },
    execute: async () => ({ content: outputs.shift() ?? 'no output' }),
  };
}

/** A command's output of `lines` lines. */
const output = (lines: number, seed: number) =>
  Array.from({ length: lines }, (_, line) => `${seed}:${line} ${words(6, seed + line)}`).join('\n');

function script(spec: SessionSpec): { replies: ScriptedResponse[][]; outputs: string[] } {
  const outputs: string[] = [];
  let seed = 1;
  const replies = spec.episodes.map((episode) => {
    const steps: ScriptedResponse[] = episode.steps.map((step) => {
      for (const lines of step.results) outputs.push(output(lines, seed));
      seed += 1;
      return {
        type: 'reply',
        reasoning: [words(step.thinking, seed)],
        toolCalls: step.results.map((_, index) => ({ name: 'run', args: { command: `step ${seed} ${index}` } })),
      };
    });
    seed += 1;
    return [...steps, { type: 'reply', reasoning: [words(20, seed)], text: words(episode.answer, seed) } as ScriptedResponse];
  });
  return { replies, outputs };
}

/** Adds one request's binding figures to the totals; the signatures of blocks it should have carried and did not. */
function tally(totals: Totals, request: RecordedRequest): void {
  totals.requests += 1;
  if (request.status !== 200) totals.refused += 1;
  const binding = request.binding;
  if (!binding) return;
  totals.checkedBlocks += binding.checkedBlocks;
  totals.failedBlocks += binding.failedBlocks;
  if (binding.lastTurnBlocks > 0) totals.continuations += 1;
  if (binding.lostLastThinking) totals.lostLastThinking += 1;
}

/** One session's requests, and the steps whose pack changed what the last step's thinking was bound to. */
async function runSession(
  totals: Totals,
  spec: SessionSpec,
): Promise<{ requests: RecordedRequest[]; announced: number; forced: boolean; losses: Loss[] }> {
  let announced = 0;
  let warned = 0;
  let forced = true;
  const packs: PackEvent[] = [];
  const server = await startAnthropicServer();
  try {
    const { replies, outputs } = script(spec);
    const adapter = createAnthropicAdapter({ model, baseURL: server.url, apiKey: 'test-key' });
    const summarizer = spec.summaries ? { model: scriptedModel({ steps: (_request, index) => ({ text: `summary ${index}: ${words(40, index)}` }) }) } : undefined;
    const agent = new Agent({
      model: adapter,
      tools: [runTool(outputs)],
      store: new MemorySessionStore(),
      ...(summarizer ? { summarizer } : {}),
      context: { budget: spec.budget },
    });
    const session = await agent.session({ id: 'bound' });
    for (const [index, episode] of spec.episodes.entries()) {
      let call = 0;
      server.enqueue(...(replies[index] as ScriptedResponse[]));
      await session.send(`question ${index}: ${words(episode.question, index + 7)}`, {
        onEvent: (event) => {
          if (event.type === 'warning' && event.code === 'bound-reasoning-cut') warned += 1;
          if (event.type !== 'context-packed') return;
          packs.push({ episode: index, call, stats: event.stats });
          call += 1;
          if (event.stats.evictedNow) totals.evictions += 1;
          if (event.stats.currentEpisodeShortened) totals.currentCuts += 1;
          if (event.stats.boundReasoningCut) {
            totals.boundReasoningCuts += 1;
            announced += 1;
            // Only where the budget forced it: even appending, the step's new results at the
            // floor cap, would have been over the budget.
            const unavoidable = (event.stats.boundAppendTokens ?? 0) > event.budget;
            if (unavoidable) totals.forcedCuts += 1;
            forced &&= unavoidable && (event.stats.evictedNow || event.stats.currentEpisodeShortened);
          }
          totals.cutResults += event.stats.truncatedToolResults;
        },
      });
    }
    // Every block issued with a tool step, and those a later continuation of its turn went without.
    const issued = new Set<string>();
    for (const request of server.modelCalls()) tally(totals, request);
    for (const message of session.messages)
      if (message.role === 'assistant') for (const part of message.content) if (part.type === 'reasoning' && part.signature) issued.add(part.signature);
    totals.issuedBlocks += issued.size;
    for (const request of server.modelCalls()) for (const signature of leftOutOf(request)) totals.leftOut.add(signature);
    totals.sessions += 1;
    const lost = losses(session.messages, packs, server.modelCalls());
    totals.losses.push(...lost);
    addKept(totals.kept, spec.budget, packs, server.modelCalls(), session.messages);
    // Each announced change is also a warning the application sees.
    forced &&= warned === announced;
    return { requests: server.modelCalls(), announced, forced, losses: lost };
  } finally {
    await server.close();
  }
}

/**
 * Signatures of blocks the server issued with a step of the request's current turn
 * (after its last real user message) that the request did not carry with a valid prefix,
 * and of the blocks of a turn's steps the request left out altogether.
 */
function leftOutOf(request: RecordedRequest): string[] {
  return request.binding?.leftOut ?? [];
}

const runs = Number(process.env.EPISODIC_BOUND_RUNS ?? 12);
// Sessions of the first property are long (up to 8 episodes of 10 steps): fewer of them by default.
const anyRuns = Number(process.env.EPISODIC_BOUND_RUNS ?? 6);
const report = process.env.EPISODIC_BOUND_REPORT !== undefined;

describe('bound thinking through the whole path', () => {
  afterAll(() => {
    if (!report) return;
    for (const [name, { leftOut, losses: lost, kept, ...rest }] of Object.entries(totals)) {
      const counts: Record<string, number> = {};
      for (const loss of lost) {
        const kind = `${loss.cause}${loss.unforeseen ? ', unforeseen' : ''}`;
        counts[kind] = (counts[kind] ?? 0) + 1;
      }
      console.log(`${name}: ${JSON.stringify({ ...rest, blocksLeftOutOnce: leftOut.size, lost: counts })}`);
      console.log(
        `  kept: history at a user turn ${Math.round(kept.historyAtTurns / Math.max(1, kept.userTurns))} tokens on average (${kept.userTurns} turns); ` +
          `${kept.resultsFirstSent} results first sent with ${kept.resultTokensSent} of their ${kept.resultTokensWhole} tokens whole`,
      );
      for (const loss of lost) console.log(`  lost: ${JSON.stringify(loss)}`);
    }
  });

  it('never sends a request the server refuses; a step goes on without its thinking only where appending could not fit, no plan could have foreseen it, and says so', async () => {
    await fc.assert(
      fc.asyncProperty(anySession, async (spec) => {
        const { requests, announced, forced, losses: lost } = await runSession(totals.any, spec);
        if (report) return;
        expect(requests.filter((request) => request.status !== 200).map((request) => request.error)).toEqual([]);
        // Every continuation that lost its last step's thinking was announced by the pack that made it.
        expect(requests.filter((request) => request.binding?.lostLastThinking).length).toBe(announced);
        expect(forced).toBe(true);
        // And no plan that knew what the session had shown could have kept it.
        expect(lost.every((loss) => loss.cause !== undefined)).toBe(true);
        expect(lost.filter((loss) => loss.cause !== 'episode' && !loss.unforeseen)).toEqual([]);
        // Nor any choice at the lost step itself: appending was over the budget by more than
        // its new results (all that comes after its thinking) would free cut to their marker.
        expect(lost.filter((loss) => loss.cause !== 'episode' && loss.overBy <= loss.stepCouldFree)).toEqual([]);
      }),
      // The report counts generated sessions only, so its figures compare across changes.
      { numRuns: anyRuns, seed: 35, examples: report ? [] : [[losingSession]] },
    );
  }, 600_000);

  it('loses no thinking when each episode fits in the room the plan leaves at its user turn', async () => {
    await fc.assert(
      fc.asyncProperty(plannableSession, async (spec) => {
        const { requests } = await runSession(totals.plannable, spec);
        if (report) return;
        expect(requests.filter((request) => request.status !== 200).map((request) => request.error)).toEqual([]);
        expect(requests.filter((request) => request.binding?.lostLastThinking).length).toBe(0);
        expect(requests.flatMap((request) => request.binding?.leftOut ?? [])).toEqual([]);
      }),
      { numRuns: runs, seed: 35 },
    );
  }, 600_000);
});
