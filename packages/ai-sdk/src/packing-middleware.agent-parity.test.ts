/**
 * The same session packed two ways gives the same packed context: an Episodic `Agent`
 * on `fromAISDK(mock)` and the AI SDK's `generateText` tool loop on the mock wrapped
 * in `episodicPacking()`. Both mocks record the prompt of every call; the two lists
 * must be equal call by call, with the budget small enough that episodes are evicted,
 * results cut and reasoning dropped at user boundaries.
 */
import { Agent, type AgentTool, maxSteps, MemorySessionStore } from '@episodic/core';
import { generateText, jsonSchema, type ModelMessage, stepCountIs, tool, wrapLanguageModel } from 'ai';
import * as ai6 from 'ai6';
import { describe, expect, it } from 'vitest';
import { episodicPacking, fromAISDK } from './index.js';
import { scriptedAISDKModel, type ScriptedStep } from './scripted-ai-sdk-model.fixture.js';

const EPISODES = 14;
const STEPS = 3;
const SYSTEM = 'You debug CI failures.';
const BUDGET = 2000;
/** Large enough for a read worth the reader (core's MIN_READ_TOKENS at the cap). */
const READER_BUDGET = 16000;
const schema = { type: 'object' as const, properties: { run: { type: 'number' as const } }, required: ['run'] };

/** About 3,000 characters of log, different for every call. */
function logText(seed: number): string {
  const lines: string[] = [];
  for (let line = 0; lines.join('\n').length < 3000; line += 1) lines.push(`${seed}.${line} step failed: fixture server on port ${4000 + line} timed out`);
  return lines.join('\n');
}

/** Episode `e`'s step `s`: reasoning, then a tool call, or the final text on the last step. */
function script(call: number): ScriptedStep {
  const episode = Math.floor(call / STEPS);
  const step = call % STEPS;
  const reasoning = [{ text: `Thinking about episode ${episode} step ${step}: the log says more.` }];
  if (step < STEPS - 1) return { reasoning, toolCalls: [{ id: `call_${episode}_${step}`, name: 'read_log', input: { run: step } }] };
  return { reasoning, text: `Episode ${episode}: ${'the fixture server timed out while the job waited for its port. '.repeat(12)}` };
}

const question = (episode: number) => `Why did build ${episode} fail?`;

/** JSON as sent: fields set to undefined are not sent. */
const sent = (prompts: unknown[][]) => JSON.parse(JSON.stringify(prompts)) as unknown[][];

async function throughAgent(cutResults: 'cut' | 'readable', budget: number) {
  const { model, prompts, tools } = scriptedAISDKModel(script);
  let calls = 0;
  const readLog: AgentTool = {
    spec: { name: 'read_log', description: 'Reads a CI log', inputSchema: schema },
    execute: async () => ({ content: logText((calls += 1)) }),
  };
  const agent = new Agent({
    model: fromAISDK(model),
    system: SYSTEM,
    tools: [readLog],
    stopWhen: maxSteps(STEPS + 1),
    store: new MemorySessionStore(),
    context: { budget, cutResults },
  });
  const session = await agent.session();
  for (let episode = 0; episode < EPISODES; episode += 1) await session.send(question(episode));
  return { prompts: sent(prompts), tools };
}

async function throughAISDK(withReader: boolean, budget: number) {
  const { model, prompts, tools: offered } = scriptedAISDKModel(script);
  let calls = 0;
  const packing = episodicPacking({ budget });
  const tools = {
    read_log: tool({ description: 'Reads a CI log', inputSchema: jsonSchema(schema), execute: async () => logText((calls += 1)) }),
    ...(withReader ? packing.tools : {}),
  };
  const packed = wrapLanguageModel({ model, middleware: packing });
  const messages: ModelMessage[] = [];
  for (let episode = 0; episode < EPISODES; episode += 1) {
    messages.push({ role: 'user', content: question(episode) });
    const result = await generateText({ model: packed, system: SYSTEM, messages, tools, stopWhen: stepCountIs(STEPS + 1) });
    messages.push(...result.responseMessages);
  }
  return { prompts: sent(prompts), tools: offered, packing };
}

/** The same loop on ai@6 (`LanguageModelV3`, `result.response.messages` holding every step's messages). */
async function throughAISDK6(budget: number) {
  const { model, prompts, tools: offered } = scriptedAISDKModel(script, { version: 'v3' });
  let calls = 0;
  const tools = {
    read_log: ai6.tool({ description: 'Reads a CI log', inputSchema: ai6.jsonSchema(schema), execute: async () => logText((calls += 1)) }),
  };
  const packed = ai6.wrapLanguageModel({ model: model as never, middleware: episodicPacking({ budget }) });
  const messages: ai6.ModelMessage[] = [];
  for (let episode = 0; episode < EPISODES; episode += 1) {
    messages.push({ role: 'user', content: question(episode) });
    const result = await ai6.generateText({ model: packed, system: SYSTEM, messages, tools, stopWhen: ai6.stepCountIs(STEPS + 1) });
    messages.push(...result.response.messages);
  }
  return { prompts: sent(prompts), tools: offered };
}

describe('episodicPacking packs an AI SDK loop as an Agent packs its session', () => {
  it('gives the same packed context on ai@6 (LanguageModelV3 middleware)', async () => {
    const agent = await throughAgent('cut', BUDGET);
    const { prompts, tools } = await throughAISDK6(BUDGET);
    expect(prompts).toHaveLength(EPISODES * STEPS);
    expect(prompts).toEqual(agent.prompts);
    expect(tools).toEqual(agent.tools);
  });

  it('gives the same packed context call by call (results cut, no reader)', async () => {
    const agent = await throughAgent('cut', BUDGET);
    const { prompts, tools, packing } = await throughAISDK(false, BUDGET);
    expect(prompts).toHaveLength(EPISODES * STEPS);
    // The pack did real work: episodes evicted, results shortened, reasoning of past episodes dropped.
    expect(packing.stats?.evictedEpisodes).toBeGreaterThan(0);
    expect(JSON.stringify(prompts.at(-1))).toContain('characters cut');
    expect(JSON.stringify(prompts.at(-1))).not.toContain('Thinking about episode 0');
    expect(prompts).toEqual(agent.prompts);
    expect(tools).toEqual(agent.tools);
  });

  it('gives the same packed context with the reader of cut results offered', async () => {
    const agent = await throughAgent('readable', READER_BUDGET);
    const { prompts, tools, packing } = await throughAISDK(true, READER_BUDGET);
    expect(packing.stats?.evictedEpisodes).toBeGreaterThan(0);
    expect(JSON.stringify(prompts.at(-1))).toContain('call read_cut_result');
    expect(prompts).toEqual(agent.prompts);
    // The reader is in the tools from the first call on, in both loops.
    expect(tools[0]).toEqual(['read_log', 'read_cut_result']);
    expect(tools.at(-1)).toEqual(['read_log', 'read_cut_result']);
    expect(tools).toEqual(agent.tools);
  });
});
