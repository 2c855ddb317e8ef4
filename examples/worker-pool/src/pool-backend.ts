/**
 * What runs the pool's jobs: pg-boss (the plain loop, at least once) or DBOS (each
 * episode a durable workflow). The fault run is the same for both; only how jobs
 * are queued, counted and listed differs, and which worker script runs them.
 */
import { fileURLToPath } from 'node:url';
import { DBOS } from '@dbos-inc/dbos-sdk';
import { EpisodesClient } from '@episodic/dbos';
import { allJobs, bossSchema, createPoolQueue, enqueueJobs, type Job, type JobWithState, poolBoss } from './pool-jobs.js';
import { jobMessage } from './handle-job.js';

/** The runtimes a pool can run on. */
export type PoolRuntime = 'pg-boss' | 'dbos';

/** One backend, prepared for a run. */
export interface PoolBackend {
  /** The worker process's script (built). */
  workerScript: string;
  /** Schemas the run drops first. */
  schemas: string[];
  /** Creates what the workers need before they start (tables, the queue). */
  prepare(): Promise<void>;
  /** Queues every job. */
  enqueue(jobs: readonly Job[]): Promise<void>;
  /** Every job with its state (`done` when finished), by session and position. */
  jobs(): Promise<JobWithState[]>;
  close(): Promise<void>;
}

const script = (name: string) => fileURLToPath(new URL(`../dist/${name}.js`, import.meta.url));

/** DBOS's schema beside the pool's. */
export function dbosSchema(schema: string): string {
  return `${schema}_dbos`;
}

/** The backend of `runtime` on `schema` (nothing is created until `enqueue`). */
export function poolBackend(runtime: PoolRuntime, connectionString: string, schema: string, leaseMs: number): PoolBackend {
  return runtime === 'dbos' ? dbosBackend(connectionString, schema) : bossBackend(connectionString, schema, leaseMs);
}

function bossBackend(connectionString: string, schema: string, leaseMs: number): PoolBackend {
  const boss = poolBoss(connectionString, schema);
  let started = false;
  return {
    workerScript: script('worker'),
    schemas: [bossSchema(schema)],
    async prepare() {
      await boss.start();
      started = true;
      await createPoolQueue(boss, leaseMs);
    },
    enqueue: (jobs) => enqueueJobs(boss, jobs),
    jobs: () => allJobs(boss),
    async close() {
      if (started) await boss.stop({ graceful: false });
    },
  };
}

function dbosBackend(connectionString: string, schema: string): PoolBackend {
  let client: EpisodesClient | undefined;
  let queued: readonly Job[] = [];
  return {
    workerScript: script('dbos-worker'),
    schemas: [dbosSchema(schema)],
    async prepare() {
      // Once, before the workers launch: several launching at once would race to create the tables.
      await DBOS.migrate(connectionString, { schemaName: dbosSchema(schema) });
      client = await EpisodesClient.create({ databaseUrl: connectionString, schema: dbosSchema(schema) });
    },
    async enqueue(jobs) {
      queued = jobs;
      if (!client) throw new Error('prepare() first');
      for (const job of jobs) {
        const session = { persistReasoning: job.persistReasoning };
        await client.start({ sessionId: job.sessionId, episode: job.position, input: jobMessage(job), session });
      }
    },
    async jobs() {
      const statuses = new Map((await client?.statuses() ?? []).map((status) => [status.workflowId, status.status]));
      return queued.map((job) => {
        const status = statuses.get(`${job.sessionId}/${job.position}`) ?? 'missing';
        return { ...job, status: status === 'SUCCESS' ? 'done' : status };
      });
    },
    async close() {
      await client?.close();
    },
  };
}
