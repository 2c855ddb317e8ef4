#!/usr/bin/env node
/**
 * The CI debugger's tools as an MCP server on stdio: any MCP client (another agent,
 * an IDE) can list the recorded CI runs, read their logs and the project, run the
 * tests and try patches. `node dist/mcp-server.js [--project DIR] [--logs DIR]`
 * serves the bundled fixture by default.
 */
import { parseArgs } from 'node:util';
import { McpToolServer } from '@episodic/tools/mcp';
import { FIXTURE_LOGS, FIXTURE_PROJECT } from './fixture-paths.js';
import { ciDebuggerTools } from './tools/index.js';

const { values } = parseArgs({
  options: { project: { type: 'string' }, logs: { type: 'string' } },
});
const { tools, scratch } = ciDebuggerTools({
  project: values.project ?? FIXTURE_PROJECT,
  logs: values.logs ?? FIXTURE_LOGS,
});
const server = await McpToolServer.create({ name: 'ci-debugger', tools, toolTimeoutMs: 180_000 });
// The client ends the server by closing stdin; the scratch copy goes with it.
process.stdin.on('close', () => {
  void scratch.dispose().finally(() => process.exit(0));
});
await server.serveStdio();
