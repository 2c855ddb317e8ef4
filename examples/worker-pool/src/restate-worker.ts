/**
 * One worker process of the pool on Restate: an endpoint serving the episode
 * services with the pool's agent, on the port it is given (the fault run's load
 * balancer spreads Restate's calls over the live workers). `record_step` is declared
 * not idempotent: a call that may have begun in a killed process is never run again.
 * Prints `ready`, then `start <job>`, `phase <model|tool|between> <job>` (it runs many
 * episodes at once) and `end <job>` lines, as worker.ts does. Started as
 * a standby it listens at once but prints `standby` and waits for `go` (standby.ts):
 * the fault run adds it to the load balancer when it promotes it.
 *
 *   node dist/restate-worker.js '{"connectionString":"postgres://...","schema":"pool","worker":"w1","port":9081,...}'
 */
import { PostgresSessionStore } from '@episodic/postgres';
import { type EpisodeRequest, serveEpisodes } from '@episodic/restate';
import pg from 'pg';
import { PoolEvents } from './pool-events.js';
import { poolAgent } from './pool-agent.js';
import { phaseReporter, startReporter } from './phase-report.js';
import { awaitGo } from './standby.js';
import type { WorkerConfig } from './worker-config.js';

/** A Restate worker's config: the pool's, and the port its endpoint listens on. */
export type RestateWorkerConfig = WorkerConfig & { port: number };

const config = JSON.parse(process.argv[2] ?? '{}') as RestateWorkerConfig;
const pool = new pg.Pool({ connectionString: config.connectionString, max: 4 });
pool.on('error', () => {});
const store = new PostgresSessionStore({ pool, schema: config.schema, leaseMs: config.leaseMs });
const events = new PoolEvents(pool, config.schema);
const agent = poolAgent({ ...config, store, recordIdempotent: false, onPhase: phaseReporter(config) });
const reportStart = startReporter(config);
const jobOf = (request: EpisodeRequest) => /^\[job (\w+)\]/.exec(request.input)?.[1] ?? request.sessionId;

const endpoint = await serveEpisodes({
  agent,
  port: config.port,
  observe: {
    start: (request) => {
      const job = jobOf(request);
      reportStart(job);
      // A second start of a job is a takeover (or a replay after the server restarted).
      void pool
        .query(`SELECT 1 FROM "${config.schema}".pool_events WHERE job_id = $1 LIMIT 1`, [job])
        .then(({ rowCount }) => events.record(job, config.worker, rowCount ? 'resumed' : 'sent', undefined, Date.now()))
        .catch(() => {});
    },
    end: (request) => process.stdout.write(`end ${jobOf(request)}\n`),
  },
});
await awaitGo(config);
process.stdout.write('ready\n');

process.on('SIGTERM', () => {
  void (async () => {
    await endpoint.close();
    await store.close();
    await pool.end();
    process.exit(0);
  })();
});
