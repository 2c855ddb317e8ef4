/**
 * The Responses adapter reading `input_transformations` (reasoning the API withheld from the
 * model) on the strict loopback server, through whichever `openai` major the calling test
 * file resolves: openai 6 (the field untyped) or openai 7 (typed). See docs/providers.md,
 * "Reasoning withheld by the API".
 */
import { generate, type Message, type ModelStreamEvent } from '@episodic/core';
import { afterEach, describe, expect, it } from 'vitest';
import { createOpenAIResponsesAdapter } from '../../packages/providers/src/openai-responses/openai-responses-adapter.js';
import { type OpenAIScript, type OpenAIScriptedServer, startOpenAIResponsesServer } from '../servers/openai-responses-server.js';
import { type CapturedBody, capturedRequests, sdkParamErrors } from '../support/sdk-param-check.js';

const user = (content: string): Message => ({ role: 'user', content });
const removed = (id: string, reason: string) => ({ id, action: 'removed', reason, type: 'reasoning' });

/** Runs the cases; `sdk` names the client major in the titles. */
export function describeWithheldReasoning(sdk: string): void {
  describe(`openai responses input_transformations (${sdk})`, () => {
    let server: OpenAIScriptedServer | undefined;
    /** Every body the client sent, type-checked at the end. */
    const captured: CapturedBody[] = [];
    afterEach(async () => {
      captured.push(...capturedRequests(server?.requests ?? [], sdk));
      await server?.close();
      server = undefined;
    });

    /**
     * A first turn (reasoning and an answer), then a second user message with that turn sent
     * back whole; `second` scripts the second answer from the first turn's reasoning item id.
     */
    async function secondTurn(model: string, second: (reasoningId: string) => OpenAIScript) {
      server = await startOpenAIResponsesServer();
      server.enqueue({ type: 'reply', reasoning: ['Read the log first.'], text: 'CI is red on main.' });
      const adapter = createOpenAIResponsesAdapter({ model, baseURL: server.url, apiKey: 'test-key', maxRetries: 0 });
      const first = await generate(adapter, { messages: [user('Why is CI red?')] });
      const reasoningId = String(first.message.content.find((part) => part.type === 'reasoning')?.providerData?.id);
      server.enqueue(second(reasoningId));
      const events: ModelStreamEvent[] = [];
      for await (const event of adapter.stream({ messages: [user('Why is CI red?'), first.message, user('How do I fix it?')] }))
        events.push(event);
      const finish = events.find((event) => event.type === 'finish');
      if (finish?.type !== 'finish') throw new Error('no finish event');
      const warnings = events.flatMap((event) => (event.type === 'warning' ? [event] : []));
      const input = (server.requests[1]?.body as { input: { id?: string }[] }).input;
      return { reasoningId, finish, warnings, input };
    }

    it('records on the step the reasoning gpt-5 withheld at the turn boundary (its documented default), without a warning', async () => {
      const { reasoningId, finish, warnings, input } = await secondTurn('gpt-5', () => ({ type: 'reply', text: 'Pin the test.' }));
      expect(input[1]?.id).toBe(reasoningId);
      expect(finish.message.usage?.inputTransformations).toEqual([{ ...removed(reasoningId, 'turn_boundary'), path: 'input.1' }]);
      expect(finish.usage.inputTransformations).toEqual(finish.message.usage?.inputTransformations);
      expect(warnings.filter((warning) => warning.code === 'thinking-dropped')).toEqual([]);
    });

    it('reads them from response.incomplete too', async () => {
      const { reasoningId, finish } = await secondTurn('gpt-5', () => ({ type: 'incomplete', reason: 'max_output_tokens', text: 'Pin' }));
      expect(finish.stopReason).toBe('max-tokens');
      expect(finish.message.usage?.inputTransformations).toEqual([{ ...removed(reasoningId, 'turn_boundary'), path: 'input.1' }]);
    });

    it('adds nothing when the API withheld nothing (gpt-5.6 reads earlier turns)', async () => {
      const { finish, warnings } = await secondTurn('gpt-5.6', () => ({ type: 'reply', text: 'Pin the test.' }));
      expect(finish.message.usage).not.toHaveProperty('inputTransformations');
      expect(warnings).toEqual([]);
    });

    it('warns of each entry the request did not expect, naming the item and where it was', async () => {
      const { reasoningId, finish, warnings } = await secondTurn('gpt-5.6', (id) => ({
        type: 'reply',
        text: 'Pin the test.',
        withheld: [removed(id, 'prefix_mismatch'), removed('rs_elsewhere', 'organization_mismatch')],
      }));
      expect(finish.message.usage?.inputTransformations).toEqual([
        { ...removed(reasoningId, 'prefix_mismatch'), path: 'input.1' },
        { ...removed('rs_elsewhere', 'organization_mismatch'), path: '' },
      ]);
      expect(warnings.map((warning) => warning.code)).toEqual(['thinking-dropped', 'thinking-dropped']);
      expect(warnings[0]?.message).toBe(
        `openai: the API withheld the reasoning item ${reasoningId} at input.1 from the model (prefix_mismatch: the input before it is not the one it was made after); the model did not see that reasoning.`,
      );
      expect(warnings[1]?.message).toContain('rs_elsewhere from the model (organization_mismatch');
    });

    it('keeps a reason, an action and fields it does not know verbatim, and warns of a turn_boundary a model that reads earlier turns did not expect', async () => {
      const { finish, warnings } = await secondTurn('gpt-5.6', () => ({
        type: 'reply',
        text: 'Pin the test.',
        withheld: [
          { ...removed('rs_a', 'policy_mismatch'), detail: { since: 3 } },
          removed('rs_b', 'turn_boundary'),
          { ...removed('rs_c', 'prefix_mismatch'), action: 'summarized' },
        ],
      }));
      expect(finish.message.usage?.inputTransformations).toEqual([
        { ...removed('rs_a', 'policy_mismatch'), detail: { since: 3 }, path: '' },
        { ...removed('rs_b', 'turn_boundary'), path: '' },
        { ...removed('rs_c', 'prefix_mismatch'), action: 'summarized', path: '' },
      ]);
      expect(warnings.map((warning) => warning.message)).toEqual([
        expect.stringContaining('rs_a from the model (policy_mismatch)'),
        expect.stringContaining('rs_b from the model (turn_boundary'),
        expect.stringContaining('rs_c as "summarized" (prefix_mismatch'),
      ]);
    });

    it('sent bodies that type-check against the official SDK param types', () => {
      expect(captured.length).toBeGreaterThan(4);
      expect(sdkParamErrors(captured)).toEqual([]);
    }, 120_000);
  });
}
