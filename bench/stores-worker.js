/**
 * One worker process of the stores benchmark: on 'go', takes sessions of its own
 * (lease, 10 steps, release) for `seconds` and reports the steps it stored.
 */
import { PostgresSessionStore } from '@episodic/postgres';
import { stepMessages } from './step-messages.js';

const { url, schema, worker, seconds } = JSON.parse(process.argv[2]);
const store = new PostgresSessionStore({ connectionString: url, schema, poolSize: 2 });
await store.list(); // connects and migrates before the clock starts
process.send('ready');
await new Promise((resolve) => process.once('message', resolve));
const deadline = performance.now() + seconds * 1000;
let steps = 0;
for (let session = 0; performance.now() < deadline; session += 1) {
  const id = `worker-${worker}-${session}`;
  const lease = await store.acquire(id);
  let length = lease.length;
  for (let step = 0; step < 10; step += 1) {
    const messages = stepMessages(step);
    await store.append(id, messages, { lease, expectedLength: length });
    length += messages.length;
    steps += 1;
  }
  await lease.release();
}
process.send({ steps });
await store.close();
process.disconnect();
