/**
 * `observe.event` of @episodic/dbos against a real PostgreSQL server: the events of an
 * episode's run reach the caller's observer (a model adapter's warning, the deltas, the
 * tool call and result, the step and episode ends), tagged with the episode's request; a
 * replay of the workflow reports the replayed steps' events again from their records (at
 * least once), but not the deltas and warnings of model calls it did not make again.
 */
import { DBOS } from '@dbos-inc/dbos-sdk';
import { Agent, type AgentEvent, type EpisodeRequest, type ModelRequest } from '@episodic/core';
import { createApproximateCounter, scriptedModel } from '@episodic/core/testing';
import { PostgresSessionStore } from '@episodic/postgres';
import { serverPerFile } from '@episodic/postgres/testing';
import pg from 'pg';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { DbosEpisodes } from './dbos-episodes.js';

const server = serverPerFile();
beforeAll(() => server.url().then(() => {}, () => {}), 120_000);
afterAll(() => server.stop());

/** A scripted model whose every call warns first, as an adapter does (e.g. of reasoning the API withheld). */
function warningModel() {
  const steps = (request: ModelRequest) =>
    request.messages.at(-1)?.role === 'tool'
      ? { text: 'The log says test_a fails.' }
      : { text: 'Reading the log.', toolCalls: [{ id: 'call_1', name: 'read_log', args: {} }] };
  const scripted = scriptedModel({ steps });
  return {
    model: scripted.model,
    profile: scripted.profile,
    async* stream(request: ModelRequest, options?: Parameters<typeof scripted.stream>[1]) {
      yield { type: 'warning' as const, code: 'test-warning', message: `call ${scripted.requests.length + 1}` };
      yield* scripted.stream(request, options);
    },
  };
}

it("forwards the run's events to observe.event, and a replay's events again from the records", async () => {
  const url = await server.url();
  const pool = new pg.Pool({ connectionString: url, max: 4 });
  for (const schema of ['dbos_events', 'dbos_events_sys']) await pool.query(`DROP SCHEMA IF EXISTS "${schema}" CASCADE`);
  const store = new PostgresSessionStore({ pool, schema: 'dbos_events' });
  await store.migrate();
  let reads = 0;
  const readLog = {
    spec: { name: 'read_log', description: 'Reads the CI log.', inputSchema: { type: 'object' } },
    execute: async () => ({ content: `FAIL test_a (read ${(reads += 1)})` }),
  };
  const tokenizer = createApproximateCounter();
  const agent = new Agent({ model: warningModel(), tools: [readLog], store, context: { tokenizer, budget: 100_000 } });
  const seen: { request: EpisodeRequest; event: AgentEvent }[] = [];
  const observe = { event: (request: EpisodeRequest, event: AgentEvent) => seen.push({ request, event }) };
  const episodes = await DbosEpisodes.launch({ agent, databaseUrl: url, schema: 'dbos_events_sys', leaseMs: 2_000, observe });
  try {
    await episodes.start({ sessionId: 'ci', episode: 0, input: 'Why is CI red?' });
    expect(await episodes.result('ci', 0)).toEqual({ status: 'finished', reason: 'done', text: 'The log says test_a fails.' });
    expect(seen.every(({ request }) => request.sessionId === 'ci' && request.episode === 0)).toBe(true);
    const types = seen.map(({ event }) => event.type);
    expect(types[0]).toBe('episode-start');
    expect(types.at(-1)).toBe('episode-finish');
    expect(seen.flatMap(({ event }) => (event.type === 'warning' && event.code === 'test-warning' ? [event.message] : []))).toEqual([
      'call 1',
      'call 2',
    ]);
    expect(types.filter((type) => type === 'step-finish')).toHaveLength(2);
    expect(types.filter((type) => type === 'tool-result')).toHaveLength(1);
    expect(types).toContain('text-delta');

    // A replay of the whole workflow (as after a takeover): every step comes from its record.
    const first = seen.length;
    const steps = (await DBOS.listWorkflowSteps('ci/0')) ?? [];
    const replay = await DBOS.forkWorkflow<unknown>('ci/0', steps.length, { newWorkflowID: 'ci/0-replay' });
    await replay.getResult();
    const replayed = seen.slice(first).map(({ event }) => event);
    expect(reads).toBe(1);
    expect(replayed.filter((event) => event.type === 'step-finish')).toHaveLength(2);
    expect(replayed.filter((event) => event.type === 'warning' && event.code === 'test-warning')).toEqual([]);
    expect(replayed.filter((event) => event.type === 'text-delta')).toEqual([]);
    expect((await store.load('ci'))?.messages.map((message) => message.role)).toEqual(['user', 'assistant', 'tool', 'assistant']);
  } finally {
    await episodes.shutdown();
    await store.close();
    await pool.end();
  }
}, 120_000);
