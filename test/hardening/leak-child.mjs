// Runs an agent whose tools meet the planted keys in every way they can, on a file
// store, printing every event as a JSON line. Imports the built packages.
// Usage: node leak-child.mjs <store directory> <tool root>   (keys come from the environment)
import { mkdirSync, writeFileSync } from 'node:fs';
import { Agent } from '@episodic/core';
import { FileSessionStore } from '@episodic/core/node';
import { scriptedModel } from '@episodic/core/testing';
import { fileTools, runCommandTool } from '@episodic/tools';

const [directory, root] = process.argv.slice(2);
const key = process.env.OPENAI_API_KEY;
const token = process.env.ACME_SERVICE_TOKEN;
mkdirSync(root, { recursive: true });
writeFileSync(`${root}/config.txt`, `endpoint=https://api.example.com\napi_key=${key}\ntoken=${token}\n`);
writeFileSync(`${root}/notes-${token}.txt`, 'a file named after a token');
const custom = {
  spec: { name: 'custom', description: 'A custom tool.', inputSchema: { type: 'object' } },
  execute: async ({ fail }) => {
    if (fail) throw new Error(`upstream refused key ${key}`);
    return { content: `the service token is ${token}` };
  },
};
const calls = [
  { name: 'read_file', args: { path: 'config.txt' } },
  { name: 'search_text', args: { pattern: 'api_key|token=' } },
  { name: 'list_files', args: { path: '.' } },
  { name: 'run_command', args: { argv: ['sh', '-c', 'cat /proc/$PPID/environ'] } },
  { name: 'run_command', args: { argv: ['cat', `/proc/${process.pid}/environ`] } },
  { name: 'run_command', args: { argv: ['printenv', 'ACME_SERVICE_TOKEN'] } },
  { name: 'run_command', args: { argv: [key] } },
  { name: 'custom', args: {} },
  { name: 'custom', args: { fail: true } },
];
const model = scriptedModel({
  steps: [
    { toolCalls: calls.map((call, index) => ({ id: `c${index}`, ...call })) },
    { error: { kind: 'auth', message: `Incorrect API key provided: ${key}`, status: 401 } },
  ],
});
const agent = new Agent({
  model,
  tools: [...fileTools({ root }), runCommandTool({ root, env: ['ACME_SERVICE_TOKEN'] }), custom],
  store: new FileSessionStore({ directory }),
  context: { budget: 100_000 },
});
const session = await agent.session({ id: 's' });
const print = (value) => process.stdout.write(`${JSON.stringify(value, (_name, field) => (field instanceof Error ? { message: field.message, stack: field.stack } : field))}\n`);
try {
  await session.send('go', { onEvent: print });
} catch (error) {
  print({ type: 'thrown', message: error.message, stack: error.stack });
}
