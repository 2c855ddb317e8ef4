/**
 * Already on the AI SDK? Keep your `generateText` tool loop and add Episodic's packing
 * with one middleware: every model call then gets the packed context (episodes split
 * at user messages, past reasoning dropped, the hard budget, long tool results cut and
 * readable through `read_cut_result`). The three lines marked `Episodic` are all it takes.
 *
 * Offline by default (a scripted AI SDK mock model); set ANTHROPIC_API_KEY to ask Claude.
 */
import { anthropic } from '@ai-sdk/anthropic';
import { episodicPacking } from '@episodic/ai-sdk';
import { generateText, jsonSchema, type ModelMessage, stepCountIs, tool, wrapLanguageModel } from 'ai';
import { MockLanguageModelV4 } from 'ai/test';

/** A CI log far longer than the packer lets one tool result take. */
const log = (run: number) => Array.from({ length: 1_500 }, (_, line) => `run ${run} line ${line}: waiting for port 4000`).join('\n');

const tools = {
  read_log: tool({
    description: 'Reads the CI log of a run.',
    inputSchema: jsonSchema<{ run: number }>({ type: 'object', properties: { run: { type: 'integer' } }, required: ['run'] }),
    execute: async ({ run }) => log(run),
  }),
};

/** Offline: reads a log, then answers, for every question. */
function scripted(): MockLanguageModelV4 {
  let calls = 0;
  return new MockLanguageModelV4({
    provider: 'anthropic.messages',
    modelId: 'claude-sonnet-4-6',
    doGenerate: async ({ prompt }) => {
      calls += 1;
      // About what a real API would report: a token per four characters of what it was sent.
      const input = Math.ceil(JSON.stringify(prompt).length / 4);
      const usage = {
        inputTokens: { total: input, noCache: input, cacheRead: 0, cacheWrite: 0 },
        outputTokens: { total: 20, text: 20, reasoning: 0 },
      };
      if (calls % 2 === 1) {
        const call = { type: 'tool-call' as const, toolCallId: `call_${calls}`, toolName: 'read_log', input: JSON.stringify({ run: calls }) };
        return { content: [call], finishReason: { unified: 'tool-calls' as const, raw: 'tool_use' }, usage, warnings: [] };
      }
      const text = { type: 'text' as const, text: 'The fixture server never opened port 4000.' };
      return { content: [text], finishReason: { unified: 'stop' as const, raw: 'end_turn' }, usage, warnings: [] };
    },
  });
}

const base = process.env.ANTHROPIC_API_KEY ? anthropic('claude-sonnet-4-6') : scripted();
const packing = episodicPacking({ budget: 20_000 }); // Episodic: one per conversation
const model = wrapLanguageModel({ model: base, middleware: packing }); // Episodic

const messages: ModelMessage[] = [];
for (const question of ['Why did run 1 fail?', 'And run 3?']) {
  messages.push({ role: 'user', content: question });
  const result = await generateText({
    model,
    system: 'You debug CI failures.',
    messages,
    tools: { ...tools, ...packing.tools }, // Episodic: the reader of cut tool results
    stopWhen: stepCountIs(5),
  });
  messages.push(...result.responseMessages);
  const stats = packing.stats;
  console.log(`${question} ${result.text} (${result.steps.length} steps; last call packed to ${stats?.tokens.total} of ${stats?.budget} tokens)`);
}
