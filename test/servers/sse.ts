/**
 * Shared plumbing for the loopback wire servers: an HTTP server on 127.0.0.1 on
 * a random port, JSON bodies, Server-Sent Events and a clean close.
 */
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';

/** A running loopback server. */
export interface LoopbackServer {
  /** `http://127.0.0.1:<port>` */
  url: string;
  close(): Promise<void>;
}

export type RequestHandler = (request: IncomingMessage, response: ServerResponse) => Promise<void> | void;

/** Starts `handler` on 127.0.0.1 on a free port; `close` also ends open (streaming) sockets. */
export async function startLoopbackServer(handler: RequestHandler): Promise<LoopbackServer> {
  const sockets = new Set<Socket>();
  const server = createServer((request, response) => {
    Promise.resolve(handler(request, response)).catch((error: unknown) => {
      if (!response.headersSent) response.writeHead(500, { 'content-type': 'application/json' });
      response.end(JSON.stringify({ error: { message: String(error) } }));
    });
  });
  server.on('connection', (socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    close: () =>
      new Promise<void>((resolve) => {
        for (const socket of sockets) socket.destroy();
        server.close(() => resolve());
      }),
  };
}

/** Reads and parses a JSON request body (`undefined` when empty). */
export async function readJsonBody(request: IncomingMessage): Promise<unknown> {
  const chunks: Buffer[] = [];
  for await (const chunk of request) chunks.push(chunk as Buffer);
  const text = Buffer.concat(chunks).toString('utf8');
  return text.length === 0 ? undefined : JSON.parse(text);
}

/** Sends a JSON response. */
export function sendJson(
  response: ServerResponse,
  status: number,
  body: unknown,
  headers: Record<string, string> = {},
): void {
  response.writeHead(status, { 'content-type': 'application/json', ...headers });
  response.end(JSON.stringify(body));
}

/** Starts an SSE response. */
export function startSse(response: ServerResponse): void {
  response.writeHead(200, {
    'content-type': 'text/event-stream',
    'cache-control': 'no-cache',
    connection: 'keep-alive',
  });
}

/**
 * Writes one SSE event. `event` names it (Anthropic names every event; Gemini
 * sends bare `data:` lines); `separator` is the line ending the provider uses.
 */
export function writeSseEvent(
  response: ServerResponse,
  data: unknown,
  options: { event?: string; separator?: '\n' | '\r\n' } = {},
): void {
  const separator = options.separator ?? '\n';
  const head = options.event ? `event: ${options.event}${separator}` : '';
  response.write(`${head}data: ${JSON.stringify(data)}${separator}${separator}`);
}

/** Resolves when the client goes away (used by scripted stalls to wait for an abort). */
export function clientGone(response: ServerResponse): Promise<void> {
  return new Promise((resolve) => {
    if (response.destroyed || response.writableEnded) resolve();
    response.on('close', () => resolve());
  });
}

/** Headers as a plain record (lower-case names, first value). */
export function headerRecord(request: IncomingMessage): Record<string, string> {
  const record: Record<string, string> = {};
  for (const [name, value] of Object.entries(request.headers)) {
    if (typeof value === 'string') record[name] = value;
    else if (Array.isArray(value) && value[0] !== undefined) record[name] = value[0];
  }
  return record;
}
