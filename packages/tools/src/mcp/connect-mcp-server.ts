/**
 * `connectMcpServer`: tools from a Model Context Protocol server, over stdio (a
 * command this process starts) or Streamable HTTP (a URL), with the official SDK's
 * client.
 *
 * ```ts
 * const mcp = await connectMcpServer({ command: 'node', args: ['server.js'] });
 * const agent = new Agent({ model, tools: [...(await mcp.tools()), ...fileTools({ root })] });
 * // ... run sessions ...
 * await mcp.close();
 * ```
 *
 * The SDK is loaded when the first server is connected, so importing
 * `@episodic/tools` does not load it.
 *
 * @see https://modelcontextprotocol.io/specification/2025-06-18/basic/transports
 */
import type { AgentTool } from '@episodic/core';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import type { RequestOptions } from '@modelcontextprotocol/sdk/shared/protocol.js';
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import type { ToolListChangedNotificationSchema } from '@modelcontextprotocol/sdk/types.js';
import { McpServerError } from './mcp-errors.js';
import { mcpAgentTool } from './mcp-tool.js';
import { type McpToolSpec, mcpToolSpecs } from './mcp-tool-spec.js';

/** A server started as a child process, spoken to over its stdin and stdout. */
export interface McpStdioServer {
  command: string;
  args?: readonly string[];
  /**
   * Extra environment variables. The child sees only these plus a few harmless
   * defaults (`PATH`, `HOME`, `USER`, ...), never this process's whole environment,
   * so API keys do not leak into servers that do not need them.
   */
  env?: Record<string, string>;
  cwd?: string;
  /** Receives the server's stderr (the last 4,000 characters are also quoted when it fails to start). */
  onStderr?: (text: string) => void;
}

/** A server reached over Streamable HTTP. */
export interface McpHttpServer {
  url: string | URL;
  /** Sent with every request (e.g. `Authorization`); never written to messages or logs. */
  headers?: Record<string, string>;
}

/** Options for any server. */
export interface McpConnectOptions {
  /** The name used in messages. Default: the name the server gives, else the command or host. */
  name?: string;
  /** Put before every tool name, e.g. `fs_`, to keep two servers' tools apart. Default none. */
  prefix?: string;
  /** Timeout of each tool call; default the agent's `toolCalls.timeoutMs`. */
  toolTimeoutMs?: number;
  /** How long connecting (start plus handshake) may take. Default 30,000 ms. */
  connectTimeoutMs?: number;
  /** Tool results longer than this many characters keep their head and tail. Default 100,000. */
  maxResultChars?: number;
  /** `tools/list` pages read at most; a server whose `nextCursor` goes on fails the listing. Default 100. */
  maxListPages?: number;
  /** Tools listed at most; more fails the listing. Default 1,000. */
  maxTools?: number;
  /** Closes the connection when it aborts (e.g. tie it to the lifetime of your sessions). */
  signal?: AbortSignal;
}

/** What {@link connectMcpServer} takes. */
export type McpServerOptions = (McpStdioServer | McpHttpServer) & McpConnectOptions;

const DEFAULT_CONNECT_TIMEOUT_MS = 30_000;
const DEFAULT_MAX_RESULT_CHARS = 100_000;
const DEFAULT_MAX_LIST_PAGES = 100;
const DEFAULT_MAX_TOOLS = 1_000;
const STDERR_TAIL = 4_000;
const CLIENT_INFO = { name: 'episodic', version: '0.1.0' };
/** What the stdio transport throws when one message outgrows its read buffer (it then closes itself). */
const READ_BUFFER_OVERFLOW = /ReadBuffer exceeded maximum size of (\d+) bytes/;

/** An open connection to one MCP server. */
export class McpConnection {
  /** The server's name (see {@link McpConnectOptions.name}). */
  readonly name: string;
  /** Listed tools whose schema has no Gemini form (the Google adapter refuses them), with the reason. */
  readonly schemaWarnings: string[] = [];
  private cached: AgentTool[] | undefined;
  /** Counts list-changed notifications, so a listing that raced one is not kept. */
  private changes = 0;
  private listing: Promise<AgentTool[]> | undefined;
  private readonly listeners = new Set<() => void>();
  private closed = false;
  /** Clients whose transport closed itself over a message larger than its read buffer, with that limit. */
  private readonly overflows = new WeakMap<Client, number>();
  private reopening: Promise<void> | undefined;
  /** Why opening the connection again failed, when it did (the connection is then closed). */
  private reopenFailure: string | undefined;

  /** @internal Use {@link connectMcpServer}. */
  constructor(
    private client: Client,
    name: string,
    private readonly options: McpConnectOptions,
    private readonly listChanged: typeof ToolListChangedNotificationSchema,
    private readonly reopen: () => Promise<Client>,
  ) {
    this.name = name;
    this.attach(client);
  }

  /** True once `close()` ran or the server went away. */
  get isClosed(): boolean {
    return this.closed;
  }

  /**
   * The server's tools as agent tools, sorted by name. The list is fetched once and
   * kept (the same objects, so the same bytes in every request) until the server
   * says it changed (`notifications/tools/list_changed`); the next call fetches it again.
   */
  tools(): Promise<AgentTool[]> {
    if (this.closed) return Promise.reject(this.closedError());
    if (this.cached) return Promise.resolve(this.cached);
    this.listing ??= this.list().finally(() => {
      this.listing = undefined;
    });
    return this.listing;
  }

  /**
   * Calls `listener` when the server's tool list changed. Fetch `tools()` again and
   * give them to a new `Agent` (reopen the session by id from its store): tools are
   * part of the cached prompt prefix, so they change only when you decide. Returns an
   * unsubscribe function.
   */
  onToolsChanged(listener: () => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  /** Closes the connection (a stdio server's process is ended). Safe to call twice. */
  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    await this.client.close();
  }

  /**
   * @internal Calls a tool for the agent tools of this connection. A result larger than the stdio
   * transport reads in one message makes the SDK close the transport; the connection
   * is then opened again (once per loss) and the call fails with `mcp_result_too_large`,
   * so only that call is lost, not every later one.
   */
  async callTool(remoteName: string, input: Record<string, unknown>, options: RequestOptions): ReturnType<Client['callTool']> {
    const client = await this.ready();
    try {
      return await client.callTool({ name: remoteName, arguments: input }, undefined, options);
    } catch (error) {
      const limit = this.overflows.get(client);
      if (limit === undefined) throw error;
      const then = (await this.recover(client))
        ? 'The connection was opened again; ask for less (a narrower query, a range or a page).'
        : `Connecting again failed, so the server cannot be used: ${this.reopenFailure}`;
      throw new McpServerError(
        'mcp_result_too_large',
        `The result of tool "${remoteName}" of MCP server "${this.name}" was larger than ${limit.toLocaleString('en-US')} ` +
          `bytes, the most its stdio transport reads in one message, so it was dropped before maxResultChars could ` +
          `shorten it. ${then}`,
        { cause: error },
      );
    }
  }

  /** The client to use: waits for a reconnection under way, and starts one if the last client was lost. */
  private async ready(): Promise<Client> {
    if (this.reopening) await this.reopening;
    if (this.overflows.has(this.client)) await this.recover(this.client);
    if (this.closed) throw this.closedError();
    return this.client;
  }

  /** Opens a new client in place of `lost` (once, however many calls lost it); true when that worked. */
  private async recover(lost: Client): Promise<boolean> {
    if (this.client === lost && !this.closed) {
      this.reopening ??= this.reopen().then(
        async (client) => {
          this.reopening = undefined;
          if (this.closed) return void (await client.close());
          this.client = client;
          this.attach(client);
        },
        (error: unknown) => {
          this.reopening = undefined;
          this.reopenFailure = error instanceof Error ? error.message : String(error);
          this.closed = true;
        },
      );
      await lost.close().catch(() => {});
    }
    if (this.reopening) await this.reopening;
    return !this.closed;
  }

  private attach(client: Client): void {
    client.onerror = (error) => {
      const overflow = READ_BUFFER_OVERFLOW.exec(error.message);
      if (overflow) this.overflows.set(client, Number(overflow[1]));
    };
    // A transport that closed itself over an oversized message is reopened by the next call, not given up.
    client.onclose = () => {
      if (client === this.client && !this.overflows.has(client)) this.closed = true;
    };
    client.setNotificationHandler(this.listChanged, () => {
      this.cached = undefined;
      this.changes += 1;
      for (const listener of this.listeners) listener();
    });
  }

  private async list(): Promise<AgentTool[]> {
    const client = await this.ready();
    const changes = this.changes;
    const listed = [];
    const maxPages = this.options.maxListPages ?? DEFAULT_MAX_LIST_PAGES;
    const maxTools = this.options.maxTools ?? DEFAULT_MAX_TOOLS;
    try {
      let cursor: string | undefined;
      let pages = 0;
      do {
        // A server whose cursor never ends would list forever (and fill the heap).
        if (pages === maxPages) throw new Error(`it sent more than ${maxPages} pages (maxListPages); its nextCursor never ended`);
        const page = await client.listTools(cursor === undefined ? {} : { cursor });
        pages += 1;
        listed.push(...page.tools);
        if (listed.length > maxTools) throw new Error(`it listed more than ${maxTools} tools (maxTools)`);
        cursor = page.nextCursor;
      } while (cursor !== undefined);
    } catch (error) {
      const limit = this.overflows.get(client);
      const reason =
        limit === undefined
          ? error instanceof Error ? error.message : String(error)
          : `a page was larger than ${limit.toLocaleString('en-US')} bytes, the most its stdio transport reads in one message`;
      throw new McpServerError('mcp_list_failed', `MCP server "${this.name}" did not list its tools: ${reason}`, {
        cause: error,
      });
    }
    const specs = mcpToolSpecs(listed, this.options.prefix);
    const settings = {
      server: this.name,
      timeoutMs: this.options.toolTimeoutMs,
      maxResultChars: this.options.maxResultChars ?? DEFAULT_MAX_RESULT_CHARS,
      isClosed: () => this.closed,
    };
    const tools = specs.map((listedTool) => mcpAgentTool(this, listedTool, settings));
    this.schemaWarnings.splice(0, this.schemaWarnings.length, ...geminiWarnings(specs));
    if (changes === this.changes) this.cached = tools;
    return tools;
  }

  private closedError(): McpServerError {
    return new McpServerError(
      'mcp_closed',
      `The connection to MCP server "${this.name}" is closed; connect again with connectMcpServer().`,
    );
  }
}

/**
 * Starts or reaches an MCP server, completes the handshake and returns the open
 * connection. Throws {@link McpServerError} (`mcp_connect_failed`) with the server's
 * own words (its stderr, or the HTTP error) when that fails.
 */
export async function connectMcpServer(options: McpServerOptions): Promise<McpConnection> {
  const sdk = await loadSdk();
  const where = describeServer(options);
  const open = () => openClient(sdk, options, where);
  const client = await open();
  const name = options.name ?? client.getServerVersion()?.name ?? where;
  const connection = new McpConnection(client, name, options, sdk.ToolListChangedNotificationSchema, open);
  if (options.signal) {
    if (options.signal.aborted) await connection.close();
    else options.signal.addEventListener('abort', () => void connection.close(), { once: true });
  }
  return connection;
}

type Sdk = Awaited<ReturnType<typeof loadSdk>>;

/** Starts or reaches the server and completes the handshake (also used to reconnect). */
async function openClient(sdk: Sdk, options: McpServerOptions, where: string): Promise<Client> {
  const stderr = { tail: '' };
  const transport = createTransport(sdk, options, stderr);
  const client = new sdk.Client(CLIENT_INFO, { capabilities: {} });
  try {
    await client.connect(transport, { timeout: options.connectTimeoutMs ?? DEFAULT_CONNECT_TIMEOUT_MS });
  } catch (error) {
    await client.close().catch(() => {});
    throw connectError(where, error, stderr.tail);
  }
  return client;
}

async function loadSdk() {
  const [{ Client }, { StdioClientTransport }, { StreamableHTTPClientTransport }, { ToolListChangedNotificationSchema }] =
    await Promise.all([
      import('@modelcontextprotocol/sdk/client/index.js'),
      import('@modelcontextprotocol/sdk/client/stdio.js'),
      import('@modelcontextprotocol/sdk/client/streamableHttp.js'),
      import('@modelcontextprotocol/sdk/types.js'),
    ]);
  return { Client, StdioClientTransport, StreamableHTTPClientTransport, ToolListChangedNotificationSchema };
}

function createTransport(sdk: Sdk, options: McpServerOptions, stderr: { tail: string }): Transport {
  if ('url' in options) {
    const headers = options.headers;
    return new sdk.StreamableHTTPClientTransport(new URL(options.url), headers ? { requestInit: { headers } } : {});
  }
  const transport = new sdk.StdioClientTransport({
    command: options.command,
    args: [...(options.args ?? [])],
    ...(options.env ? { env: options.env } : {}),
    ...(options.cwd ? { cwd: options.cwd } : {}),
    stderr: 'pipe',
  });
  // A piped stderr that nobody reads fills up and blocks the server: always read it.
  transport.stderr?.on('data', (chunk: Buffer) => {
    const text = chunk.toString('utf8');
    stderr.tail = (stderr.tail + text).slice(-STDERR_TAIL);
    options.onStderr?.(text);
  });
  return transport;
}

function describeServer(options: McpServerOptions): string {
  if ('url' in options) {
    const url = new URL(options.url);
    return `${url.origin}${url.pathname}`;
  }
  return [options.command, ...(options.args ?? [])].join(' ');
}

function connectError(where: string, error: unknown, stderrTail: string): McpServerError {
  const reason = error instanceof Error ? error.message : String(error);
  const said = stderrTail.trim() ? ` Its stderr ended with:\n${stderrTail.trim()}` : '';
  return new McpServerError(
    'mcp_connect_failed',
    `Could not connect to MCP server ${where}: ${reason}. Check that the command or URL starts an MCP server ` +
      `(it must answer the initialize request).${said}`,
    { cause: error },
  );
}

function geminiWarnings(specs: readonly McpToolSpec[]): string[] {
  return specs
    .filter((listed) => listed.geminiProblem !== undefined)
    .map((listed) => `${listed.spec.name}: no Gemini form (${listed.geminiProblem})`);
}
