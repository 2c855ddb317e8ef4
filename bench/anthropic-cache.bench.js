/**
 * Anthropic prompt-cache reuse, predicted, before and after lookback-aware breakpoint
 * planning (issue 12, fix 9). Anthropic's cache lookup walks back at most 20 content
 * blocks from each breakpoint; when the next user message strips an episode's
 * thinking, the next episode can read the cache only up to that episode's question,
 * and only if a breakpoint sits within 20 blocks of it.
 *
 * Generated sessions (the packer benchmark's generator, re-tagged as Claude with
 * signed thinking) are replayed call by call: packed by `packContext` (retention
 * `episode`), prepared by the Anthropic adapter (`prepare`, no network). "after" is
 * the adapter's own breakpoints; "before" is the same request with the previous
 * placement (newest message, the packer's suggestions, end of history, end of the
 * previous step). A cache model predicts what each request reads: a breakpoint writes
 * its prefix (from 1,024 tokens, Sonnet's minimum), and a request reads the first
 * written prefix found walking back at most 20 blocks from each of its breakpoints
 * (no expiry). Tokens are o200k counts of each block's JSON.
 *
 *   npm run bench -- anthropic-cache      (or node bench/anthropic-cache.bench.js)
 *
 * Writes bench/results/anthropic-cache.md and returns the same markdown.
 */
import { createHash } from 'node:crypto';
import { writeFile } from 'node:fs/promises';
import { pathToFileURL } from 'node:url';
import { createTokenCounter } from '@episodic/core';
import { packContext } from '@episodic/core/packing';
import { createAnthropicAdapter } from '@episodic/providers/anthropic';
import { BENCH_SYSTEM, BENCH_TOOLS } from './agent-prompt.js';
import { percentile } from './metrics.js';
import { generateSession } from './session-generator.js';

const MODEL = { provider: 'anthropic', id: 'claude-sonnet-4-5' };
const SESSIONS = 12;
const TURNS = 10;
const BUDGETS = [200_000, 64_000];
const LOOKBACK = 20;
const MIN_CACHEABLE = 1024;
const counter = createTokenCounter();
/** Block token counts by JSON: consecutive requests repeat almost every block. */
const blockTokens = new Map();
const tokensOfBlock = (json) => {
  let tokens = blockTokens.get(json);
  if (tokens === undefined) {
    tokens = counter.countText(json);
    blockTokens.set(json, tokens);
  }
  return tokens;
};

/** A generated session as Claude produced it: signed thinking, no other provider's data. */
function claudeSession(seed) {
  return generateSession({ seed, turns: TURNS }).map((message, index) => {
    if (message.role !== 'assistant') return message;
    const content = message.content.map((part) =>
      part.type === 'reasoning'
        ? { type: 'reasoning', text: part.text, signature: `sig${index}`, providerData: { provider: 'anthropic', model: MODEL.id } }
        : part,
    );
    return { ...message, content, model: MODEL };
  });
}

/** The blocks of a request in cache order (tools, system, messages), each without `cache_control`, and which carry one. */
function blocksOf(body) {
  const blocks = [];
  const add = (block) => {
    const { cache_control: control, ...rest } = block;
    blocks.push({ json: JSON.stringify(rest), breakpoint: Boolean(control) });
  };
  for (const tool of body.tools ?? []) add(tool);
  for (const block of body.system ?? []) add(block);
  for (const message of body.messages) {
    if (typeof message.content === 'string') add({ type: 'text', text: message.content, role: message.role });
    else for (const block of message.content) add({ ...block, role: message.role });
  }
  return blocks;
}

/** The cache model above: what one request reads, and the prefixes it writes. */
function predictRead(body, written) {
  const blocks = blocksOf(body);
  const hashes = [];
  const tokens = [];
  let hash = '';
  let total = 0;
  for (const block of blocks) {
    hash = createHash('sha256').update(hash).update(block.json).digest('hex');
    total += tokensOfBlock(block.json);
    hashes.push(hash);
    tokens.push(total);
  }
  let read = 0;
  const breakpoints = blocks.flatMap((block, index) => (block.breakpoint ? [index] : []));
  for (const at of breakpoints) {
    for (let index = at; index >= Math.max(0, at - LOOKBACK); index -= 1) {
      if (!written.has(hashes[index])) continue;
      read = Math.max(read, tokens[index]);
      break;
    }
  }
  for (const at of breakpoints) if (tokens[at] >= MIN_CACHEABLE) written.add(hashes[at]);
  return { read, input: total };
}

/** Strips the adapter's breakpoints and places them as the adapter did before. */
function previousPlacement(body, suggested) {
  const copy = structuredClone(body);
  const strip = (block) => delete block.cache_control;
  for (const tool of copy.tools ?? []) strip(tool);
  for (const block of copy.system ?? []) strip(block);
  for (const message of copy.messages) if (Array.isArray(message.content)) message.content.forEach(strip);
  let placed = 0;
  const prefix = copy.system?.at(-1) ?? copy.tools?.at(-1);
  if (prefix) {
    prefix.cache_control = { type: 'ephemeral' };
    placed += 1;
  }
  const messages = copy.messages;
  const newest = messages.length - 1;
  const isQuestion = (message) =>
    message.role === 'user' && (typeof message.content === 'string' || message.content.some((b) => b.type !== 'tool_result'));
  const currentStart = messages.findLastIndex(isQuestion);
  const previousAssistant = messages.findLastIndex((message, index) => message.role === 'assistant' && index < newest);
  const wanted = [...new Set([newest, ...suggested, currentStart - 1, previousAssistant - 1])].filter((i) => i >= 0 && i <= newest);
  const used = new Set();
  for (const target of wanted) {
    if (placed >= 4) break;
    let index = target;
    while (index >= 0 && !used.has(index) && !markLast(messages[index])) index -= 1;
    if (index < 0 || used.has(index)) continue;
    used.add(index);
    placed += 1;
  }
  return copy;
}

function markLast(message) {
  if (!message || typeof message.content === 'string') return false;
  const block = message.content.findLast(
    (candidate) => candidate.type !== 'thinking' && candidate.type !== 'redacted_thinking' && !(candidate.type === 'text' && candidate.text === ''),
  );
  if (!block) return false;
  block.cache_control = { type: 'ephemeral' };
  return true;
}

/** Replays one session at one budget; returns the reuse of every call, before and after. */
function replay(messages, budget) {
  const adapter = createAnthropicAdapter({ model: MODEL.id, apiKey: 'bench-key' });
  const written = { before: new Set(), after: new Set() };
  const calls = [];
  let state;
  for (let end = 1; end < messages.length; end += 1) {
    if (messages[end].role !== 'assistant') continue;
    const visible = messages.slice(0, end);
    const packed = packContext({ messages: visible, budget, retention: 'episode', system: BENCH_SYSTEM, tools: BENCH_TOOLS, state, tokenizer: counter });
    state = packed.state;
    const { cacheBreakpoints } = packed.stats;
    const request = { system: BENCH_SYSTEM, messages: packed.messages, tools: BENCH_TOOLS, cacheBreakpoints };
    const { body } = adapter.prepare(request);
    const suggested = wireSuggestions(request);
    const after = predictRead(body, written.after);
    const before = predictRead(previousPlacement(body, suggested), written.before);
    calls.push({ firstOfEpisode: messages[end - 1].role === 'user', input: after.input, before: before.read, after: after.read });
  }
  return calls;
}

/**
 * The packer's suggested breakpoints as wire indexes, as the converter numbers wire
 * turns: tool results and the user's next words share one user turn.
 */
function wireSuggestions(request) {
  const wireIndexOf = [];
  let wire = -1;
  let role;
  for (const message of request.messages) {
    const turn = message.role === 'tool' ? 'user' : message.role;
    if (turn === 'user' || turn === 'assistant') {
      if (turn === 'assistant' || role !== 'user') wire += 1;
      role = turn;
    }
    wireIndexOf.push(wire);
  }
  return (request.cacheBreakpoints?.messages ?? []).map((index) => wireIndexOf[index] ?? -1);
}

const total = (calls, key) => calls.reduce((sum, call) => sum + call[key], 0);
const share = (calls, key) => total(calls, key) / Math.max(1, total(calls, 'input'));
const median = (values) => percentile([...values].sort((left, right) => left - right), 0.5);
const percent = (value) => `${(value * 100).toFixed(1)}%`;

export default async function run() {
  const rows = [];
  for (const budget of BUDGETS) {
    blockTokens.clear();
    const sessions = Array.from({ length: SESSIONS }, (_, index) => replay(claudeSession(index + 1), budget));
    const firsts = sessions.map((calls) => calls.filter((call) => call.firstOfEpisode && calls.indexOf(call) > 0));
    const all = sessions.flat();
    rows.push({
      budget,
      calls: all.length,
      before: median(sessions.map((calls) => share(calls, 'before'))),
      after: median(sessions.map((calls) => share(calls, 'after'))),
      firstBefore: median(firsts.map((calls) => share(calls, 'before'))),
      firstAfter: median(firsts.map((calls) => share(calls, 'after'))),
      savedTokens: median(sessions.map((calls) => calls.reduce((sum, call) => sum + call.after - call.before, 0))),
    });
  }
  const table = rows
    .map(
      (row) =>
        `| ${row.budget.toLocaleString('en-US')} | ${row.calls} | ${percent(row.before)} | ${percent(row.after)} | ${percent(row.firstBefore)} | ${percent(row.firstAfter)} | ${Math.round(row.savedTokens).toLocaleString('en-US')} |`,
    )
    .join('\n');
  const section = `## Anthropic cache reuse with the 20-block lookback (predicted)

${SESSIONS} generated sessions of ${TURNS} episodes (2 to 12 tool steps each), Claude Sonnet 4.5, packed with retention \`episode\`; reuse = predicted cache-read tokens / input tokens, median over sessions. "First calls" are the first call of each episode after the first. Before: the previous placement (newest message, the packer's suggestions, end of history, end of the previous step). After: lookback-aware planning (the stable prefix always reached).

| budget | calls | reuse before | reuse after | first calls before | first calls after | tokens read more per session (median) |
| ---: | ---: | ---: | ---: | ---: | ---: | ---: |
${table}
`;
  await writeFile(new URL('./results/anthropic-cache.md', import.meta.url), section);
  return section;
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) process.stdout.write(await run());
