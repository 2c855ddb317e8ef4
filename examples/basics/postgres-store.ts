/**
 * A PostgreSQL session store: sessions survive restarts and any number of worker
 * processes share them (one writer per session at a time, by lease). Tables are
 * created on first use.
 *
 * Needs DATABASE_URL (e.g. postgres://user:pass@localhost:5432/app). Offline model
 * by default; set ANTHROPIC_API_KEY to ask Claude instead.
 */
import { Agent } from '@episodic/core';
import { scriptedModel } from '@episodic/core/testing';
import { PostgresSessionStore } from '@episodic/postgres';
import { createAnthropicAdapter } from '@episodic/providers/anthropic';

const connectionString = process.env.DATABASE_URL;
if (!connectionString) throw new Error('Set DATABASE_URL to a PostgreSQL database, e.g. postgres://localhost/app');

const model = process.env.ANTHROPIC_API_KEY
  ? createAnthropicAdapter({ model: 'claude-sonnet-4-6' })
  : scriptedModel({ steps: [{ text: 'Noted: your favourite colour is teal.' }, { text: 'Teal.' }] });

const store = new PostgresSessionStore({ connectionString });
try {
  const agent = new Agent({ model, store });
  const session = await agent.session();
  await session.send('My favourite colour is teal.');

  // Another worker (or this one after a restart) opens the same session by id.
  const reopened = await agent.session({ id: session.id });
  const result = await reopened.send('What is my favourite colour?');
  console.log(`${session.id}: ${reopened.messages.length} messages; answer: ${result.text}`);
} finally {
  await store.close();
}
