/**
 * The AI SDK loop without and with Episodic's packing (issue 40): sessions of the
 * session family replayed call by call, each call's prompt as an AI SDK loop holds it
 * (the transcript converted to the AI SDK's prompt once per message, as the loop appends
 * it), sent (a) whole, as an unpacked `generateText` loop sends it, (b) through the
 * `episodicPacking()` middleware, and beside them (c) Episodic's own packer on the same
 * transcript, as an `Agent` packs it, and the naive window (the baseline: newest whole
 * messages that fit). Cost and reuse as in the packer-family bench, against the naive
 * window in the same run.
 *
 * Then the per-step cost the middleware adds: on one long session, the time of the
 * middleware's `packParams` per call (converting the prompt to Episodic messages, packing,
 * converting back) against `packContext` alone on the Agent's transcript, alternating.
 *
 *   node --expose-gc bench/ai-sdk-packing.bench.js   (or `npm run bench -- ai-sdk`)
 *
 * Needs the built packages (`npx tsc -b`). Replays four generated sessions of the family (PICKED).
 */
import { mkdir, writeFile } from 'node:fs/promises';
import { availableParallelism, loadavg } from 'node:os';
import { pathToFileURL } from 'node:url';
import { episodicPacking, fromAISDKPrompt, toAISDKPrompt } from '@episodic/ai-sdk';
import { createTokenCounter } from '@episodic/core';
import { BENCH_SYSTEM, BENCH_TOOLS } from './agent-prompt.js';
import { PRICE } from './metrics.js';
import { generatedFamily, measure } from './packer-family.bench.js';
import { BENCH_MODEL } from './session-generator.js';
import * as episodic from './strategies/episodic.js';
import * as naive from './strategies/naive.js';

const BUDGETS = [16_000, 64_000];
/** The AI SDK model the middleware wraps: OpenAI's gpt-5, the benches' prices and profile. */
const MODEL = { specificationVersion: 'v3', provider: 'openai.responses', modelId: BENCH_MODEL.id };
const RUNS = Number(process.env.AI_SDK_BENCH_RUNS ?? 5);
/** The generated shapes replayed (packer-family's numbering): tiny 2-12 heavy, mixed 2-12 none, mixed 10-60 heavy, huge 1-3 none. */
const PICKED = [2, 11, 12, 17];

const functionTools = BENCH_TOOLS.map((tool) => ({ type: 'function', name: tool.name, description: tool.description, inputSchema: tool.inputSchema }));

/** Episodic messages of a packed AI SDK prompt, without the originals they carry (the recorder counts and compares the messages). */
function asTranscript(prompt) {
  const { messages } = fromAISDKPrompt(prompt, BENCH_MODEL);
  return JSON.parse(JSON.stringify(messages, (key, value) => (key === 'aiSdk' ? undefined : value)));
}

/** The AI SDK loop: its prompt grows by each message as converted once; `packing` packs each call, or none sends it whole. */
function aiSdkStrategy(packed) {
  return {
    createStrategy({ budget, counter }) {
      const packing = packed ? episodicPacking({ budget, tokenizer: counter, retention: 'episode' }) : undefined;
      const prompt = [{ role: 'system', content: BENCH_SYSTEM }];
      return {
        name: packed ? 'AI SDK + episodicPacking' : 'AI SDK, unpacked',
        onAppend(message) {
          prompt.push(...toAISDKPrompt([message], 'v3').prompt);
        },
        pack() {
          return this.packPrepared(this.prepare(false));
        },
        /** The call's options; `fresh`: new message objects equal to the last call's, as the AI SDK builds each step. */
        prepare(fresh) {
          return { prompt: fresh ? structuredClone(prompt) : [...prompt], tools: functionTools };
        },
        packPrepared(params) {
          return packing ? packing.packParams(params, MODEL).prompt : params.prompt;
        },
        toTranscript(sent) {
          return asTranscript(sent.slice(1));
        },
      };
    },
  };
}

const median = (values) => {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2;
};

const STRATEGIES = [
  { name: 'AI SDK loop, unpacked (whole history)', module: aiSdkStrategy(false) },
  { name: 'AI SDK loop + episodicPacking()', module: aiSdkStrategy(true) },
  { name: 'Episodic Agent packing (packContext)', module: episodic },
];

/** Per session and budget: each strategy's reuse and cost against the naive window, and calls over the budget. */
async function runFamily(family) {
  const rows = [];
  for (const member of family) {
    const messages = await member.make();
    for (const budget of BUDGETS) {
      const base = measure(naive, {}, messages, budget);
      for (const strategy of STRATEGIES) {
        const result = measure(strategy.module, {}, messages, budget);
        rows.push({
          session: member.name,
          budget,
          strategy: strategy.name,
          reuse: result.reuse,
          cachedRatio: result.cached / base.cached,
          uncachedRatio: result.uncached / base.uncached,
          threw: result.threw,
        });
      }
    }
    process.stderr.write(`ai-sdk-packing: ${member.name} (${messages.length} messages), load ${loadavg()[0].toFixed(1)}\n`);
  }
  return rows;
}

function familyTable(rows) {
  const lines = [];
  for (const budget of BUDGETS) {
    for (const strategy of STRATEGIES) {
      const group = rows.filter((row) => row.budget === budget && row.strategy === strategy.name);
      const worstCost = Math.max(...group.map((row) => row.cachedRatio));
      lines.push(
        `| ${budget / 1000}k | ${strategy.name} | ${group.length} | ${median(group.map((row) => row.reuse)).toFixed(3)} | ` +
          `${median(group.map((row) => row.cachedRatio)).toFixed(3)}x | ${worstCost.toFixed(3)}x | ` +
          `${median(group.map((row) => row.uncachedRatio)).toFixed(3)}x | ${group.reduce((sum, row) => sum + row.threw, 0)} |`,
      );
    }
  }
  return `| budget | loop | sessions | median reuse | median cost vs naive, cached | worst | median cost vs naive, uncached | failed packs |
| --- | --- | ---: | --- | --- | --- | --- | --- |
${lines.join('\n')}`;
}

/**
 * Microseconds per call on one session: the middleware's `packParams` and `packContext` (the
 * Agent's packer, messages prepared as they are appended), run after run alternating.
 */
function stepCost(messages, budget) {
  const timings = { middleware: [], packer: [] };
  for (let run = 0; run < RUNS; run += 1) {
    for (const which of run % 2 === 0 ? ['middleware', 'packer'] : ['packer', 'middleware']) {
      const counter = createTokenCounter();
      const strategy = which === 'packer'
        ? episodic.createStrategy({ budget, counter, system: BENCH_SYSTEM, tools: BENCH_TOOLS })
        : aiSdkStrategy(true).createStrategy({ budget, counter });
      const transcript = [];
      globalThis.gc?.();
      for (const message of messages) {
        if (message.role === 'assistant' && transcript.length > 0) {
          const params = which === 'middleware' ? strategy.prepare(true) : undefined;
          const started = process.hrtime.bigint();
          if (params) strategy.packPrepared(params);
          else strategy.pack(transcript);
          timings[which].push(Number(process.hrtime.bigint() - started) / 1000);
        }
        transcript.push(message);
        strategy.onAppend(message);
      }
    }
  }
  return { middleware: median(timings.middleware), packer: median(timings.packer), calls: timings.packer.length / RUNS };
}

/** Runs the family and the step cost; returns a markdown section. */
export default async function run() {
  const started = Date.now();
  const loads = [loadavg()[0]];
  // Four generated shapes (each tool size, short and long episodes, with and without reasoning): each call
  // is packed three ways and converted, so the whole family would take an hour on a shared machine.
  const family = generatedFamily().filter((member) => PICKED.includes(member.shape));
  const rows = await runFamily(family);
  loads.push(loadavg()[0]);
  const long = family.find((member) => member.name.startsWith('tools mixed, 2-12')) ?? family[0];
  const messages = await long.make();
  const cost = { budget: 64_000, ...stepCost(messages, 64_000) };
  loads.push(loadavg()[0]);
  const markdown = `## The AI SDK loop with and without Episodic packing

${family.length} sessions of the session family (${family.map((member) => member.name).join('; ')}) replayed call by call, each call's prompt as an AI SDK
loop holds it. "Unpacked" sends the whole history, as a \`generateText\` loop without packing does (past the
budget the provider would refuse it); "+ episodicPacking()" wraps the model in the middleware (gpt-5's profile,
retention \`episode\`); "Episodic Agent packing" is \`packContext\` on the same transcript as an \`Agent\` packs it.
Reuse is the mean share of each call's input that repeats the previous call's prefix; cost is against the naive
window (newest whole messages that fit) on the same session and budget, in the same run, with cached input at
${PRICE.cachedShare}x from 1,024 tokens ("cached") or every token at full price ("uncached"); gpt-5's prices,
reasoning of earlier user turns removed by the provider as in the packer-family bench.

${familyTable(rows)}

### Per-step cost of the middleware

One session ("${long.name}", ${messages.length} messages, ${cost.calls} calls) at ${cost.budget / 1000}k: median
time of one call's packing, over ${RUNS} alternating runs of every call.

| packing | median per call | vs packContext |
| --- | --- | --- |
| \`packContext\` (the Agent's packer, messages prepared on append) | ${cost.packer.toFixed(0)} µs | 1.00x |
| \`episodicPacking()\` \`packParams\` (convert, pack, convert back) | ${cost.middleware.toFixed(0)} µs | ${(cost.middleware / cost.packer).toFixed(2)}x |

The middleware adds ${(cost.middleware - cost.packer).toFixed(0)} µs per call (median). The AI SDK hands it a
new prompt every step (here: new objects equal to the last call's, as the AI SDK builds them): it compares each
message with the last call's and converts only the new ones, so the packer's per-message caches still hit, but
the comparison and the conversion back walk the whole prompt, where an \`Agent\` only appends.

Node ${process.version}, ${availableParallelism()} cores, load average ${loads.map((load) => load.toFixed(1)).join(' / ')}
(start / after the family / end), ${((Date.now() - started) / 1000).toFixed(0)} s.
`;
  await mkdir(new URL('./results/', import.meta.url), { recursive: true });
  await writeFile(new URL('./results/ai-sdk-packing.md', import.meta.url), markdown);
  return markdown;
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  process.stdout.write(await run());
}
