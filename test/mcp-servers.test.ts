/**
 * MCP tool sources against real servers started by the test: the published
 * reference filesystem server (from node_modules, over stdio), a server written with
 * the SDK's `McpServer` API (image and resource content, a slow tool), and
 * Episodic's own `McpToolServer` over Streamable HTTP (tool-list changes). An agent
 * on the scripted model calls the tools through the real agent loop.
 */
import { randomUUID } from 'node:crypto';
import { createServer, type Server as HttpServer } from 'node:http';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Agent, type AgentTool, EpisodicError, type ToolMessage } from '@episodic/core';
import { scriptedModel, type ScriptToolCall } from '@episodic/core/testing';
import { defineTool } from '@episodic/tools';
import { connectMcpServer, type McpConnection, McpToolServer } from '@episodic/tools/mcp';
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';

const filesystemServer = fileURLToPath(
  new URL('../node_modules/@modelcontextprotocol/server-filesystem/dist/index.js', import.meta.url),
);

/** Runs one episode in which the model calls `calls` (in one step), then answers; returns the tool results. */
async function callThroughAgent(tools: readonly AgentTool[], calls: ScriptToolCall[], toolTimeoutMs?: number) {
  const model = scriptedModel({ steps: [{ toolCalls: calls }, { text: 'done' }] });
  const agent = new Agent({ model, tools, context: { budget: 50_000 }, toolCalls: { timeoutMs: toolTimeoutMs } });
  const session = await agent.session();
  await session.send('go');
  return session.messages.filter((message): message is ToolMessage => message.role === 'tool');
}

/** Listens on a free loopback port and returns the base URL. */
async function listen(server: HttpServer): Promise<string> {
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

describe('the reference filesystem server over stdio', () => {
  let root: string;
  let mcp: McpConnection;

  beforeAll(async () => {
    root = await mkdtemp(join(tmpdir(), 'episodic-mcp-fs-'));
    await mkdir(join(root, 'logs'));
    await writeFile(join(root, 'logs', 'run-42.txt'), 'step 3 failed: expected 2, got 3\n');
    await writeFile(join(root, 'pixel.png'), Buffer.from('89504e470d0a1a0a0000000d49484452', 'hex'));
    mcp = await connectMcpServer({ command: process.execPath, args: [filesystemServer, root], prefix: 'fs_' });
  }, 60_000);

  afterAll(async () => {
    await mcp?.close();
    await rm(root, { recursive: true, force: true });
  });

  it('lists its tools sorted, prefixed and byte-identical on every listing and connection', async () => {
    const tools = await mcp.tools();
    const names = tools.map((tool) => tool.spec.name);
    expect(names).toContain('fs_read_text_file');
    expect(names).toContain('fs_list_directory');
    expect(names).toEqual([...names].sort());
    expect(await mcp.tools()).toBe(tools);
    const again = await connectMcpServer({ command: process.execPath, args: [filesystemServer, root], prefix: 'fs_' });
    try {
      expect(JSON.stringify((await again.tools()).map((tool) => tool.spec))).toBe(
        JSON.stringify(tools.map((tool) => tool.spec)),
      );
    } finally {
      await again.close();
    }
    expect(mcp.name).toBe('secure-filesystem-server');
  });

  it('runs its tools in an agent: results, refusals outside its root, bad arguments, images as descriptions', async () => {
    const results = await callThroughAgent(await mcp.tools(), [
      { name: 'fs_read_text_file', args: { path: join(root, 'logs', 'run-42.txt') } },
      { name: 'fs_read_text_file', args: { path: '/etc/hostname' } },
      { name: 'fs_read_text_file', args: { file: 'run-42.txt' } },
      { name: 'fs_read_media_file', args: { path: join(root, 'pixel.png') } },
      // OpenAI strict mode sends null for an optional field; it is left out before the server sees it.
      { name: 'fs_read_text_file', args: { path: join(root, 'logs', 'run-42.txt'), head: null, tail: null } },
    ]);
    expect(results.map((result) => result.isError)).toEqual([false, true, true, false, false]);
    expect(results[0]!.content).toBe('step 3 failed: expected 2, got 3\n');
    expect(results[1]!.content).toMatch(/Access denied|outside allowed directories/i);
    expect(results[2]!.content).toMatch(/path/);
    expect(results[3]!.content).toBe('[image image/png, 16 bytes]');
    expect(results[4]!.content).toBe(results[0]!.content);
  });
});

/** A server written with the SDK's high-level API: image and resource content, an error result, a slow tool. */
function mediaServer(): McpServer {
  const server = new McpServer({ name: 'media-server', version: '1.0.0' });
  server.registerTool('screenshot', { description: 'Takes a screenshot.', inputSchema: {} }, async () => ({
    content: [
      { type: 'text', text: 'The dashboard:' },
      { type: 'image', data: Buffer.alloc(300).toString('base64'), mimeType: 'image/png' },
      { type: 'resource', resource: { uri: 'memo://build', mimeType: 'text/plain', text: 'build 7 is red' } },
    ],
  }));
  server.registerTool('fail', { description: 'Always fails.', inputSchema: {} }, async () => ({
    content: [{ type: 'text', text: 'the CI API is down' }],
    isError: true,
  }));
  server.registerTool(
    'slow',
    { description: 'Waits until cancelled.', inputSchema: { seconds: z.number() } },
    (_input, extra) =>
      new Promise((resolve) => {
        extra.signal.addEventListener('abort', () => {
          cancelled += 1;
          resolve({ content: [{ type: 'text', text: 'cancelled' }] });
        });
      }),
  );
  return server;
}
let cancelled = 0;

describe('a server written with the SDK server API, over Streamable HTTP', () => {
  let http: HttpServer;
  let url: string;

  beforeAll(async () => {
    // Stateful, one protocol session per client, so that a cancellation reaches the call it cancels.
    const sessions = new Map<string, StreamableHTTPServerTransport>();
    http = createServer(async (request, response) => {
      if (!request.url?.startsWith('/mcp')) return void response.writeHead(404).end('no MCP here');
      const id = request.headers['mcp-session-id'];
      let transport = typeof id === 'string' ? sessions.get(id) : undefined;
      if (!transport) {
        const created = new StreamableHTTPServerTransport({
          sessionIdGenerator: () => randomUUID(),
          onsessioninitialized: (sessionId) => void sessions.set(sessionId, created),
        });
        await mediaServer().connect(created);
        transport = created;
      }
      await transport.handleRequest(request, response);
    });
    url = `${await listen(http)}/mcp`;
  }, 60_000);

  afterAll(() => new Promise<void>((resolve) => http.close(() => resolve())));

  it('maps isError results, image and resource content, and aborts a call that times out', async () => {
    const mcp = await connectMcpServer({ url, headers: { authorization: 'Bearer test-token' } });
    try {
      const tools = await mcp.tools();
      expect(tools.map((tool) => tool.spec.name)).toEqual(['fail', 'screenshot', 'slow']);
      // Long enough for the call to reach the server on a loaded machine before it times out.
      const slow = { ...tools[2]!, timeoutMs: 2_000 };
      const results = await callThroughAgent([tools[0]!, tools[1]!, slow], [
        { name: 'screenshot' },
        { name: 'fail' },
        { name: 'slow', args: { seconds: 60 } },
      ]);
      expect(results[0]).toMatchObject({
        isError: false,
        content: 'The dashboard:\n\n[image image/png, 300 bytes]\n\n[resource memo://build text/plain]\nbuild 7 is red',
      });
      expect(results[1]).toMatchObject({ isError: true, content: 'the CI API is down' });
      expect(results[2]).toMatchObject({ isError: true, content: 'Tool "slow" timed out after 2000 ms.' });
      // The timeout aborted the call's signal, and the client told the server to cancel.
      await expect.poll(() => cancelled, { timeout: 15_000 }).toBe(1);
    } finally {
      await mcp.close();
    }
  });

  it('refuses calls after close, and fails to connect with the reason', async () => {
    const mcp = await connectMcpServer({ url });
    const [tool] = await mcp.tools();
    await mcp.close();
    expect(mcp.isClosed).toBe(true);
    const [result] = await callThroughAgent([tool!], [{ name: 'fail' }]);
    expect(result).toMatchObject({ isError: true, content: expect.stringMatching(/connection to MCP server "media-server" is closed/) });
    await expect(mcp.tools()).rejects.toMatchObject({ code: 'mcp_closed' });
    await expect(connectMcpServer({ url: url.replace(/\/mcp$/, '/nowhere'), connectTimeoutMs: 5_000 })).rejects.toMatchObject({
      code: 'mcp_connect_failed',
    });
  });
});

describe('McpToolServer: Episodic tools served over Streamable HTTP', () => {
  const note = (name: string) =>
    defineTool({
      name,
      description: `Reads the ${name} note.`,
      input: z.object({ id: z.int() }),
      execute: ({ id }) => `${name} ${id}`,
    });

  it('serves tools with their validation, and tells clients when the tool list changes', async () => {
    const toolServer = await McpToolServer.create({ name: 'notes', tools: [note('daily')] });
    const handler = toolServer.httpHandler();
    const http = createServer((request, response) => void handler(request, response));
    const mcp = await connectMcpServer({ url: `${await listen(http)}/mcp` });
    try {
      const first = await mcp.tools();
      const results = await callThroughAgent(first, [
        { name: 'daily', args: { id: 7 } },
        { name: 'daily', args: { id: 'seven' } },
      ]);
      expect(results.map((result) => [result.isError, result.content])).toEqual([
        [false, 'daily 7'],
        [true, expect.stringMatching(/Invalid arguments for tool daily: id: expected number, got string/)],
      ]);

      let changed = 0;
      mcp.onToolsChanged(() => {
        changed += 1;
      });
      await toolServer.setTools([note('daily'), note('weekly')]);
      await expect.poll(() => changed).toBe(1);
      const second = await mcp.tools();
      expect(second.map((tool) => tool.spec.name)).toEqual(['daily', 'weekly']);
      expect(JSON.stringify(second[0]!.spec)).toBe(JSON.stringify(first[0]!.spec));
    } finally {
      await mcp.close();
      await toolServer.close();
      await new Promise<void>((resolve) => http.close(() => resolve()));
    }
  });
});

describe('connecting to a command that is not an MCP server', () => {
  it('fails with the command and its stderr', async () => {
    const failing = connectMcpServer({
      command: process.execPath,
      args: ['-e', 'console.error("config file missing: mcp.json"); process.exit(3)'],
      connectTimeoutMs: 10_000,
    });
    await expect(failing).rejects.toSatisfy((error: unknown) => EpisodicError.isInstance(error));
    await expect(failing).rejects.toMatchObject({
      code: 'mcp_connect_failed',
      message: expect.stringContaining('config file missing: mcp.json'),
    });
  });
});
