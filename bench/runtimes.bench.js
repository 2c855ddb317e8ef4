/**
 * The runtimes benchmark (issue 27): the same episodes (3 tool steps and an answer:
 * 4 model calls and 3 tool executions, 7 steps) run one after another on one
 * PostgreSQL server, by
 * - the plain loop (the baseline): `session.send()` on the PostgreSQL session store;
 * - the pg-boss pool's path: each episode a job (send, fetch, run, complete);
 * - DBOS: each episode a workflow on a partitioned queue, every step checkpointed.
 * - Restate: each episode sent to its session object and run as a workflow, every
 *   step a journaled `ctx.run` (the server from its npm binary, the endpoint in this process).
 * Reports steps per second and the latency each runtime adds per step over the
 * plain loop, measured in the same run. The model is scripted with no latency, so
 * the figures are the runtimes' own cost.
 *
 *   npm run bench -- runtimes     (EPISODIC_PG_URL names the server; else a throwaway one is started)
 *   BENCH_RUNTIMES=dbos npm run bench -- runtimes     (the plain loop and the runtimes named, comma-separated)
 *
 * Needs the built packages (`npx tsc -b`). Writes bench/results/runtimes.md.
 */
import { availableParallelism, loadavg } from 'node:os';
import { Agent } from '@episodic/core';
import { createApproximateCounter } from '@episodic/core/testing';
import { scriptedModel } from '@episodic/core/testing';
import { DBOS } from '@dbos-inc/dbos-sdk';
import { DbosEpisodes } from '@episodic/dbos';
import { PostgresSessionStore } from '@episodic/postgres';
import { serverForTests } from '@episodic/postgres/testing';
import pg from 'pg';
import { PgBoss } from 'pg-boss';
import { EpisodesClient, serveEpisodes } from '@episodic/restate';
import { RestateServer } from '@episodic/restate/testing';

const EPISODES = 40;
/** The runtimes to measure besides the plain loop (BENCH_RUNTIMES=boss,dbos,restate; default all). */
const RUNTIMES = new Set((process.env.BENCH_RUNTIMES ?? 'boss,dbos,restate').split(',').map((name) => name.trim()));
const WARMUP = 5;
const STEPS_PER_EPISODE = 7;

/** When the scripted model was last called (the phases of a runtime's episode are read off it). */
const modelCalls = { first: 0, last: 0 };

/** Three steps that call `note`, then an answer, computed from the request so replays agree. */
function script(request) {
  modelCalls.last = performance.now();
  if (modelCalls.first === 0) modelCalls.first = modelCalls.last;
  const done = request.messages.filter((message) => message.role === 'tool').length;
  const since = request.messages.slice(request.messages.findLastIndex((message) => message.role === 'user'));
  const step = since.filter((message) => message.role === 'tool').length;
  if (step >= 3) return { text: `done after ${done}` };
  return { text: `step ${step + 1}`, toolCalls: [{ id: `c${done + 1}`, name: 'note', args: { step } }] };
}

const note = {
  spec: { name: 'note', description: 'Takes a note.', inputSchema: { type: 'object' } },
  execute: async (args) => ({ content: `noted ${JSON.stringify(args)}` }),
};

/**
 * The engine alone: a DBOS workflow of as many empty checkpointed steps as an episode
 * has, enqueued and awaited as an episode is, with no Episodic code in it. Registered
 * here, before DBOS is launched, as DBOS requires.
 */
const emptyDbosWorkflow = DBOS.registerWorkflow(
  async () => {
    for (let step = 0; step < STEPS_PER_EPISODE; step += 1) await DBOS.runStep(async () => step, { name: `step-${step}` });
    await DBOS.setEvent('done', true);
  },
  { name: 'bench.empty-steps' },
);

function agentOn(store) {
  const tokenizer = createApproximateCounter();
  return new Agent({ model: scriptedModel({ steps: script }), tools: [note], store, context: { tokenizer, budget: 100_000 } });
}

/** Runs `episode(index)` for WARMUP + EPISODES episodes; returns ms per episode (median) and steps/s over the measured ones. */
async function measure(episode) {
  const samples = [];
  const phases = { before: [], during: [], after: [] };
  for (let index = 0; index < WARMUP + EPISODES; index += 1) {
    modelCalls.first = 0;
    const before = performance.now();
    await episode(index);
    const after = performance.now();
    if (index < WARMUP) continue;
    samples.push(after - before);
    phases.before.push(modelCalls.first - before);
    phases.during.push(modelCalls.last - modelCalls.first);
    phases.after.push(after - modelCalls.last);
  }
  const total = samples.reduce((sum, value) => sum + value, 0);
  return {
    median: median(samples),
    stepsPerSecond: (EPISODES * STEPS_PER_EPISODE) / (total / 1000),
    phases: { before: median(phases.before), during: median(phases.during), after: median(phases.after) },
  };
}

function median(values) {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)];
}

export default async function runtimesBench() {
  const server = await serverForTests();
  const pool = new pg.Pool({ connectionString: server.url, max: 4 });
  const results = [];
  try {
    for (const schema of ['bench_rt_plain', 'bench_rt_boss', 'bench_rt_boss_queue', 'bench_rt_dbos', 'bench_rt_dbos_sys', 'bench_rt_restate']) {
      await pool.query(`DROP SCHEMA IF EXISTS "${schema}" CASCADE`);
    }
    const storeOn = async (schema) => {
      const store = new PostgresSessionStore({ pool, schema });
      await store.migrate();
      return store;
    };

    const plainAgent = agentOn(await storeOn('bench_rt_plain'));
    results.push({ name: 'plain loop', ...(await measure(async (index) => (await plainAgent.session({ id: `p${index}` })).send('go'))) });

    if (RUNTIMES.has('boss')) await measureBoss(server, await storeOn('bench_rt_boss'), results);
    if (RUNTIMES.has('dbos')) await measureDbos(server, await storeOn('bench_rt_dbos'), results);
    if (RUNTIMES.has('restate')) results.push({ name: 'Restate workflow per episode', ...(await measureRestate(agentOn(await storeOn('bench_rt_restate')))) });
  } finally {
    await pool.end();
    await server.stop();
  }
  return report(results);
}

/** Each episode a pg-boss job: send, fetch, run, complete. */
async function measureBoss(server, store, results) {
  const bossAgent = agentOn(store);
  const boss = new PgBoss({ connectionString: server.url, schema: 'bench_rt_boss_queue' });
  boss.on('error', () => {});
  await boss.start();
  await boss.createQueue('bench', { policy: 'key_strict_fifo' });
  results.push({
    name: 'pg-boss job per episode',
    ...(await measure(async (index) => {
      await boss.send('bench', { id: `b${index}` }, { singletonKey: `b${index}` });
      const [job] = await boss.fetch('bench');
      await (await bossAgent.session({ id: job.data.id })).send('go');
      await boss.complete('bench', job.id);
    })),
  });
  await boss.stop({ graceful: false });
}

/** Each episode a DBOS workflow on the partitioned queue, awaited through `result()`. */
async function measureDbos(server, store, results) {
  const dbosAgent = agentOn(store);
  const episodes = await DbosEpisodes.launch({ agent: dbosAgent, databaseUrl: server.url, schema: 'bench_rt_dbos_sys', concurrency: 1, leaseMs: 10_000 });
  try {
    results.push({
      name: 'DBOS workflow per episode',
      ...(await measure(async (index) => {
        await episodes.start({ sessionId: `d${index}`, episode: 0, input: 'go' });
        await episodes.result(`d${index}`, 0);
      })),
    });
    results.push({
      name: `DBOS alone: ${STEPS_PER_EPISODE} empty steps per workflow`,
      ...(await measure(async (index) => {
        // No model here: the run is timed from the enqueue to the event.
        modelCalls.first = performance.now();
        const id = `empty-${index}`;
        await DBOS.startWorkflow(emptyDbosWorkflow, { workflowID: id, queueName: 'episodic-episodes', enqueueOptions: { queuePartitionKey: id } })();
        await DBOS.getEvent(id, 'done');
        modelCalls.last = performance.now();
      })),
    });
  } finally {
    await episodes.shutdown();
  }
}

/** Episodes on Restate: sent to the session object through the ingress, awaited through the workflow's output. */
async function measureRestate(agent) {
  const restate = await RestateServer.start();
  const endpoint = await serveEpisodes({ agent });
  try {
    await restate.register(endpoint.url);
    const client = new EpisodesClient(restate.ingressUrl);
    return await measure(async (index) => {
      await client.send({ sessionId: `r${index}`, episode: 0, input: 'go' });
      await client.result(`r${index}`, 0);
    });
  } finally {
    await endpoint.close();
    await restate.stop();
  }
}

function report(results) {
  const [plain] = results;
  const rows = results.map(({ name, median, stepsPerSecond, phases }) => {
    const added = (median - plain.median) / STEPS_PER_EPISODE;
    const phaseCells = [phases.before, phases.during, phases.after].map((ms) => ms.toFixed(1)).join(' | ');
    return `| ${name} | ${median.toFixed(1)} | ${stepsPerSecond.toFixed(0)} | ${name === plain.name ? '(baseline)' : `${added.toFixed(2)} ms`} | ${phaseCells} |`;
  });
  return `## Runtimes: the plain loop, pg-boss, DBOS and Restate on one PostgreSQL server

${EPISODES} episodes of ${STEPS_PER_EPISODE} steps each (4 model calls, 3 tool executions; scripted model, no latency), one after another, after ${WARMUP} warm-up episodes; PostgreSQL on loopback. The last three columns split an episode's median time where the scripted model is first and last called: the wait before the episode runs, the run itself, and the wait until the caller has the result.

| runtime | ms per episode (median) | steps/s | added per step vs plain | to the first model call | first to last model call | last model call to result |
| --- | ---: | ---: | ---: | ---: | ---: | ---: |
${rows.join('\n')}

Node ${process.version}, ${availableParallelism()} cores, load average ${loadavg()[0].toFixed(1)} when it finished (other work on the machine moves every figure; the ratios within one run are what to compare).`;
}
