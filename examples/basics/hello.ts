/**
 * Hello, agent: one model, one question, one answer.
 *
 * Offline by default (a scripted model plays the answer); set ANTHROPIC_API_KEY to
 * ask Claude instead. Run: `npx tsx examples/basics/hello.ts`.
 */
import { Agent } from '@episodic/core';
import { scriptedModel } from '@episodic/core/testing';
import { createAnthropicAdapter } from '@episodic/providers/anthropic';

const model = process.env.ANTHROPIC_API_KEY
  ? createAnthropicAdapter({ model: 'claude-sonnet-4-6' })
  : scriptedModel({ steps: [{ text: 'Hello! How can I help?' }] });

const agent = new Agent({ model, system: 'You are a friendly assistant. Answer in one sentence.' });
const session = await agent.session();
const result = await session.send('Say hello.');
console.log(result.text);
console.log(`tokens in: ${session.totals.inputTokens}, out: ${session.totals.outputTokens}`);
