/**
 * Cold packing (issue 17, item 1): one `packContext` over the whole bench session
 * with a new counter and no state, as when a stored session is opened in a new
 * process, against tokenizing every text of the session once with the same tiktoken
 * encoder (the floor a counter can reach by tokenizing). Both are timed in turns, each
 * on a fresh deep copy, and the medians are compared in the same run.
 */
import { get_encoding } from 'tiktoken';
import { createTokenCounter } from '@episodic/core';
import { packContext } from '@episodic/core/packing';
import { BENCH_SYSTEM, BENCH_TOOLS } from './agent-prompt.js';
import { percentile } from './metrics.js';

/** Every text of a transcript that a counter has to see, as tiktoken sees it. */
export function sessionTexts(messages) {
  const texts = [];
  for (const message of messages) {
    if (message.role === 'tool') texts.push(message.toolName, message.content);
    else if (typeof message.content === 'string') texts.push(message.content);
    else {
      for (const part of message.content) {
        if (part.type === 'tool-call') texts.push(part.name, JSON.stringify(part.args ?? {}));
        else if (typeof part.text === 'string') texts.push(part.text);
      }
    }
  }
  return texts;
}

function milliseconds(run) {
  const start = process.hrtime.bigint();
  run();
  return Number(process.hrtime.bigint() - start) / 1e6;
}

/**
 * @param {{ messages: import('@episodic/core').Message[], budgets: number[], repeats: number }} options
 * @returns {{ tokenizeMs: number, tokens: number, rows: Array<{ budget: number, medianMs: number, ratio: number, sent: number }> }}
 */
export function measureColdPacks({ messages, budgets, repeats }) {
  const encoder = get_encoding('o200k_base');
  const texts = sessionTexts(messages);
  let tokens = 0;
  const tokenize = [];
  const packs = new Map(budgets.map((budget) => [budget, []]));
  const sent = new Map();
  for (let repeat = 0; repeat < repeats; repeat += 1) {
    const copy = structuredClone(texts);
    globalThis.gc?.();
    tokenize.push(milliseconds(() => {
      tokens = 0;
      for (const text of copy) tokens += encoder.encode_ordinary(text).length;
    }));
    for (const budget of budgets) {
      const session = structuredClone(messages);
      globalThis.gc?.();
      packs.get(budget).push(milliseconds(() => {
        const packed = packContext({
          messages: session,
          system: BENCH_SYSTEM,
          tools: BENCH_TOOLS,
          budget,
          tokenizer: createTokenCounter(),
        });
        sent.set(budget, packed.stats.tokens.total);
      }));
    }
  }
  encoder.free();
  const median = (values) => percentile([...values].sort((a, b) => a - b), 0.5);
  const tokenizeMs = median(tokenize);
  return {
    tokenizeMs,
    tokens,
    rows: budgets.map((budget) => {
      const medianMs = median(packs.get(budget));
      return { budget, medianMs, ratio: medianMs / tokenizeMs, sent: sent.get(budget) };
    }),
  };
}

/** Markdown for {@link measureColdPacks}. */
export function formatColdPacks({ tokenizeMs, tokens, rows }, repeats) {
  const lines = [
    '### Cold packing',
    '',
    'One `packContext` over the whole session (all 1,045 messages) with a new counter and no state, as when a stored',
    'session is opened in a new process, against tokenizing every text of the session once with the same tiktoken',
    `encoder (\`encode_ordinary\`, ${tokens.toLocaleString('en-US')} tokens). Medians of ${repeats} runs taken in turns,`,
    'each on a fresh deep copy.',
    '',
    '| Budget | Cold pack median (ms) | Tokenize once median (ms) | Ratio | Tokens sent |',
    '| ---: | ---: | ---: | ---: | ---: |',
  ];
  for (const row of rows) {
    lines.push(
      `| ${row.budget.toLocaleString('en-US')} | ${row.medianMs.toFixed(0)} | ${tokenizeMs.toFixed(0)} | ` +
        `${row.ratio.toFixed(2)}x | ${row.sent.toLocaleString('en-US')} |`,
    );
  }
  return lines.join('\n');
}
