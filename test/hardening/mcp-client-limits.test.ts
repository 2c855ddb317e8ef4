/**
 * `connectMcpServer` against hostile MCP servers that speak the real protocol (the
 * MCP SDK's own server classes over Streamable HTTP): one whose `tools/list` pages
 * never end, one listing a tool whose schema is nested 2,000 deep. Listing must
 * settle with a typed `mcp_list_failed`, not run forever or throw a bare RangeError.
 * And a stdio server whose tool answers with 12 MB, past the SDK's 10 MiB read buffer:
 * that call is a clear error result, and the next call on the same tools works.
 */
import { randomUUID } from 'node:crypto';
import { createServer, type Server as HttpServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { fileURLToPath } from 'node:url';
import { Agent, type AgentTool, type ToolMessage } from '@episodic/core';
import { scriptedModel, type ScriptToolCall } from '@episodic/core/testing';
import { connectMcpServer, McpServerError } from '@episodic/tools/mcp';
import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import { CallToolRequestSchema, ListToolsRequestSchema } from '@modelcontextprotocol/sdk/types.js';
import { afterEach, describe, expect, it } from 'vitest';

type Lister = (cursor: string | undefined) => { tools: unknown[]; nextCursor?: string };

const servers: HttpServer[] = [];
afterEach(async () => {
  for (const server of servers.splice(0)) {
    server.closeAllConnections();
    await new Promise<void>((resolve) => server.close(() => resolve()));
  }
});

/** A hostile server: its tools/list answers with `list`, its tools/call with `call`. */
async function hostile(list: Lister, call: () => unknown = () => ({ content: [] })): Promise<string> {
  const sessions = new Map<string, StreamableHTTPServerTransport>();
  const http = createServer(async (request, response) => {
    const id = request.headers['mcp-session-id'];
    let transport = typeof id === 'string' ? sessions.get(id) : undefined;
    if (!transport) {
      const created = new StreamableHTTPServerTransport({
        sessionIdGenerator: () => randomUUID(),
        onsessioninitialized: (sessionId) => void sessions.set(sessionId, created),
      });
      const server = new Server({ name: 'hostile', version: '1.0.0' }, { capabilities: { tools: {} } });
      server.setRequestHandler(ListToolsRequestSchema, (request) => list(request.params?.cursor) as never);
      server.setRequestHandler(CallToolRequestSchema, () => call() as never);
      await server.connect(created);
      transport = created;
    }
    await transport.handleRequest(request, response);
  });
  servers.push(http);
  await new Promise<void>((resolve) => http.listen(0, '127.0.0.1', resolve));
  return `http://127.0.0.1:${(http.address() as AddressInfo).port}/mcp`;
}

/** Runs one episode in which the model calls `calls` (in one step); returns the tool results. */
async function callThroughAgent(tools: readonly AgentTool[], calls: ScriptToolCall[]): Promise<ToolMessage[]> {
  const model = scriptedModel({ steps: [{ toolCalls: calls }, { text: 'done' }] });
  const session = await new Agent({ model, tools, context: { budget: 50_000 } }).session();
  await session.send('go');
  return session.messages.filter((message): message is ToolMessage => message.role === 'tool');
}

const hugeResultServer = fileURLToPath(new URL('./mcp-huge-result-server.mjs', import.meta.url));

const tool = (name: string, inputSchema: object = { type: 'object' }) => ({ name, description: name, inputSchema });

describe('MCP client limits against a hostile server', () => {
  it('settles a listing whose nextCursor never ends with mcp_list_failed', async () => {
    let pages = 0;
    const url = await hostile((cursor) => {
      pages += 1;
      return { tools: [tool(`t${pages}`)], nextCursor: `${Number(cursor ?? 0) + 1}` };
    });
    const mcp = await connectMcpServer({ url, maxListPages: 50 });
    try {
      const error = await mcp.tools().catch((caught: unknown) => caught);
      expect(error).toBeInstanceOf(McpServerError);
      expect(error).toMatchObject({ code: 'mcp_list_failed', message: expect.stringMatching(/more than 50 pages/) });
      expect(pages).toBe(50);
    } finally {
      await mcp.close();
    }
  });

  it('caps the tools listed', async () => {
    const url = await hostile(() => ({ tools: Array.from({ length: 300 }, (_, index) => tool(`t${index}`)) }));
    const mcp = await connectMcpServer({ url, maxTools: 100 });
    try {
      await expect(mcp.tools()).rejects.toMatchObject({ code: 'mcp_list_failed', message: expect.stringMatching(/more than 100 tools/) });
    } finally {
      await mcp.close();
    }
  });

  it('refuses a schema nested 2,000 deep with mcp_list_failed naming the tool, not a bare RangeError', async () => {
    let schema: object = { type: 'string' };
    for (let depth = 0; depth < 2_000; depth += 1) schema = { type: 'object', properties: { inner: schema } };
    const url = await hostile(() => ({ tools: [tool('fine'), tool('abyss', schema)] }));
    const mcp = await connectMcpServer({ url });
    try {
      const error = await mcp.tools().catch((caught: unknown) => caught);
      expect(error).toBeInstanceOf(McpServerError);
      expect(error).toMatchObject({ code: 'mcp_list_failed', message: expect.stringMatching(/"abyss".*nested deeper than/) });
    } finally {
      await mcp.close();
    }
  });

  it('turns a 12 MB result (past the stdio read buffer) into an error result, and the next call works', async () => {
    let starts = 0;
    const mcp = await connectMcpServer({
      command: process.execPath,
      args: [hugeResultServer],
      maxResultChars: 1_000,
      onStderr: (text) => void (starts += text.split('started').length - 1),
    });
    try {
      const tools = await mcp.tools();
      const [huge] = await callThroughAgent(tools, [{ name: 'dump', args: { bytes: 12_000_000 } }]);
      expect(huge).toMatchObject({
        isError: true,
        content: expect.stringMatching(/tool "dump" of MCP server "huge-results".*larger than 10,485,760 bytes/),
      });
      // The same tool objects, on the same connection object, still work afterwards.
      const [small] = await callThroughAgent(tools, [{ name: 'dump', args: { bytes: 500 } }]);
      expect(small).toMatchObject({ isError: false, content: 'x'.repeat(500) });
      expect(mcp.isClosed).toBe(false);
      expect(starts).toBe(2);
      await expect(mcp.tools()).resolves.toHaveLength(1);
    } finally {
      await mcp.close();
    }
  }, 60_000);

  it('caps a 12 MB result over Streamable HTTP (no line limit there) at maxResultChars', async () => {
    const url = await hostile(
      () => ({ tools: [tool('dump')] }),
      () => ({ content: [{ type: 'text', text: 'y'.repeat(12_000_000) }] }),
    );
    const mcp = await connectMcpServer({ url, maxResultChars: 1_000 });
    try {
      const [result] = await callThroughAgent(await mcp.tools(), [{ name: 'dump', args: {} }]);
      expect(result!.isError).toBe(false);
      expect(result!.content.length).toBeLessThan(1_200);
      expect(result!.content).toMatch(/^y+[^y]+y+$/);
    } finally {
      await mcp.close();
    }
  }, 60_000);
});
