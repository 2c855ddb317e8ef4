/**
 * `connectMcpServer` against hostile MCP servers that speak the real protocol (the
 * MCP SDK's own server classes over Streamable HTTP): one whose `tools/list` pages
 * never end, one listing a tool whose schema is nested 2,000 deep. Listing must
 * settle with a typed `mcp_list_failed`, not run forever or throw a bare RangeError.
 */
import { randomUUID } from 'node:crypto';
import { createServer, type Server as HttpServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { connectMcpServer, McpServerError } from '@episodic/tools';
import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import { ListToolsRequestSchema } from '@modelcontextprotocol/sdk/types.js';
import { afterEach, describe, expect, it } from 'vitest';

type Lister = (cursor: string | undefined) => { tools: unknown[]; nextCursor?: string };

const servers: HttpServer[] = [];
afterEach(async () => {
  for (const server of servers.splice(0)) {
    server.closeAllConnections();
    await new Promise<void>((resolve) => server.close(() => resolve()));
  }
});

/** A hostile server: its tools/list answers with `list`. */
async function hostile(list: Lister): Promise<string> {
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
      await server.connect(created);
      transport = created;
    }
    await transport.handleRequest(request, response);
  });
  servers.push(http);
  await new Promise<void>((resolve) => http.listen(0, '127.0.0.1', resolve));
  return `http://127.0.0.1:${(http.address() as AddressInfo).port}/mcp`;
}

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
});
