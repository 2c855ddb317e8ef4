/**
 * Tools: the model calls them, the loop runs them and feeds the results back until
 * the model answers. A tool's input schema may come from zod, valibot, arktype or
 * any Standard Schema library; `execute` gets the validated, typed input.
 *
 * Offline by default; set ANTHROPIC_API_KEY to ask Claude instead.
 */
import { Agent, toolResultText } from '@episodic/core';
import { scriptedModel } from '@episodic/core/testing';
import { createAnthropicAdapter } from '@episodic/providers/anthropic';
import { defineTool } from '@episodic/tools';
import { toStandardJsonSchema } from '@valibot/to-json-schema';
import * as v from 'valibot';
import { z } from 'zod';

const prices: Record<string, number> = { apple: 0.5, bread: 2.25, coffee: 7 };

const price = defineTool({
  name: 'price',
  description: 'The unit price of an item, in euros.',
  input: z.object({ item: z.string().describe('One of: apple, bread, coffee') }),
  execute: ({ item }) => (item in prices ? String(prices[item]) : `No price for ${item}.`),
});

// valibot converts to JSON Schema through its official converter.
const multiply = defineTool({
  name: 'multiply',
  description: 'Multiplies two numbers.',
  input: toStandardJsonSchema(v.object({ a: v.number(), b: v.number() })),
  execute: ({ a, b }) => String(a * b),
});

const model = process.env.ANTHROPIC_API_KEY
  ? createAnthropicAdapter({ model: 'claude-sonnet-4-6' })
  : scriptedModel({ steps: [
      { toolCalls: [{ name: 'price', args: { item: 'bread' } }] },
      { toolCalls: [{ name: 'multiply', args: { a: 2.25, b: 3 } }] },
      { text: 'Three loaves of bread cost 6.75 euros.' },
    ] });

const session = await new Agent({ model, tools: [price, multiply] }).session();
const result = await session.send('How much do three loaves of bread cost?');
for (const message of session.messages) {
  if (message.role === 'tool') console.log(`${message.toolName} -> ${toolResultText(message)}`);
}
console.log(result.text, `(${result.steps} model calls)`);
