/**
 * Long sessions per store (issue 26, item 3): the time to open a 10,000-message
 * session (`agent.session({ id })`: the store's load, the transcript checks, the
 * approvals worked out) and the store's `load` alone, for the memory store, the file
 * store, PGlite in memory and a PostgreSQL server on loopback; and the heap a live
 * session holds per 1,000 messages, once opened and once it has run an episode (its
 * counts and packed forms cached).
 *
 *   npm run bench -- session-open   (EPISODIC_PG_URL names the server; else a throwaway one is started)
 *
 * Needs the built packages (`npx tsc -b`) and `--expose-gc` (`npm run bench` passes it).
 * Writes bench/results/session-open.md.
 */
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { availableParallelism, loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { Agent, MemorySessionStore } from '@episodic/core';
import { FileSessionStore } from '@episodic/core/node';
import { scriptedModel } from '@episodic/core/testing';
import { openPGlite, PostgresSessionStore } from '@episodic/postgres';
import { serverForTests } from '@episodic/postgres/testing';
import { percentile } from './metrics.js';
import { stepMessages } from './step-messages.js';

const MESSAGES = 10_000;
/** Steps per episode: a user message, then 10 steps of two messages. */
const STEPS_PER_EPISODE = 10;
const OPENS = Number(process.env.SESSION_OPEN_RUNS ?? 5);
const ID = 'bench-long-session';

/** The stored session: episodes of a user message and ten steps, MESSAGES messages in all. */
function longSession() {
  const messages = [];
  // Whole steps only, so the session ends idle (on a tool result, 10,001 messages).
  for (let step = 0; messages.length < MESSAGES; step += 1) {
    if (step % STEPS_PER_EPISODE === 0) messages.push({ role: 'user', content: `Why did run ${step} fail?` });
    messages.push(...stepMessages(step));
  }
  return messages;
}

async function fill(store, messages) {
  for (let at = 0; at < messages.length; at += 500) {
    await store.append(ID, messages.slice(at, at + 500), { expectedLength: at });
  }
}

function agentOn(store) {
  const model = scriptedModel({ steps: () => ({ text: 'The fixture server did not start in time.' }) });
  return new Agent({ model, system: 'You debug CI failures.', store });
}

const heapUsed = () => {
  globalThis.gc?.();
  globalThis.gc?.();
  return process.memoryUsage().heapUsed;
};

/** Open time (median of OPENS), load time, and the heap one live session holds. */
async function measure(store, stored) {
  const agent = agentOn(store);
  await agent.session({ id: ID }); // warm-up: code paths, connections, the tokenizer
  const opens = [];
  const loads = [];
  for (let run = 0; run < OPENS; run += 1) {
    let before = performance.now();
    await store.load(ID);
    loads.push(performance.now() - before);
    before = performance.now();
    const session = await agent.session({ id: ID });
    opens.push(performance.now() - before);
    if (session.messages.length !== stored) throw new Error(`opened ${session.messages.length} messages`);
  }
  const base = heapUsed();
  const session = await agent.session({ id: ID });
  const opened = heapUsed() - base;
  await session.send('And what about the next run?');
  const ran = heapUsed() - base;
  if (session.messages.length !== stored + 2) throw new Error(`ran to ${session.messages.length} messages`);
  const sorted = (values) => [...values].sort((a, b) => a - b);
  const perThousand = (bytes) => bytes / (session.messages.length / 1000) / 1e6;
  return {
    open: percentile(sorted(opens), 0.5),
    load: percentile(sorted(loads), 0.5),
    openedMb: perThousand(opened),
    ranMb: perThousand(ran),
    load1: loadavg()[0],
  };
}

/** Runs every store and returns a markdown section. */
export default async function run() {
  if (!globalThis.gc) throw new Error('session-open needs --expose-gc (npm run bench passes it)');
  const messages = longSession();
  const directory = await mkdtemp(join(tmpdir(), 'episodic-bench-open-'));
  const server = await serverForTests();
  const pglite = await openPGlite();
  const schema = `bench_open_${Date.now()}`;
  const serverStore = new PostgresSessionStore({ connectionString: server.url, schema, poolSize: 4 });
  try {
    const stores = [
      ['memory', new MemorySessionStore()],
      ['file', new FileSessionStore({ directory })],
      ['PGlite, in memory', new PostgresSessionStore({ pglite, schema })],
      ['PostgreSQL server, loopback', serverStore],
    ];
    const rows = [];
    for (const [name, store] of stores) {
      await fill(store, messages);
      const result = await measure(store, messages.length);
      process.stderr.write(`session-open: ${name} open ${result.open.toFixed(0)} ms, ${result.ranMb.toFixed(2)} MB/1k\n`);
      rows.push(
        `| ${name} | ${result.open.toFixed(0)} ms | ${result.load.toFixed(0)} ms | ${result.openedMb.toFixed(2)} MB | ${result.ranMb.toFixed(2)} MB | ${result.load1.toFixed(1)} |`,
      );
      await store.delete?.(ID);
    }
    const markdown = `## Long sessions: opening a 10,000-message session, heap per 1,000 messages

Node ${process.version}, ${availableParallelism()} cores. A session of ${messages.length.toLocaleString('en-US')} messages
(episodes of a user message and ${STEPS_PER_EPISODE} steps; a step is an assistant message with 600 characters of
reasoning and a tool call, and a 1,500-character tool result) stored in each store. Open: \`agent.session({ id })\`
(load, transcript checks, approvals), median of ${OPENS}; load: the store's \`load\` alone, median of ${OPENS}. Heap:
\`heapUsed\` after two GCs with one live session, over its messages, once opened and once it has run an
episode (its token counts and packed forms cached); the store's own copy (memory store) was there before
and is not counted. Load is the 1-minute load average when the row finished (the machine is shared).

| store | open ${messages.length.toLocaleString('en-US')} messages | store load alone | heap per 1,000 messages, opened | after an episode | load |
| --- | --- | --- | --- | --- | --- |
${rows.join('\n')}
`;
    await mkdir(new URL('./results/', import.meta.url), { recursive: true });
    await writeFile(new URL('./results/session-open.md', import.meta.url), markdown);
    return markdown;
  } finally {
    await serverStore.close();
    await pglite.close();
    await server.stop();
    await rm(directory, { recursive: true, force: true });
  }
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  process.stdout.write(await run());
}
