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
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { AgentTool, ApprovalPolicy, ToolCallPart } from '@episodic/core';
import { approvalRequest, executeToolCall } from '@episodic/core/internal';
import type { Server } from '@modelcontextprotocol/sdk/server/index.js';
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import { type McpHttpHandlerOptions, mcpHttpHandler } from './mcp-http-handler.js';

/** What {@link McpToolServer.create} takes. */
export interface McpToolServerOptions {
  /** The server name clients see. */
  name: string;
  version?: string;
  tools: readonly AgentTool[];
  /** Timeout of a call whose tool sets none, in ms. Default 120,000 (as in the agent loop). */
  toolTimeoutMs?: number;
  /**
   * Decides calls of tools with `needsApproval` (there is no person in an MCP call to
   * ask). Without it, or when it gives no decision, such a call is refused with an
   * error result and does not run.
   */
  approvalPolicy?: ApprovalPolicy;
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
      const refused = await this.approvalRefusal(call, extra.sessionId ?? 'mcp');
      if (refused) return { content: [{ type: 'text' as const, text: refused }], isError: true };
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
   * By default it answers loopback `Host` names only and no foreign `Origin` (403),
   * keeps at most 100 sessions (503 beyond) and closes a session idle for 10 minutes;
   * see {@link McpHttpHandlerOptions} to widen or narrow that.
   */
  httpHandler(options: McpHttpHandlerOptions = {}): (request: IncomingMessage, response: ServerResponse) => Promise<void> {
    return mcpHttpHandler(this.sdk.StreamableHTTPServerTransport, (transport) => this.connect(transport), options);
  }

  /** Why a call that needs approval may not run (the text of its error result), or undefined when it may. */
  private async approvalRefusal(call: ToolCallPart, sessionId: string): Promise<string | undefined> {
    const request = await approvalRequest(call, this.tools.get(call.name), sessionId);
    if (!request) return undefined;
    const refused = `Tool "${call.name}" needs approval`;
    const policy = this.options.approvalPolicy;
    if (!policy) {
      return `${refused}, and this MCP server has no approvalPolicy to decide it: the call was refused and did not run.`;
    }
    const decision = await Promise.resolve()
      .then(() => policy(request))
      .catch((error: unknown) => error as Error);
    if (decision instanceof Error) return `${refused}; the approval policy failed (${decision.message}): the call did not run.`;
    if (!decision) return `${refused}; the approval policy gave no decision: the call was refused and did not run.`;
    if (decision.decision === 'rejected') {
      return `${refused}; the approval policy rejected it${decision.reason ? `: ${decision.reason}` : ''}. The call did not run.`;
    }
    return undefined;
  }

  /** Closes every client session. */
  async close(): Promise<void> {
    await Promise.all([...this.sessions].map((session) => session.close()));
  }
}
