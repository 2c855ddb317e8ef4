/**
 * `McpToolServer`: Episodic tools served to any MCP client (another agent, an IDE,
 * a desktop assistant) over stdio or Streamable HTTP, with the official SDK's server.
 *
 * Calls run through the agent loop's own executor, so a served tool validates its
 * input, honours its timeout and the client's cancellation, and reports failures
 * as `isError` results exactly as it does inside an Episodic agent.
 *
 * The SDK's low-level `Server` is used rather than `McpServer`: Episodic tools carry
 * a JSON Schema already, which `McpServer` would want as zod shapes.
 *
 * @see https://modelcontextprotocol.io/specification/2025-06-18/server/tools
 */
import { randomUUID } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { AgentTool } from '@episodic/core';
import { executeToolCall } from '@episodic/core/internal';
import type { Server } from '@modelcontextprotocol/sdk/server/index.js';
import type { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';

/** What {@link McpToolServer.create} takes. */
export interface McpToolServerOptions {
  /** The server name clients see. */
  name: string;
  version?: string;
  tools: readonly AgentTool[];
  /** Timeout of a call whose tool sets none, in ms. Default 120,000 (as in the agent loop). */
  toolTimeoutMs?: number;
}

type ServerSdk = Awaited<ReturnType<typeof loadServerSdk>>;

async function loadServerSdk() {
  const [server, stdio, http, types] = await Promise.all([
    import('@modelcontextprotocol/sdk/server/index.js'),
    import('@modelcontextprotocol/sdk/server/stdio.js'),
    import('@modelcontextprotocol/sdk/server/streamableHttp.js'),
    import('@modelcontextprotocol/sdk/types.js'),
  ]);
  return {
    Server: server.Server,
    StdioServerTransport: stdio.StdioServerTransport,
    StreamableHTTPServerTransport: http.StreamableHTTPServerTransport,
    ListToolsRequestSchema: types.ListToolsRequestSchema,
    CallToolRequestSchema: types.CallToolRequestSchema,
    McpError: types.McpError,
    ErrorCode: types.ErrorCode,
  };
}

/** Serves a set of tools; every connected client gets its own protocol session. */
export class McpToolServer {
  private tools: Map<string, AgentTool>;
  private readonly sessions = new Set<Server>();

  private constructor(
    private readonly sdk: ServerSdk,
    private readonly options: McpToolServerOptions,
  ) {
    this.tools = new Map(options.tools.map((tool) => [tool.spec.name, tool]));
  }

  /** Loads the SDK and builds the server (nothing listens yet). */
  static async create(options: McpToolServerOptions): Promise<McpToolServer> {
    return new McpToolServer(await loadServerSdk(), options);
  }

  /** Replaces the tool set and tells every connected client (`notifications/tools/list_changed`). */
  async setTools(tools: readonly AgentTool[]): Promise<void> {
    this.tools = new Map(tools.map((tool) => [tool.spec.name, tool]));
    await Promise.all([...this.sessions].map((session) => session.sendToolListChanged()));
  }

  /** Serves one client over a transport of your choice. */
  async connect(transport: Transport): Promise<void> {
    const session = new this.sdk.Server(
      { name: this.options.name, version: this.options.version ?? '0.1.0' },
      { capabilities: { tools: { listChanged: true } } },
    );
    session.setRequestHandler(this.sdk.ListToolsRequestSchema, () => ({
      tools: [...this.tools.values()].map(({ spec }) => ({
        name: spec.name,
        description: spec.description,
        inputSchema: spec.inputSchema as { type: 'object' },
      })),
    }));
    session.setRequestHandler(this.sdk.CallToolRequestSchema, async (request, extra) => {
      const { name, arguments: args } = request.params;
      if (!this.tools.has(name)) {
        const known = [...this.tools.keys()].join(', ') || 'none';
        throw new this.sdk.McpError(this.sdk.ErrorCode.InvalidParams, `Unknown tool "${name}". Tools: ${known}.`);
      }
      const call = { type: 'tool-call' as const, id: String(extra.requestId), name, args: args ?? {} };
      const output = await executeToolCall(call, {
        tools: this.tools,
        signal: extra.signal,
        timeoutMs: this.options.toolTimeoutMs,
      });
      return { content: [{ type: 'text' as const, text: output.content }], isError: output.isError === true };
    });
    session.onclose = () => this.sessions.delete(session);
    await session.connect(transport);
    this.sessions.add(session);
  }

  /** Serves the client on this process's stdin and stdout (for a server started by `connectMcpServer({ command })`). */
  serveStdio(): Promise<void> {
    return this.connect(new this.sdk.StdioServerTransport());
  }

  /**
   * A Node `http` request handler speaking Streamable HTTP, with one protocol
   * session per client (`Mcp-Session-Id`). Mount it on the path of your choice.
   */
  httpHandler(): (request: IncomingMessage, response: ServerResponse) => Promise<void> {
    const transports = new Map<string, StreamableHTTPServerTransport>();
    return async (request, response) => {
      const id = request.headers['mcp-session-id'];
      let transport = typeof id === 'string' ? transports.get(id) : undefined;
      if (!transport && id !== undefined) {
        response.writeHead(404, { 'content-type': 'application/json' });
        response.end(JSON.stringify({ jsonrpc: '2.0', error: { code: -32001, message: 'Session not found' }, id: null }));
        return;
      }
      if (!transport) {
        const created = new this.sdk.StreamableHTTPServerTransport({
          sessionIdGenerator: () => randomUUID(),
          onsessioninitialized: (sessionId) => void transports.set(sessionId, created),
        });
        created.onclose = () => void (created.sessionId && transports.delete(created.sessionId));
        await this.connect(created);
        transport = created;
      }
      await transport.handleRequest(request, response);
    };
  }

  /** Closes every client session. */
  async close(): Promise<void> {
    await Promise.all([...this.sessions].map((session) => session.close()));
  }
}
