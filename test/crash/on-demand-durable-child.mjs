// One worker of the on-demand compaction crash tests (on-demand-dbos.test.ts,
// on-demand-restate.test.ts): an agent on Claude Sonnet 4.6 (the loopback Anthropic
// server of the parent test) with on-demand compaction after every episode, on a file
// store shared with the test, serving episodes on DBOS or Restate (the built packages).
// `crash` kills the process with SIGKILL at one point of the first compaction:
// `before-request` (the step began, nothing was sent), `after-answer` (the answer came,
// the swap is not written), `after-swap` (the swap is written, the episode not ended).
// Prints `ready` once it takes work, and on Restate `warning <code>` for each warning of a run.
// Usage: node on-demand-durable-child.mjs '<json config>'
import { Agent } from '@episodic/core';
import { FileSessionStore } from '@episodic/core/node';
import { createAnthropicAdapter } from '@episodic/providers/anthropic';

const config = JSON.parse(process.argv[2] ?? '{}');
const die = () => {
  process.kill(process.pid, 'SIGKILL');
  return new Promise(() => {});
};
const model = createAnthropicAdapter({ model: 'claude-sonnet-4-6', baseURL: config.anthropicUrl, apiKey: 'test-key' });
const compact = model.compact.bind(model);
model.compact = async (request) => {
  if (config.crash === 'before-request') await die();
  return compact(request);
};
const store = new FileSessionStore({ directory: config.directory, staleMs: 1_000 });
const append = store.append.bind(store);
const swaps = (messages) => messages.some((message) => message.role === 'assistant' && message.content[0]?.type === 'compaction');
store.append = async (id, messages, options) => {
  if (config.crash === 'after-answer' && swaps(messages)) await die();
  await append(id, messages, options);
  if (config.crash === 'after-swap' && swaps(messages)) await die();
};
const compaction = { threshold: 1, keepTurns: 1, background: config.background === true };
const agent = new Agent({ model, store, context: 'hybrid', nativeContext: { compaction } });

if (config.runtime === 'dbos') {
  const { DbosEpisodes } = await import('@episodic/dbos');
  const { url: databaseUrl, schema, executorId } = config;
  await DbosEpisodes.launch({ agent, databaseUrl, schema, executorId, concurrency: 1, leaseMs: 1_000 });
} else {
  const { serveEpisodes } = await import('@episodic/restate');
  // Warnings of the runs (a background compaction run in the foreground among them) go to stdout.
  const event = (_request, happened) => happened.type === 'warning' && process.stdout.write(`warning ${happened.code}\n`);
  await serveEpisodes({ agent, port: config.port, observe: { event } });
}
process.stdout.write('ready\n');
