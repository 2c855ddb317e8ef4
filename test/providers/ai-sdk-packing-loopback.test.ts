/**
 * `episodicPacking()` inside the AI SDK's own `streamText` tool loop, on the AI SDK's
 * Anthropic and Google providers against the strict loopback servers: a two-episode
 * tool session, every call packed, is refused nowhere. Anthropic thinking signatures
 * and Gemini thought signatures go back verbatim within the episode (the servers check
 * them), are dropped at the user boundary as the profile's retention says, and
 * Anthropic gets the packer's cache breakpoints.
 */
import { createAnthropic } from '@ai-sdk/anthropic';
import { createGoogleGenerativeAI } from '@ai-sdk/google';
import { episodicPacking } from '@episodic/ai-sdk';
import { jsonSchema, type LanguageModel, type ModelMessage, stepCountIs, streamText, tool, wrapLanguageModel } from 'ai';
import { afterEach, describe, expect, it } from 'vitest';
import { startAnthropicServer } from '../servers/anthropic-server.js';
import { startGeminiServer } from '../servers/gemini-server.js';
import type { ScriptedServer } from '../servers/scripted-server.js';

let server: ScriptedServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

const tools = {
  get_ci_log: tool({
    description: 'Returns the CI log of a run.',
    inputSchema: jsonSchema<{ run: number }>({ type: 'object', properties: { run: { type: 'integer' } }, required: ['run'] }),
    execute: async ({ run }) => `run ${run}: 1 test failed (expected 2, got 3)`,
  }),
};

/** Two episodes of two tool steps and an answer each, scripted on the server. */
function scriptTwoEpisodes(local: ScriptedServer): void {
  for (const episode of [1, 2]) {
    local.enqueue(
      { type: 'reply', reasoning: [`e${episode} s1: read run 1`], toolCalls: [{ name: 'get_ci_log', args: { run: 1 } }] },
      { type: 'reply', reasoning: [`e${episode} s2: read run 2`], toolCalls: [{ name: 'get_ci_log', args: { run: 2 } }] },
      { type: 'reply', reasoning: [`e${episode} s3: answer`], text: `Episode ${episode}: the test expects 2.` },
    );
  }
}

/** Runs the two episodes through `streamText` (the loopback servers stream) on the packed model; returns the middleware. */
async function runTwoEpisodes(
  model: LanguageModel,
  providerOptions: Record<string, Record<string, unknown>>,
  toolSet: typeof tools = tools,
) {
  const packing = episodicPacking();
  const packed = wrapLanguageModel({ model: model as Parameters<typeof wrapLanguageModel>[0]['model'], middleware: packing });
  const messages: ModelMessage[] = [];
  for (const question of ['Why is CI red?', 'And on the release branch?']) {
    messages.push({ role: 'user', content: question });
    const result = streamText({
      model: packed,
      system: 'You debug CI failures.',
      messages,
      tools: toolSet,
      stopWhen: stepCountIs(5),
      maxRetries: 0,
      providerOptions: providerOptions as never,
      onError: ({ error }) => {
        throw error;
      },
    });
    await result.consumeStream();
    expect(await result.steps).toHaveLength(3);
    messages.push(...(await result.responseMessages));
  }
  return packing;
}

/** Which scripted reasoning each of the six calls must carry back under `episode` retention. */
const echoed = [[], ['e1 s1: read run 1'], ['e1 s1: read run 1', 'e1 s2: read run 2'], [], ['e2 s1: read run 1'], ['e2 s1: read run 1', 'e2 s2: read run 2']];

describe('episodicPacking in a streamText tool loop against the loopback servers', () => {
  it('@ai-sdk/anthropic: signatures round-trip within the episode, dropped at the boundary, breakpoints placed', async () => {
    const local = await startAnthropicServer();
    server = local;
    scriptTwoEpisodes(local);
    const model = createAnthropic({ baseURL: `${local.url}/v1`, apiKey: 'test-key' })('claude-opus-4-5');
    const packing = await runTwoEpisodes(model, { anthropic: { thinking: { type: 'enabled', budgetTokens: 2048 } } });
    const calls = local.modelCalls();
    expect(calls.map((call) => call.status)).toEqual([200, 200, 200, 200, 200, 200]);
    expect(calls.map((call) => call.view?.echoedReasoning)).toEqual(echoed);
    for (const call of calls) {
      expect(call.view?.cacheBreakpoints).toBeGreaterThanOrEqual(2);
      expect(call.view?.cacheBreakpoints).toBeLessThanOrEqual(4);
    }
    expect(packing.stats?.reasoning.droppedParts).toBeGreaterThan(0);
  });

  it("@ai-sdk/anthropic: the caller's own breakpoints (automatic caching, a cached tool) count against the four", async () => {
    const local = await startAnthropicServer();
    server = local;
    scriptTwoEpisodes(local);
    const model = createAnthropic({ baseURL: `${local.url}/v1`, apiKey: 'test-key' })('claude-opus-4-5');
    const cached = { get_ci_log: { ...tools.get_ci_log, providerOptions: { anthropic: { cacheControl: { type: 'ephemeral' } } } } };
    await runTwoEpisodes(model, { anthropic: { thinking: { type: 'enabled', budgetTokens: 2048 }, cacheControl: { type: 'ephemeral' } } }, cached);
    const calls = local.modelCalls();
    expect(calls.map((call) => call.status)).toEqual([200, 200, 200, 200, 200, 200]);
    for (const call of calls) {
      const body = call.body as { cache_control?: unknown; tools: { cache_control?: unknown }[] };
      // Both of the caller's breakpoints reach the wire, and the packer's fill what is left.
      expect(body.cache_control).toBeDefined();
      expect(body.tools.at(-1)?.cache_control).toBeDefined();
      expect(call.view?.cacheBreakpoints).toBe(4);
    }
  });

  it('@ai-sdk/google: thought signatures round-trip within the episode and the session is never refused', async () => {
    const local = await startGeminiServer();
    server = local;
    scriptTwoEpisodes(local);
    const model = createGoogleGenerativeAI({ baseURL: `${local.url}/v1beta`, apiKey: 'test-key' })('gemini-3-pro-preview');
    await runTwoEpisodes(model, { google: { thinkingConfig: { includeThoughts: true } } });
    const calls = local.modelCalls();
    expect(calls.map((call) => call.status)).toEqual([200, 200, 200, 200, 200, 200]);
    expect(calls.map((call) => call.view?.echoedReasoning)).toEqual(echoed);
  });
});
