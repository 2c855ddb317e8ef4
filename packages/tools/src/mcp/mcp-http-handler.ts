/**
 * The Streamable HTTP side of `McpToolServer`: who may call (Host and Origin, so a
 * web page cannot reach a local server through DNS rebinding or a cross-origin
 * request) and how many protocol sessions live at once (a cap, and idle expiry, so
 * a client opening sessions in a loop cannot grow the heap without bound).
 *
 * @see https://modelcontextprotocol.io/specification/2025-06-18/basic/transports#security-warning
 */
import { randomUUID } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';

/** Options of `McpToolServer.httpHandler()`. */
export interface McpHttpHandlerOptions {
  /**
   * Host names (or `host:port`) accepted in the `Host` header besides loopback
   * (`localhost`, `127.0.0.1`, `[::1]`). Add the name clients use when the server is
   * reached through another name (a reverse proxy, a container network).
   */
  allowedHosts?: readonly string[];
  /**
   * Origins (e.g. `https://ide.example`) accepted in the `Origin` header besides the
   * server's own. A request without `Origin` (not from a browser) is accepted.
   */
  allowedOrigins?: readonly string[];
  /** Protocol sessions alive at once; a new client beyond it gets 503. Default 100. */
  maxSessions?: number;
  /** A session unused this long is closed (its client must initialize again). Default 600,000 ms. */
  sessionIdleMs?: number;
}

/** Default {@link McpHttpHandlerOptions.maxSessions}. */
export const DEFAULT_MCP_MAX_SESSIONS = 100;
/** Default {@link McpHttpHandlerOptions.sessionIdleMs}. */
export const DEFAULT_MCP_SESSION_IDLE_MS = 600_000;

const loopback = ['localhost', '127.0.0.1', '[::1]'];

type TransportClass = typeof StreamableHTTPServerTransport;

interface Live {
  transport: StreamableHTTPServerTransport;
  usedAt: number;
}

/**
 * Builds the handler: `connect` attaches a new transport to a protocol session of
 * the tool server.
 */
export function mcpHttpHandler(
  Transport: TransportClass,
  connect: (transport: StreamableHTTPServerTransport) => Promise<void>,
  options: McpHttpHandlerOptions = {},
): (request: IncomingMessage, response: ServerResponse) => Promise<void> {
  const maxSessions = options.maxSessions ?? DEFAULT_MCP_MAX_SESSIONS;
  const idleMs = options.sessionIdleMs ?? DEFAULT_MCP_SESSION_IDLE_MS;
  const live = new Map<string, Live>();
  let opening = 0;
  let timer: ReturnType<typeof setInterval> | undefined;

  const sweep = () => {
    const cutoff = Date.now() - idleMs;
    for (const [id, session] of live) {
      if (session.usedAt < cutoff) {
        live.delete(id);
        void session.transport.close();
      }
    }
    if (live.size === 0 && timer) timer = void clearInterval(timer);
  };

  return async (request, response) => {
    const refused = refusal(request, options);
    if (refused) return reply(response, 403, -32000, `Forbidden: ${refused}`);
    const id = request.headers['mcp-session-id'];
    const found = typeof id === 'string' ? live.get(id) : undefined;
    if (found) {
      found.usedAt = Date.now();
      return found.transport.handleRequest(request, response);
    }
    if (id !== undefined) return reply(response, 404, -32001, 'Session not found');
    sweep();
    if (live.size + opening >= maxSessions) {
      response.setHeader('retry-after', String(Math.ceil(idleMs / 1000)));
      return reply(response, 503, -32000, `Too many sessions (${maxSessions}): close one or retry later.`);
    }
    const transport: StreamableHTTPServerTransport = new Transport({
      sessionIdGenerator: () => randomUUID(),
      // The SDK's own check too, with the same lists, for requests that reach it.
      enableDnsRebindingProtection: true,
      allowedHosts: hostList(request, options),
      allowedOrigins: originList(request, options),
      onsessioninitialized: (sessionId) => {
        live.set(sessionId, { transport, usedAt: Date.now() });
        timer ??= setInterval(sweep, Math.max(50, Math.min(idleMs, 60_000) / 2));
        timer.unref?.();
      },
    });
    transport.onclose = () => void (transport.sessionId && live.delete(transport.sessionId));
    opening += 1;
    try {
      await connect(transport);
      await transport.handleRequest(request, response);
    } finally {
      opening -= 1;
    }
    // Not an initialize request: no session was made, and the transport must not linger.
    if (!transport.sessionId || !live.has(transport.sessionId)) await transport.close();
  };
}

/** Why a request is refused (a foreign Host or Origin), or undefined. */
function refusal(request: IncomingMessage, options: McpHttpHandlerOptions): string | undefined {
  const host = request.headers.host ?? '';
  if (!hostAllowed(host, options)) return `Host "${host}" is not allowed (see McpHttpHandlerOptions.allowedHosts).`;
  const origin = request.headers.origin;
  if (origin === undefined) return undefined;
  if (options.allowedOrigins?.includes(origin)) return undefined;
  let originHost: string | undefined;
  try {
    originHost = new URL(origin).host;
  } catch {
    originHost = undefined;
  }
  // Same origin as the server (a page it serves itself); anything else is another site.
  if (originHost === host) return undefined;
  return `Origin "${origin}" is not allowed (see McpHttpHandlerOptions.allowedOrigins).`;
}

function hostAllowed(host: string, options: McpHttpHandlerOptions): boolean {
  const name = host.replace(/:\d+$/, '');
  const allowed = [...loopback, ...(options.allowedHosts ?? [])];
  return allowed.includes(host) || allowed.includes(name);
}

/** The Host values the SDK's check accepts: every allowed name, bare and with the port the request came to. */
function hostList(request: IncomingMessage, options: McpHttpHandlerOptions): string[] {
  const host = request.headers.host ?? '';
  return [...loopback, ...(options.allowedHosts ?? [])].flatMap((name) => [name, `${name}:${request.socket.localPort}`]).concat(host);
}

function originList(request: IncomingMessage, options: McpHttpHandlerOptions): string[] {
  const host = request.headers.host ?? '';
  return [...(options.allowedOrigins ?? []), `http://${host}`, `https://${host}`];
}

function reply(response: ServerResponse, status: number, code: number, message: string): void {
  response.writeHead(status, { 'content-type': 'application/json' });
  response.end(JSON.stringify({ jsonrpc: '2.0', error: { code, message }, id: null }));
}
