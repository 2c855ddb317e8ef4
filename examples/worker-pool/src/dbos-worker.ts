/**
 * One worker process of the pool on DBOS: launches DBOS with the pool's agent and
 * runs episode workflows from the queue until SIGTERM. `record_step` is declared
 * not idempotent here: a call that may have begun in a killed process is never run
 * again. Prints `ready`, then `start <job>`, `phase ...` and `end <job>` lines, as
 * worker.ts does (and waits for `go` first as a standby).
 *
 *   node dist/dbos-worker.js '{"connectionString":"postgres://...","schema":"pool","worker":"w1",...}'
 */
import { DbosEpisodes, type EpisodeRequest } from '@episodic/dbos';
import { PostgresSessionStore } from '@episodic/postgres';
import pg from 'pg';
import { dbosSchema } from './pool-backend.js';
import { PoolEvents } from './pool-events.js';
import { poolAgent } from './pool-agent.js';
import { phaseReporter, startReporter } from './phase-report.js';
import { awaitGo } from './standby.js';
import type { WorkerConfig } from './worker-config.js';

const config = JSON.parse(process.argv[2] ?? '{}') as WorkerConfig;
const pool = new pg.Pool({ connectionString: config.connectionString, max: 4 });
pool.on('error', () => {});
const store = new PostgresSessionStore({ pool, schema: config.schema, leaseMs: config.leaseMs });
const events = new PoolEvents(pool, config.schema);
const agent = poolAgent({ ...config, store, recordIdempotent: false, onPhase: phaseReporter(config) });
const reportStart = startReporter(config);
const jobOf = (request: EpisodeRequest) => /^\[job (\w+)\]/.exec(request.input)?.[1] ?? request.sessionId;

await awaitGo(config);
const episodes = await DbosEpisodes.launch({
  agent,
  databaseUrl: config.connectionString,
  schema: dbosSchema(config.schema),
  executorId: `${config.schema}-${config.worker}-${process.pid}`,
  concurrency: 1,
  leaseMs: config.leaseMs,
  observe: {
    start: (request) => {
      const job = jobOf(request);
      reportStart(job);
      // A second start of a job is a takeover: the first one's process died.
      void pool
        .query(`SELECT 1 FROM "${config.schema}".pool_events WHERE job_id = $1 LIMIT 1`, [job])
        .then(({ rowCount }) => events.record(job, config.worker, rowCount ? 'resumed' : 'sent', undefined, Date.now()))
        .catch(() => {});
    },
    end: (request) => process.stdout.write(`end ${jobOf(request)}\n`),
    recovered: ({ executorId, workflowIds }) => process.stdout.write(`recovered ${executorId} ${workflowIds.join(',')}\n`),
  },
});
process.stdout.write('ready\n');

process.on('SIGTERM', () => {
  void (async () => {
    await episodes.shutdown();
    await store.close();
    await pool.end();
    process.exit(0);
  })();
});
