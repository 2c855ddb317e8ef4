/**
 * Gemini thinking levels on the strict loopback server, through whichever `@google/genai`
 * major the calling test file resolves (2, or 3 whose `ThinkingLevel` names `XHIGH`):
 * `xhigh` goes out where the model takes it (Gemini 4 Hydrogen) and is refused, typed, when
 * the adapter is made where it does not. See docs/providers.md, "Thinking levels".
 */
import { generate, InvalidArgumentError } from '@episodic/core';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createGoogleAdapter, type GoogleAdapterOptions } from '../../packages/providers/src/google/google-adapter.js';
import { googleSdk } from '../../packages/providers/src/google/google-sdk.js';
import { startGeminiServer } from '../servers/gemini-server.js';
import type { ScriptedServer } from '../servers/scripted-server.js';
import { type CapturedBody, sdkParamErrors } from '../support/sdk-param-check.js';

/** Runs the cases; `sdk` names the client major in the titles. */
export function describeThinkingLevels(sdk: string): void {
  describe(`google thinking levels (${sdk})`, () => {
    let server: ScriptedServer;
    beforeEach(async () => {
      server = await startGeminiServer();
    });
    /** The bodies the adapter built in these cases, checked against the SDK's types in the last case. */
    const built: { contents: unknown; generationConfig: { thinkingConfig?: { thinkingLevel?: string } } }[] = [];
    afterEach(async () => {
      for (const call of server.modelCalls()) built.push(call.body as (typeof built)[number]);
      await server.close();
    });
    const adapterFor = (model: string, options: Partial<GoogleAdapterOptions> = {}) =>
      createGoogleAdapter({ model, baseURL: server.url, apiKey: 'test-key', ...options });
    const sentConfig = (index: number) =>
      (server.modelCalls()[index]?.body as { generationConfig: { thinkingConfig?: unknown } }).generationConfig.thinkingConfig;

    it('sends xhigh to Gemini 4 Hydrogen as XHIGH, which the server takes', async () => {
      server.enqueue({ type: 'reply', reasoning: ['think hard'], text: 'Done.' });
      const answer = await generate(adapterFor('gemini-4-hydrogen', { thinking: { level: 'xhigh' } }), {
        messages: [{ role: 'user', content: 'Why is CI red?' }],
      });
      expect(sentConfig(0)).toEqual({ includeThoughts: true, thinkingLevel: 'XHIGH' });
      expect(server.modelCalls()[0]?.status).toBe(200);
      expect(answer.message.content[0]).toMatchObject({ type: 'reasoning', text: 'think hard' });
      expect(answer.message.content).toContainEqual(expect.objectContaining({ type: 'text', text: 'Done.' }));
    });

    it.each(['gemini-4-argon', 'gemini-4-carbon', 'gemini-3-pro-preview', 'gemini-3-flash-preview'])(
      'refuses xhigh on %s when the adapter is made, with a typed error naming the levels it takes',
      (model) => {
        const made = () => adapterFor(model, { thinking: { level: 'xhigh' } });
        expect(made).toThrow(InvalidArgumentError);
        expect(made).toThrow(expect.objectContaining({ code: 'invalid_argument' }));
        expect(made).toThrow(new RegExp(`thinking level "xhigh" is not taken by ${model}; ${model} takes `));
      },
    );

    it('refuses a level that is none, instead of sending HIGH', () => {
      expect(() => adapterFor('gemini-3-pro-preview', { thinking: { level: 'ultra' as never } })).toThrow(
        /thinking level "ultra" is not a thinking level/,
      );
    });

    it('refuses minimal on Gemini 4, which documents low to high', () => {
      expect(() => adapterFor('gemini-4-hydrogen', { thinking: { level: 'minimal' } })).toThrow(
        'google: thinking level "minimal" is not taken by gemini-4-hydrogen; gemini-4-hydrogen takes low, medium, high, xhigh.',
      );
    });

    it('sends each Gemini 4 model its documented default level', async () => {
      server.enqueue({ type: 'reply', text: 'a' }, { type: 'reply', text: 'b' }, { type: 'reply', text: 'c' });
      for (const model of ['gemini-4-hydrogen', 'gemini-4-argon', 'gemini-4-carbon'])
        await generate(adapterFor(model), { messages: [{ role: 'user', content: 'x' }] });
      expect([0, 1, 2].map(sentConfig)).toEqual([
        { includeThoughts: true, thinkingLevel: 'HIGH' },
        { includeThoughts: true, thinkingLevel: 'MEDIUM' },
        { includeThoughts: true, thinkingLevel: 'MEDIUM' },
      ]);
    });

    // Google's lists and defaults for Gemini 3.x, read 2026-12-05 (docs/providers.md, "Thinking levels").
    const gemini3Defaults = [
      ['gemini-3.8-flash', 'MEDIUM'],
      ['gemini-3.7-flash', 'MEDIUM'],
      ['gemini-3.6-flash', 'MEDIUM'],
      ['gemini-3.5-flash', 'MEDIUM'],
      ['gemini-3.5-flash-lite', 'MINIMAL'],
      ['gemini-3.1-flash-lite', 'MINIMAL'],
      ['gemini-3.1-pro-preview', 'HIGH'],
      ['gemini-3.1-pro-preview-customtools', 'HIGH'],
      ['gemini-3-flash-preview', 'HIGH'],
      ['gemini-3-pro-preview', 'HIGH'],
    ] as const;

    it.each(gemini3Defaults)('sends %s its documented default level, %s, which the server takes', async (model, level) => {
      server.enqueue({ type: 'reply', text: 'ok' });
      await generate(adapterFor(model), { messages: [{ role: 'user', content: 'x' }] });
      expect(sentConfig(0)).toEqual({ includeThoughts: true, thinkingLevel: level });
      expect(server.modelCalls()[0]?.status).toBe(200);
    });

    it.each([
      ['gemini-3.8-flash', 'minimal', 'low, medium, high'],
      ['gemini-3.7-flash', 'minimal', 'low, medium, high'],
      ['gemini-3.1-pro-preview', 'minimal', 'low, medium, high'],
      ['gemini-3.6-flash', 'xhigh', 'minimal, low, medium, high'],
      ['gemini-3.5-flash', 'xhigh', 'minimal, low, medium, high'],
      ['gemini-3.5-flash-lite', 'xhigh', 'minimal, low, medium, high'],
      ['gemini-3.1-flash-lite', 'xhigh', 'minimal, low, medium, high'],
      ['gemini-3-flash-preview', 'xhigh', 'minimal, low, medium, high'],
    ] as const)('refuses %s with %s when the adapter is made, naming the levels Google lists for it', (model, level, takes) => {
      const made = () => adapterFor(model, { thinking: { level } });
      expect(made).toThrow(InvalidArgumentError);
      expect(made).toThrow(`google: thinking level "${level}" is not taken by ${model}; ${model} takes ${takes}.`);
    });

    it('sends minimal to the Gemini 3.x Flash models that list it', async () => {
      server.enqueue({ type: 'reply', text: 'a' }, { type: 'reply', text: 'b' });
      for (const model of ['gemini-3.6-flash', 'gemini-3-flash-preview'])
        await generate(adapterFor(model, { thinking: { level: 'minimal' } }), { messages: [{ role: 'user', content: 'x' }] });
      expect([0, 1].map(sentConfig)).toEqual([
        { includeThoughts: true, thinkingLevel: 'MINIMAL' },
        { includeThoughts: true, thinkingLevel: 'MINIMAL' },
      ]);
      expect(server.modelCalls().map((call) => call.status)).toEqual([200, 200]);
    });

    it('a profile override that lists minimal for Gemini 3.8 Flash gets the API\'s refusal', async () => {
      const adapter = adapterFor('gemini-3.8-flash', { thinking: { level: 'minimal' }, profile: { thinkingLevels: ['minimal', 'low'] } });
      const failed = await generate(adapter, { messages: [{ role: 'user', content: 'x' }] }).catch((error: unknown) => error);
      expect(sentConfig(0)).toEqual({ includeThoughts: true, thinkingLevel: 'MINIMAL' });
      expect(failed).toMatchObject({ kind: 'invalid-request', status: 400 });
      expect(String((failed as Error).message)).toContain('Thinking level MINIMAL is not supported for this model.');
    });

    it('lets a profile override name xhigh for a model the table does not list, and the API then decides', async () => {
      server.enqueue({ type: 'reply', text: 'a' });
      const adapter = adapterFor('gemini-4-argon', { thinking: { level: 'xhigh' }, profile: { thinkingLevels: ['high', 'xhigh'] } });
      const failed = await generate(adapter, { messages: [{ role: 'user', content: 'x' }] }).catch((error: unknown) => error);
      expect(sentConfig(0)).toEqual({ includeThoughts: true, thinkingLevel: 'XHIGH' });
      expect(failed).toMatchObject({ kind: 'invalid-request', status: 400 });
      expect(String((failed as Error).message)).toContain('Thinking level XHIGH is not supported for this model.');
    });

    it('the server refuses XHIGH where the model does not take it, through the bare SDK', async () => {
      const { GoogleGenAI } = await googleSdk.load();
      const client = new GoogleGenAI({ apiKey: 'k', httpOptions: { baseUrl: server.url } });
      const contents = [{ role: 'user', parts: [{ text: 'x' }] }];
      const outcome = async (model: string) => {
        try {
          const stream = await client.models.generateContentStream({ model, contents, config: { thinkingConfig: { thinkingLevel: 'XHIGH' as never } } });
          for await (const _chunk of stream);
          return 'accepted';
        } catch (error) {
          return String((error as Error).message);
        }
      };
      expect(await outcome('gemini-4-argon')).toContain('Thinking level XHIGH is not supported for this model. Please retry with other thinking level.');
      expect(await outcome('gemini-3-pro-preview')).toContain('Thinking level XHIGH is not supported for this model.');
      server.enqueue({ type: 'reply', text: 'ok' });
      expect(await outcome('gemini-4-hydrogen')).toBe('accepted');
    });

    it('built bodies the official SDK types take: contents as `Content`, each level one of `ThinkingLevel`', async () => {
      // The newest major's enum (genai 3 names XHIGH, which genai 2's types predate; its client sends it as given).
      const levels: string[] = Object.values((await import('genai3')).ThinkingLevel);
      expect(built.length).toBeGreaterThan(20);
      const sent = built.map((body) => body.generationConfig.thinkingConfig?.thinkingLevel);
      expect(sent.filter((level) => level !== undefined && !levels.includes(level))).toEqual([]);
      const contents: CapturedBody[] = built.map((body, index) => ({ kind: 'google-contents', body: body.contents, label: `thinking levels ${index}` }));
      expect(sdkParamErrors(contents)).toEqual([]);
    }, 120_000);
  });
}
