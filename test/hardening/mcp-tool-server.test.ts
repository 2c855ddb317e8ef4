/**
 * `McpToolServer` from the attacker's side: an MCP client calling a tool that needs
 * approval straight away, a page reaching the HTTP handler through DNS rebinding or
 * from another origin, and a client opening sessions until the process runs out of
 * memory. The client is the MCP SDK's own, or raw HTTP where the SDK would be polite.
 */
import { createServer, request as httpRequest, type Server as HttpServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { autoApprove, autoReject } from '@episodic/core';
import { defineTool } from '@episodic/tools';
import { type McpHttpHandlerOptions, McpToolServer, type McpToolServerOptions } from '@episodic/tools/mcp';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { afterEach, describe, expect, it } from 'vitest';
import { z } from 'zod';

const ran: string[] = [];
const deploy = defineTool({
  name: 'deploy',
  description: 'Deploys a service.',
  input: z.object({ env: z.string() }),
  execute: ({ env }) => {
    ran.push(env);
    return `deployed to ${env}`;
  },
  needsApproval: (args) => (args as { env?: string }).env !== 'staging',
});

const opened: Array<() => Promise<void>> = [];
afterEach(async () => {
  ran.length = 0;
  for (const close of opened.splice(0)) await close();
});

async function serve(
  options: Partial<McpToolServerOptions> & { http?: McpHttpHandlerOptions } = {},
): Promise<{ url: string; server: McpToolServer }> {
  const server = await McpToolServer.create({ name: 'ops', tools: [deploy], ...options });
  const handler = server.httpHandler(options.http);
  const http: HttpServer = createServer((request, response) => void handler(request, response));
  await new Promise<void>((resolve) => http.listen(0, '127.0.0.1', resolve));
  opened.push(async () => {
    await server.close();
    http.closeAllConnections();
    await new Promise<void>((resolve) => http.close(() => resolve()));
  });
  return { url: `http://127.0.0.1:${(http.address() as AddressInfo).port}/mcp`, server };
}

async function client(url: string): Promise<Client> {
  const mcp = new Client({ name: 'attacker', version: '1.0.0' });
  await mcp.connect(new StreamableHTTPClientTransport(new URL(url)));
  opened.push(() => mcp.close());
  return mcp;
}

const initialize = JSON.stringify({
  jsonrpc: '2.0',
  id: 1,
  method: 'initialize',
  params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'raw', version: '1' } },
});

/** One raw POST, with the headers an attacker picks; resolves status, headers and body. */
function post(url: string, headers: Record<string, string>, body = initialize) {
  return new Promise<{ status: number; session?: string; body: string }>((resolve, reject) => {
    const sent = httpRequest(
      url,
      {
        method: 'POST',
        headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream', ...headers },
      },
      (response) => {
        let text = '';
        response.setEncoding('utf8');
        response.on('data', (chunk: string) => (text += chunk));
        response.on('end', () => {
          const session = response.headers['mcp-session-id'];
          resolve({ status: response.statusCode ?? 0, body: text, ...(typeof session === 'string' ? { session } : {}) });
        });
      },
    );
    sent.on('error', reject);
    sent.end(body);
  });
}

describe('McpToolServer honours needsApproval', () => {
  it('refuses a call that needs approval when the host gave no approval policy: nothing runs', async () => {
    const { url } = await serve();
    const mcp = await client(url);
    const result = await mcp.callTool({ name: 'deploy', arguments: { env: 'production' } });
    expect(result.isError).toBe(true);
    expect(JSON.stringify(result.content)).toMatch(/deploy.*needs approval.*approvalPolicy/);
    expect(ran).toEqual([]);
    // A call the predicate lets through runs as before.
    const staging = await mcp.callTool({ name: 'deploy', arguments: { env: 'staging' } });
    expect(staging.isError).toBe(false);
    expect(ran).toEqual(['staging']);
  });

  it('routes the call through the approval policy the host supplies', async () => {
    const rejecting = await client((await serve({ approvalPolicy: autoReject('no deploys on Friday') })).url);
    const refused = await rejecting.callTool({ name: 'deploy', arguments: { env: 'production' } });
    expect(refused.isError).toBe(true);
    expect(JSON.stringify(refused.content)).toMatch(/no deploys on Friday/);
    expect(ran).toEqual([]);

    const approving = await client((await serve({ approvalPolicy: autoApprove })).url);
    const done = await approving.callTool({ name: 'deploy', arguments: { env: 'production' } });
    expect(done.isError).toBe(false);
    expect(ran).toEqual(['production']);
  });
});

describe('McpToolServer.httpHandler checks who calls', () => {
  it('refuses a foreign Host (DNS rebinding) and a foreign Origin; loopback clients still work', async () => {
    const { url } = await serve();
    const port = new URL(url).port;
    expect((await post(url, { host: 'attacker.example' })).status).toBe(403);
    expect((await post(url, { host: `attacker.example:${port}` })).status).toBe(403);
    expect((await post(url, { origin: 'http://attacker.example' })).status).toBe(403);
    expect((await post(url, { origin: `http://127.0.0.1:${port}` })).status).toBe(200);
    const mcp = await client(url);
    expect((await mcp.listTools()).tools.map((tool) => tool.name)).toEqual(['deploy']);
  });

  it('widens the allow-lists when told to', async () => {
    const { url } = await serve({ http: { allowedHosts: ['tools.internal'], allowedOrigins: ['https://ide.example'] } });
    expect((await post(url, { host: 'tools.internal' })).status).toBe(200);
    expect((await post(url, { origin: 'https://ide.example' })).status).toBe(200);
    expect((await post(url, { host: 'attacker.example' })).status).toBe(403);
  });

  it('expires idle sessions', async () => {
    const { url } = await serve({ http: { sessionIdleMs: 200 } });
    const first = await post(url, {});
    expect(first.session).toBeDefined();
    await new Promise((resolve) => setTimeout(resolve, 600));
    const list = JSON.stringify({ jsonrpc: '2.0', id: 2, method: 'tools/list' });
    const stale = await post(url, { 'mcp-session-id': first.session!, 'mcp-protocol-version': '2025-06-18' }, list);
    expect(stale.status).toBe(404);
  });

  it('keeps the heap bounded under 2,000 initialize requests', async () => {
    setFlagsFromString('--expose-gc');
    const gc = runInNewContext('gc') as () => void;
    const { url } = await serve();
    const heap = () => {
      gc();
      gc();
      return process.memoryUsage().heapUsed;
    };
    const before = heap();
    const statuses = new Map<number, number>();
    for (let index = 0; index < 2_000; index += 1) {
      const { status } = await post(url, {});
      statuses.set(status, (statuses.get(status) ?? 0) + 1);
    }
    const grown = heap() - before;
    // Without a cap every session stayed: +76 MB for 2,000 sessions.
    expect(grown, `heap grew ${(grown / 1e6).toFixed(1)} MB`).toBeLessThan(20e6);
    expect(statuses.get(200)).toBeGreaterThan(0);
    expect(statuses.get(503), 'sessions beyond the cap are refused').toBeGreaterThan(0);
  }, 120_000);
});
