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
 * the figures are the runtimes' own cost. Beside each engine's episodes, the engine
 * alone: the same number of empty steps written directly against its SDK, started and
 * awaited as an episode is, so the engine's own share of the cost is measured in the
 * same run. SQL statements per episode are counted on every pg client of the process
 * (the store's, DBOS's, pg-boss's; Restate's journal is not SQL), and the CPU time this
 * process spends per episode (the loop, the store's and the engines' clients, the Restate
 * endpoint; not the PostgreSQL or Restate servers).
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
import http2 from 'node:http2';
import * as restate from '@restatedev/restate-sdk';

const EPISODES = 40;
/** How the throwaway servers run (said in the report). */
const PG_SETTINGS = 'from `initdb` with its defaults (fsync and synchronous_commit on), on loopback';
const RESTATE_SETTINGS = '4 partitions, RocksDB 256 MiB, one invocation per HTTP/2 connection to the endpoint, otherwise the server\'s defaults';
/** The runtimes to measure besides the plain loop (BENCH_RUNTIMES=boss,dbos,restate; default all). */
const RUNTIMES = new Set((process.env.BENCH_RUNTIMES ?? 'boss,dbos,restate').split(',').map((name) => name.trim()));
const WARMUP = 5;
const STEPS_PER_EPISODE = 7;

/** SQL statements sent by any pg client of this process (counted while `measure` runs its measured episodes). */
const statements = { counting: false, count: 0 };
const query = pg.Client.prototype.query;
pg.Client.prototype.query = function countedQuery(...args) {
  if (statements.counting) statements.count += 1;
  return query.apply(this, args);
};

/** When the scripted model (or an empty step) was first and last called (the phases of an episode are read off it). */
const modelCalls = { first: 0, last: 0 };

function markCall() {
  modelCalls.last = performance.now();
  if (modelCalls.first === 0) modelCalls.first = modelCalls.last;
}

/** Three steps that call `note`, then an answer, computed from the request so replays agree. */
function script(request) {
  markCall();
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
    for (let step = 0; step < STEPS_PER_EPISODE; step += 1) {
      await DBOS.runStep(async () => {
        markCall();
        return step;
      }, { name: `step-${step}` });
    }
    await DBOS.setEvent('done', true);
  },
  { name: 'bench.empty-steps' },
);

/**
 * Restate alone: the same shape as an episode (a virtual object per session whose
 * exclusive handler runs a workflow and returns its result), the workflow as many empty
 * `ctx.run` steps as an episode has, with no Episodic code in it.
 */
const emptyRestateWorkflow = restate.workflow({
  name: 'BenchEmptySteps',
  handlers: {
    run: async (ctx) => {
      for (let step = 0; step < STEPS_PER_EPISODE; step += 1) {
        await ctx.run(`step-${step}`, async () => {
          markCall();
          return step;
        });
      }
      return 'done';
    },
  },
});
const emptyRestateSession = restate.object({
  name: 'BenchEmptySession',
  handlers: { send: async (ctx) => ctx.workflowClient(emptyRestateWorkflow, `${ctx.key}/0`).run() },
});

function agentOn(store) {
  const tokenizer = createApproximateCounter();
  return new Agent({ model: scriptedModel({ steps: script }), tools: [note], store, context: { tokenizer, budget: 100_000 } });
}

/** Runs `episode(index)` for WARMUP + EPISODES episodes; returns ms per episode (median) and steps/s over the measured ones. */
async function measure(episode) {
  const samples = [];
  const phases = { before: [], during: [], after: [] };
  statements.count = 0;
  let cpu;
  for (let index = 0; index < WARMUP + EPISODES; index += 1) {
    if (index === WARMUP) cpu = process.cpuUsage();
    modelCalls.first = 0;
    statements.counting = index >= WARMUP;
    const before = performance.now();
    await episode(index);
    const after = performance.now();
    if (index < WARMUP) continue;
    samples.push(after - before);
    phases.before.push(modelCalls.first - before);
    phases.during.push(modelCalls.last - modelCalls.first);
    phases.after.push(after - modelCalls.last);
  }
  statements.counting = false;
  const used = process.cpuUsage(cpu);
  const total = samples.reduce((sum, value) => sum + value, 0);
  return {
    median: median(samples),
    statementsPerEpisode: statements.count / EPISODES,
    cpuPerEpisode: (used.user + used.system) / 1000 / EPISODES,
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
    if (RUNTIMES.has('restate')) await measureRestate(agentOn(await storeOn('bench_rt_restate')), results);
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
        const id = `empty-${index}`;
        await DBOS.startWorkflow(emptyDbosWorkflow, { workflowID: id, queueName: 'episodic-episodes', enqueueOptions: { queuePartitionKey: id } })();
        await DBOS.getEvent(id, 'done');
      })),
    });
  } finally {
    await episodes.shutdown();
  }
}

/**
 * Episodes on Restate: sent to the session object through the ingress, awaited through
 * the send's invocation; then the engine alone, the same way, on an endpoint of its own.
 */
async function measureRestate(agent, results) {
  const server = await RestateServer.start();
  const endpoint = await serveEpisodes({ agent });
  const empty = await serveServices([emptyRestateSession, emptyRestateWorkflow]);
  try {
    await server.register(endpoint.url);
    await server.register(empty.url);
    const client = new EpisodesClient(server.ingressUrl);
    results.push({
      name: 'Restate workflow per episode',
      ...(await measure(async (index) => {
        await client.send({ sessionId: `r${index}`, episode: 0, input: 'go' });
        await client.result(`r${index}`, 0);
      })),
    });
    results.push({
      name: `Restate alone: ${STEPS_PER_EPISODE} empty steps per workflow`,
      ...(await measure(async (index) => {
        const sent = await ingress(server, `/BenchEmptySession/e${index}/send/send`, { method: 'POST', headers: { 'idempotency-key': `e${index}` } });
        await ingress(server, `/restate/invocation/${sent.invocationId}/attach`, { method: 'GET' });
      })),
    });
  } finally {
    await empty.close();
    await endpoint.close();
    await server.stop();
  }
}

async function ingress(server, path, init) {
  const response = await fetch(`${server.ingressUrl}${path}`, init);
  if (!response.ok) throw new Error(`${init.method} ${path}: ${response.status} ${await response.text()}`);
  return response.json();
}

/** Restate services on an HTTP/2 endpoint of their own (as serveEpisodes serves the episodes'). */
async function serveServices(services) {
  const server = http2.createServer(restate.createEndpointHandler({ services }));
  await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${server.address().port}`,
    close: () => new Promise((resolve) => {
      server.close(() => resolve());
      setTimeout(resolve, 1_000).unref();
    }),
  };
}

function report(results) {
  const [plain] = results;
  const rows = results.map(({ name, median, stepsPerSecond, phases, statementsPerEpisode, cpuPerEpisode }) => {
    const added = (median - plain.median) / STEPS_PER_EPISODE;
    const phaseCells = [phases.before, phases.during, phases.after].map((ms) => ms.toFixed(1)).join(' | ');
    const cells = [median.toFixed(1), stepsPerSecond.toFixed(0), name === plain.name ? '(baseline)' : `${added.toFixed(2)} ms`, phaseCells, statementsPerEpisode.toFixed(1), cpuPerEpisode.toFixed(1)];
    return `| ${name} | ${cells.join(' | ')} |`;
  });
  const shares = ['DBOS', 'Restate'].flatMap((engine) => engineShare(engine, plain, results));
  return `## Runtimes: the plain loop, pg-boss, DBOS and Restate on one PostgreSQL server

${EPISODES} episodes of ${STEPS_PER_EPISODE} steps each (4 model calls, 3 tool executions; scripted model, no latency), one after another, after ${WARMUP} warm-up episodes; PostgreSQL on loopback. The last three columns split an episode's median time where the scripted model is first and last called: the wait before the episode runs, the run itself, and the wait until the caller has the result.

| runtime | ms per episode (median) | steps/s | added per step vs plain | to the first model call | first to last model call | last model call to result | SQL statements per episode | CPU ms per episode (this process) |
| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |
${rows.join('\n')}

The "alone" rows are the engine with no Episodic code: as many empty steps as an episode has, written directly against its SDK and started and awaited as an episode is (DBOS: enqueued on the same partitioned queue, so started at its next poll, awaited through an event; Restate: a virtual object per key running a workflow, sent and attached through the ingress); their phases are read off the first and last empty step, so "first to last" is the engine's cost for the steps of an episode.
${shares.length > 0 ? `\n${shares.join('\n')}\n` : ''}
Settings, all as a user of the packages gets them: PostgreSQL ${PG_SETTINGS}; DBOS through \`DbosEpisodes.launch\` with its defaults (the queue polled every 20 ms, an episode started by \`start()\` in a worker claimed at once) but \`concurrency: 1\`; Restate ${'`'}@restatedev/restate-server${'`'} started by \`RestateServer\` (@episodic/restate/testing: ${RESTATE_SETTINGS}), the endpoint from \`serveEpisodes\` in this process.

Node ${process.version}, ${availableParallelism()} cores, load average ${loadavg()[0].toFixed(1)} when it finished (other work on the machine moves every figure; the ratios within one run are what to compare).`;
}

/**
 * Where an engine's added time goes, from its two rows: what its steps alone cost
 * (first to last empty step) against what the episode's run took beyond the plain loop's
 * run, and what the engine's start and the wait for the result add.
 */
function engineShare(engine, plain, results) {
  const episode = results.find((result) => result.name.startsWith(`${engine} workflow`));
  const alone = results.find((result) => result.name.startsWith(`${engine} alone`));
  if (!episode || !alone) return [];
  const perStep = (ms) => `${(ms / STEPS_PER_EPISODE).toFixed(2)} ms per step`;
  const run = episode.phases.during - plain.phases.during;
  const ends = episode.median - plain.median - run;
  return [
    `- ${engine}: the episode adds ${(episode.median - plain.median).toFixed(1)} ms (${perStep(episode.median - plain.median)}): ` +
      `${run.toFixed(1)} ms in its run beyond the plain loop's run, where the engine's own steps alone take ${alone.phases.during.toFixed(1)} ms; ` +
      `${ends.toFixed(1)} ms before the first and after the last model call (the engine alone: ${(alone.phases.before + alone.phases.after).toFixed(1)} ms); ` +
      `${(episode.statementsPerEpisode - plain.statementsPerEpisode).toFixed(1)} SQL statements more than the plain loop's ${plain.statementsPerEpisode.toFixed(1)}; ` +
      `${(episode.cpuPerEpisode - plain.cpuPerEpisode).toFixed(1)} ms more CPU in this process than the plain loop's ${plain.cpuPerEpisode.toFixed(1)} ` +
      `(the engine alone: ${alone.cpuPerEpisode.toFixed(1)} ms).`,
  ];
}
