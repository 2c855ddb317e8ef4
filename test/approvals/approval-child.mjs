// One process of the approval restart test. Imports the built packages.
// Usage: node approval-child.mjs <directory> <store> <session id> pause|approve|reject <call id>
//   <directory>: where ran.log goes; <store>: `file` (the store lives in <directory> too),
//   or `postgres <url> <schema>` (three arguments).
//   pause:   sends the first message; prints the pending approvals as JSON and exits.
//   approve: approves <call id>, then dies by SIGKILL before resuming (a crash between approval and resume).
//   reject:  rejects <call id> with a reason and exits normally.
//   race-approve|race-reject <call id> <go file>: opens the session, adds a byte to <dir of go file>/ready, waits
//            for <go file> to exist, then decides and prints the outcome as JSON.
import { appendFileSync, existsSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { Agent } from '@episodic/core';
import { FileSessionStore } from '@episodic/core/node';
import { scriptedModel } from '@episodic/core/testing';
import { approvalScript, approvalTools } from './approval-script.mjs';

const [directory, kind, ...rest] = process.argv.slice(2);
let store;
if (kind === 'postgres') {
  const { PostgresSessionStore } = await import('@episodic/postgres');
  store = new PostgresSessionStore({ connectionString: rest.shift(), schema: rest.shift() });
} else {
  store = new FileSessionStore({ directory });
}
const [id, command, callId, goFile] = rest;
const agent = new Agent({
  model: scriptedModel({ steps: approvalScript }),
  system: 'You fix CI.',
  tools: approvalTools(directory),
  store,
});
const session = await agent.session({ id });
if (command === 'pause') {
  const result = await session.send('CI is red on main: fix it');
  process.stdout.write(JSON.stringify({ status: result.status, pending: result.pendingApprovals }));
} else if (command === 'approve') {
  await session.approve(callId, { note: 'approved from another process' });
  process.kill(process.pid, 'SIGKILL');
} else if (command === 'reject') {
  await session.reject(callId, { reason: 'not on a Friday' });
} else if (command === 'race-approve' || command === 'race-reject') {
  appendFileSync(join(dirname(goFile), 'ready'), 'x');
  while (!existsSync(goFile)) await new Promise((resolve) => setTimeout(resolve, 2));
  const decide = command === 'race-approve' ? session.approve(callId) : session.reject(callId, { reason: 'raced' });
  const outcome = await decide.then(() => ({ ok: true }), (error) => ({ ok: false, code: error.code, message: error.message }));
  process.stdout.write(`${JSON.stringify(outcome)}\n`);
} else {
  throw new Error(`unknown command ${command}`);
}
await store.close?.();
