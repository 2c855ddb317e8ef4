// A writer that takes a session's lease, appends messages under it and waits to be
// killed (SIGKILL), leaving the lease behind as a crashed worker does. Imports the
// built packages. Usage: node crash-writer-child.mjs '<JSON config>'
//   {"kind":"file","directory":"...","staleMs":2000,"id":"s","messages":[...]}
//   {"kind":"postgres","connectionString":"...","schema":"...","leaseMs":500,"id":"s","messages":[...]}
import { FileSessionStore } from '@episodic/core/node';

const config = JSON.parse(process.argv[2]);
const store =
  config.kind === 'file'
    ? new FileSessionStore({ directory: config.directory, staleMs: config.staleMs })
    : new (await import('@episodic/postgres')).PostgresSessionStore(config);
const lease = await store.acquire(config.id);
await store.append(config.id, config.messages, { lease, expectedLength: lease.length });
process.stdout.write('held\n');
setInterval(() => {}, 60_000);
