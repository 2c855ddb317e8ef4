/**
 * Streaming: `session.stream()` yields the episode's events as they happen:
 * reasoning and text deltas, tool calls and their results, usage per model call.
 *
 * Offline by default; set ANTHROPIC_API_KEY to ask Claude instead.
 */
import { Agent, toolResultText } from '@episodic/core';
import { scriptedModel } from '@episodic/core/testing';
import { createAnthropicAdapter } from '@episodic/providers/anthropic';
import { defineTool } from '@episodic/tools';
import { z } from 'zod';

const weather = defineTool({
  name: 'weather',
  description: 'Current weather in a city.',
  input: z.object({ city: z.string() }),
  execute: ({ city }) => `${city}: 14°C, light rain`,
});

const model = process.env.ANTHROPIC_API_KEY
  ? createAnthropicAdapter({ model: 'claude-sonnet-4-6' })
  : scriptedModel({ steps: [
      { reasoning: 'I should check the weather first.', toolCalls: [{ name: 'weather', args: { city: 'Lisbon' } }] },
      { text: 'Yes, take an umbrella: light rain in Lisbon.' },
    ] });

const session = await new Agent({ model, tools: [weather] }).session();
let answer = '';
let thought = '';
for await (const event of session.stream('Do I need an umbrella in Lisbon today?')) {
  switch (event.type) {
    case 'reasoning-delta':
      thought += event.text;
      break;
    case 'tool-call':
      console.log(`calling ${event.call.name}(${JSON.stringify(event.call.args)})`);
      break;
    case 'tool-result':
      console.log(`result: ${toolResultText(event.result)}`);
      break;
    case 'text-delta':
      answer += event.text;
      break;
    case 'step-finish':
      console.log(`model call ${event.step} done: ${event.usage?.inputTokens ?? '?'} tokens in (${event.stopReason})`);
      break;
  }
}
console.log(`reasoning: ${thought.length} characters`);
console.log(`answer: ${answer}`);
