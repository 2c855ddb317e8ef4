/**
 * Approvals on DBOS from the attacker's side, against a real PostgreSQL server: a
 * decision sent before the call exists (through the client, or straight onto the
 * topic the wait used to have) decides nothing; a `null` decision is refused before
 * it is sent; `approve()` is safe to retry. Also the client's own reading side:
 * pending calls per session (no episode number needed), an episode's state and
 * result, and no pg deprecation warning from DBOS's pool.
 */
import { DBOSClient } from '@dbos-inc/dbos-sdk';
import { Agent, DurableApprovalError, InvalidArgumentError, MemorySessionStore, type ModelRequest } from '@episodic/core';
import { createApproximateCounter, scriptedModel } from '@episodic/core/testing';
import { serverPerFile } from '@episodic/postgres/testing';
import pg from 'pg';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { EpisodesClient } from './dbos-client.js';
import { DbosEpisodes } from './dbos-episodes.js';

const server = serverPerFile();
const schema = 'dbos_approvals_sys';
const warnings: string[] = [];
const onWarning = (warning: Error) => warnings.push(warning.message);
let payments = 0;
let proposeAt = 0;
let episodes: DbosEpisodes | undefined;
let client: EpisodesClient | undefined;

beforeAll(async () => {
  const url = await server.url();
  const pool = new pg.Pool({ connectionString: url, max: 1 });
  await pool.query(`DROP SCHEMA IF EXISTS "${schema}" CASCADE`);
  await pool.end();
  process.on('warning', onWarning);
  // The model proposes the payment only once `proposeAt` has passed: a pre-approval comes first.
  const steps = async (request: ModelRequest) => {
    if (request.messages.at(-1)?.role === 'tool') return { text: 'Paid.' };
    while (Date.now() < proposeAt) await new Promise((resolve) => setTimeout(resolve, 20));
    return { text: 'Paying.', toolCalls: [{ id: 'call_1', name: 'pay', args: { amount: 999 } }] };
  };
  const pay = {
    spec: { name: 'pay', description: 'Pays.', inputSchema: { type: 'object' } },
    idempotent: false,
    needsApproval: true,
    execute: async () => ({ content: `payment ${(payments += 1)}` }),
  };
  const store = new MemorySessionStore();
  const agent = new Agent({ model: scriptedModel({ steps }), tools: [pay], store, context: { tokenizer: createApproximateCounter() } });
  episodes = await DbosEpisodes.launch({ agent, databaseUrl: url, schema, leaseMs: 2_000 });
  client = await EpisodesClient.create({ databaseUrl: url, schema });
}, 120_000);

afterAll(async () => {
  process.off('warning', onWarning);
  await client?.close();
  await episodes?.shutdown();
  await server.stop();
});

async function waitUntil(condition: () => Promise<boolean>): Promise<void> {
  for (let tries = 0; tries < 400; tries += 1) {
    if (await condition()) return;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  throw new Error('timed out');
}

it('refuses a decision for a call not proposed yet; one sent around the client decides nothing either', async () => {
  payments = 0;
  proposeAt = Date.now() + 2_000;
  await client!.start({ sessionId: 'early', episode: 0, input: 'Pay 999.' });
  await expect(client!.approve({ sessionId: 'early', episode: 0, callId: 'call_1' }, { decision: 'approved' })).rejects.toMatchObject({
    code: 'approval_not_pending',
  });
  // Straight onto the topic the wait had before it was named with a ticket.
  // (Setting no timeout on its connections: its pool would print the warning the last test looks for.)
  const raw = await DBOSClient.create({
    systemDatabaseUrl: await server.url(),
    systemDatabaseSchemaName: schema,
    systemDatabaseIdleTransactionTimeoutMs: 0,
  });
  await raw.send('early/0', { value: { decision: 'approved' } }, 'approval/early/call_1');
  await raw.destroy();
  await waitUntil(async () => (await client!.pending('early')).length > 0);
  await new Promise((resolve) => setTimeout(resolve, 500));
  expect(payments).toBe(0);
  expect(await client!.pending('early')).toEqual([{ sessionId: 'early', episode: 0, callId: 'call_1', toolName: 'pay', args: { amount: 999 } }]);
  expect(await client!.state('early', 0)).toEqual({ status: 'pending' });
  // No episode number needed once the call waits.
  await client!.approve({ sessionId: 'early', callId: 'call_1' }, { decision: 'rejected', reason: 'not this one' });
  expect(await client!.result('early', 0)).toEqual({ status: 'finished', reason: 'done', text: 'Paid.' });
  expect(payments).toBe(0);
}, 60_000);

it('refuses a null decision before sending it; approve() is safe to retry; another decision is refused', async () => {
  payments = 0;
  proposeAt = 0;
  await client!.start({ sessionId: 'nulls', episode: 0, input: 'Pay 999.' });
  await waitUntil(async () => (await client!.pending('nulls')).length > 0);
  const nothing = client!.approve({ sessionId: 'nulls', episode: 0, callId: 'call_1' }, null as never);
  await expect(nothing).rejects.toBeInstanceOf(InvalidArgumentError);
  expect(await client!.pending('nulls')).toHaveLength(1);
  await client!.approve({ sessionId: 'nulls', episode: 0, callId: 'call_1' }, { decision: 'approved', note: 'ok' });
  await client!.approve({ sessionId: 'nulls', episode: 0, callId: 'call_1' }, { decision: 'approved', note: 'ok' });
  expect(await client!.result('nulls', 0)).toMatchObject({ status: 'finished', text: 'Paid.' });
  expect(await client!.state('nulls', 0)).toMatchObject({ status: 'finished', summary: { text: 'Paid.' } });
  await client!.approve({ sessionId: 'nulls', episode: 0, callId: 'call_1' }, { decision: 'approved', note: 'ok' });
  const other = client!.approve({ sessionId: 'nulls', episode: 0, callId: 'call_1' }, { decision: 'rejected' });
  await expect(other).rejects.toBeInstanceOf(DurableApprovalError);
  await expect(other).rejects.toMatchObject({ code: 'approval_decided_otherwise' });
  expect(payments).toBe(1);
}, 60_000);

it('refuses to start a started episode again with another input (it would be dropped); the same input is a no-op', async () => {
  await client!.start({ sessionId: 'nulls', episode: 0, input: 'Pay 999.' });
  await expect(client!.start({ sessionId: 'nulls', episode: 0, input: 'Pay 5.' })).rejects.toBeInstanceOf(InvalidArgumentError);
}, 30_000);

it('prints no pg deprecation warning about overlapping queries on one client', () => {
  expect(warnings.filter((message) => message.includes('already executing a query'))).toEqual([]);
});
