// Runs one episode of a session on a file store and hangs in the tool of step
// `hangAt`, so the parent test can SIGKILL it mid-episode. Imports the built packages.
// Usage: node crash-child.mjs <directory> <session id> <hangAt>
import { Agent } from '@episodic/core';
import { FileSessionStore } from '@episodic/core/node';
import { scriptedModel } from '@episodic/core/testing';
import { crashScript, workTool } from './crash-script.mjs';

const [directory, id, hangAt] = process.argv.slice(2);
const agent = new Agent({
  model: scriptedModel({ steps: crashScript }),
  system: 'You fix CI.',
  tools: [workTool({ hangAt: Number(hangAt) })],
  store: new FileSessionStore({ directory, staleMs: 4_000 }),
});
const session = await agent.session({ id });
await session.send('Fix CI on main');
process.stdout.write('finished without being killed\n');
