/**
 * The CI debugger with every tool coming from its MCP server (dist/mcp-server.js,
 * started over stdio): the offline model investigates the flaky CI through the MCP
 * protocol and ends with the same verified fix as with in-process tools.
 */
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { assistantText, type ToolMessage, toolCallsOf } from '@episodic/core';
import { connectMcpServer, type McpConnection } from '@episodic/tools/mcp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createCiDebugger, DEFAULT_TASK } from './agent.js';
import { FIXTURE_LOGS, FIXTURE_PROJECT } from './fixture-paths.js';
import { offlineModel } from './offline-model.js';
import { ciDebuggerTools } from './tools/index.js';

const serverScript = fileURLToPath(new URL('../dist/mcp-server.js', import.meta.url));

describe('the CI debugger on tools from its MCP server', () => {
  let mcp: McpConnection;

  beforeAll(async () => {
    if (!existsSync(serverScript)) {
      throw new Error(`${serverScript} is missing: build the workspace first (npm run build).`);
    }
    mcp = await connectMcpServer({ command: process.execPath, args: [serverScript], name: 'ci-debugger' });
  }, 60_000);

  afterAll(() => mcp?.close());

  it('lists the same tools the example defines in process', async () => {
    const local = ciDebuggerTools({ project: FIXTURE_PROJECT, logs: FIXTURE_LOGS });
    await local.scratch.dispose();
    const specs = local.tools.map((tool) => tool.spec).sort((a, b) => (a.name < b.name ? -1 : 1));
    expect((await mcp.tools()).map((tool) => tool.spec)).toEqual(specs);
  });

  it('finds and verifies the fix with every tool call going through MCP', async () => {
    const tools = await mcp.tools();
    const { agent, scratch } = createCiDebugger({ model: offlineModel({ latencyMs: 0 }), customizeTools: () => tools });
    try {
      const session = await agent.session();
      const result = await session.send(DEFAULT_TASK);
      expect(result.reason).toBe('done');
      expect(result.text).toMatch(/\*\*Verified fix\*\*: on the patched copy the same seeded batch fails 0\/40 runs/);
      const calls = session.messages.flatMap((message) => (message.role === 'assistant' ? toolCallsOf(message) : []));
      const names = new Set(calls.map((call) => call.name));
      for (const name of ['list_ci_runs', 'get_ci_log', 'read_file', 'run_tests', 'apply_patch', 'run_tests_on_patched']) {
        expect(names).toContain(name);
      }
      const results = session.messages.filter((message): message is ToolMessage => message.role === 'tool');
      expect(results).toHaveLength(calls.length);
      expect(results.filter((message) => message.isError)).toEqual([]);
      expect(assistantText(result.message!)).toContain('## Root cause');
    } finally {
      await scratch.dispose();
    }
  }, 300_000);
});
