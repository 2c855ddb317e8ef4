/**
 * A seeded generator of a long, realistic agent session in transcript format v1
 * (see DESIGN.md): user turns, each answered by 2 to 12 assistant steps with
 * reasoning, optional short text and 0 to 3 tool calls, each call followed by its
 * tool result. Sizes are log-normal and bounded by the ranges of the benchmark
 * (issue 2, item 8). The same seed always gives the same session.
 */
import { ciLog, code, prose, searchHits, sourcePath, testOutput, word } from './session-text.js';

/**
 * Size ranges in tokens. Each is log-normal with the range as its +-3 sigma
 * interval (median = geometric mean of the bounds, sigma = ln(max / min) / 6), and
 * draws outside it are redrawn: the issue gives ranges, not shapes.
 */
export const SIZES = {
  user: range(8, 600),
  reasoning: range(100, 3000),
  stepText: range(5, 200),
  answer: range(30, 1500),
  toolResult: range(50, 20_000),
};

/** A log-normal size range from `min` to `max` tokens (see {@link SIZES}). */
export function range(min, max) {
  return { median: Math.sqrt(min * max), sigma: Math.log(max / min) / 6, min, max };
}

/** The model that "produced" the assistant messages. */
export const BENCH_MODEL = { provider: 'openai', id: 'gpt-5' };

/**
 * mulberry32: a small, fast, seeded PRNG with a 32-bit state.
 * @param {number} seed
 * @returns {() => number} uniform in [0, 1)
 */
export function mulberry32(seed) {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** A log-normal size in [min, max], by rejection so the bounds do not pile up mass. */
export function logNormal(random, { median, sigma, min, max }) {
  for (let attempt = 0; attempt < 100; attempt += 1) {
    // Box-Muller; 1 - random() keeps the logarithm finite.
    const normal = Math.sqrt(-2 * Math.log(1 - random())) * Math.cos(2 * Math.PI * random());
    const value = Math.round(median * Math.exp(sigma * normal));
    if (value >= min && value <= max) return value;
  }
  return Math.min(max, Math.max(min, median));
}

const integer = (random, min, max) => min + Math.floor(random() * (max - min + 1));

/** Tools with an argument builder and the kind of output each prints. */
const TOOL_KINDS = [
  { name: 'get_ci_log', args: (random) => ({ run: integer(random, 1000, 9999) }), output: ciLog },
  { name: 'read_file', args: (random) => ({ path: sourcePath(random) }), output: code },
  { name: 'search_code', args: (random) => ({ query: `${word(random)}\\(` }), output: searchHits },
  { name: 'run_tests', args: (random) => ({ pattern: word(random) }), output: testOutput },
  {
    name: 'edit_file',
    args: (random) => ({ path: sourcePath(random), old: word(random), new: word(random) }),
    output: code,
  },
  { name: 'list_files', args: (random) => ({ dir: sourcePath(random).split('/')[0] }), output: searchHits },
];

function toolCallCount(random) {
  const roll = random();
  if (roll < 0.55) return 1;
  if (roll < 0.85) return 2;
  return 3;
}

function step(random, context, final) {
  const { sizes } = context;
  const content = sizes.reasoning ? [{ type: 'reasoning', text: prose(logNormal(random, sizes.reasoning), random) }] : [];
  if (final) {
    content.push({ type: 'text', text: prose(logNormal(random, sizes.answer), random) });
    return { assistant: { role: 'assistant', content, model: BENCH_MODEL }, results: [] };
  }
  if (random() < 0.4) content.push({ type: 'text', text: prose(logNormal(random, sizes.stepText), random) });
  const results = [];
  for (let index = toolCallCount(random); index > 0; index -= 1) {
    const tool = TOOL_KINDS[Math.floor(random() * TOOL_KINDS.length)];
    context.calls += 1;
    const id = `call_${context.calls.toString(36).padStart(4, '0')}${Math.floor(random() * 1e9).toString(36)}`;
    content.push({ type: 'tool-call', id, name: tool.name, args: tool.args(random) });
    const isError = random() < 0.05;
    results.push({
      role: 'tool',
      toolCallId: id,
      toolName: tool.name,
      content: tool.output(logNormal(random, sizes.toolResult), random),
      isError,
    });
  }
  return { assistant: { role: 'assistant', content, model: BENCH_MODEL }, results };
}

/**
 * Generates a session: `turns` episodes, each a user message and 2 to 12 steps;
 * every step but the last calls 1 to 3 tools, the last answers with text. `sizes`
 * overrides size ranges (see {@link SIZES}); `reasoning: null` there gives a model
 * that does not reason.
 * @param {{ seed?: number, turns?: number, minSteps?: number, maxSteps?: number, sizes?: Partial<typeof SIZES> }} [options]
 * @returns {import('@episodic/core').Message[]}
 */
export function generateSession({ seed = 1, turns = 60, minSteps = 2, maxSteps = 12, sizes = {} } = {}) {
  const random = mulberry32(seed);
  const context = { calls: 0, sizes: { ...SIZES, ...sizes } };
  const messages = [];
  for (let turn = 0; turn < turns; turn += 1) {
    messages.push({ role: 'user', content: prose(logNormal(random, context.sizes.user), random) });
    const steps = integer(random, minSteps, maxSteps);
    for (let index = 0; index < steps; index += 1) {
      const { assistant, results } = step(random, context, index === steps - 1);
      messages.push(assistant, ...results);
    }
  }
  return messages;
}
