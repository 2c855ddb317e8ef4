// Migrates a schema on a PostgreSQL server and prints the outcome as one JSON line;
// the test kills this process's backend while the migration waits inside its
// transaction. A crash (an unheard 'error' event) ends the process without the line.
// Usage: node migrate-child.mjs <connection string> <schema>
import { PostgresSessionStore } from '@episodic/postgres';

const [connectionString, schema] = process.argv.slice(2);
const store = new PostgresSessionStore({ connectionString, schema, poolSize: 2 });
try {
  const applied = await store.migrate();
  console.log(JSON.stringify({ ok: true, applied }));
} catch (error) {
  console.log(JSON.stringify({ ok: false, name: error.constructor.name, code: error.code, message: error.message }));
}
// The pool's other connections may learn of the kill later: give them the chance to crash us.
await new Promise((resolve) => setTimeout(resolve, 500));
await store.close().catch(() => {});
console.log(JSON.stringify({ exited: 'cleanly' }));
