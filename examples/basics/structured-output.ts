/**
 * Structured answers: `send(input, { output: schema })` checks the model's final
 * answer against an object schema (zod here; valibot, arktype or any Standard
 * Schema library also work) and returns it typed. A wrong answer is fed back to the
 * model, up to `outputRetries` times.
 *
 * Offline by default; set ANTHROPIC_API_KEY to ask Claude instead.
 */
import { Agent } from '@episodic/core';
import { scriptedModel } from '@episodic/core/testing';
import { createAnthropicAdapter } from '@episodic/providers/anthropic';
import { z } from 'zod';

const Invoice = z.object({
  vendor: z.string(),
  total: z.number().describe('Total in euros, taxes included'),
  due: z.string().describe('Due date, YYYY-MM-DD'),
});

const model = process.env.ANTHROPIC_API_KEY
  ? createAnthropicAdapter({ model: 'claude-sonnet-4-6' })
  : scriptedModel({ steps: [
      { output: { vendor: 'ACME', total: '120.50' } }, // a string total, no due date: fed back
      { output: { vendor: 'ACME', total: 120.5, due: '2026-12-31' } },
    ] });

const session = await new Agent({ model }).session();
const result = await session.send('Extract the invoice: "ACME, 120.50 EUR incl. VAT, due by Dec 31 2026".', {
  output: Invoice,
});
if (result.status === 'finished') {
  const invoice = result.output; // typed: { vendor: string; total: number; due: string }
  console.log(`${invoice.vendor} ${invoice.total.toFixed(2)} due ${invoice.due}, after ${result.steps} model calls`);
}
