/**
 * The web chat's server: Node's `http` module, no framework. It serves the page and
 * one route, `POST /api/chat`, that runs an episode of the chat's session and
 * streams it back as the AI SDK UI message stream.
 *
 * Each chat id names one Episodic session; the page sends only its new message, and
 * the session keeps the rest (reasoning included), so a follow-up continues the
 * same conversation with its context packed per episode.
 */
import { readFile } from 'node:fs/promises';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { type Agent } from '@episodic/core';
import { pipeUIMessageStreamToResponse, toUIMessageStream } from '@episodic/core/ui-stream';
import { z } from 'zod';
import { PUBLIC_DIR } from './build-page.js';
import { ChatSessions } from './chat-sessions.js';
import { PAGE_CSP, type Refusal, refuseCaller, refuseContentType, type RequestGuardOptions, SECURITY_HEADERS } from './request-guard.js';

/**
 * Options of {@link startChatServer}. By default it answers only requests whose
 * `Host` is loopback or the address it listens on, from its own page's origin (or
 * no browser at all), with JSON bodies; `allowedHosts`, `allowedOrigins` and
 * `contentTypes` widen that.
 */
export interface ChatServerOptions extends RequestGuardOptions {
  agent: Agent;
  /** Default 3000; 0 picks a free port. */
  port?: number;
  /** Default 127.0.0.1 (this machine only). */
  host?: string;
  /** Sessions kept in memory; the least recently used idle one is dropped past this. Default 100. */
  maxSessions?: number;
  /** A session unused this long is dropped (reopened from the agent's store on its next message). Default 30 minutes. */
  sessionIdleMs?: number;
  /** New sessions one client (remote address) may open per window. Default 20 per minute. */
  newSessionsPerClient?: { count: number; windowMs: number };
}

/** A running server. */
export interface ChatServer {
  url: string;
  close(): Promise<void>;
}

/** What the page posts (see prepareSendMessagesRequest in page/chat.js). */
const ChatRequest = z.object({
  id: z.string().regex(/^[\w-]{1,100}$/),
  message: z.object({
    role: z.literal('user'),
    parts: z.array(z.object({ type: z.string(), text: z.string().max(20_000).optional() })).max(50),
  }),
});

const STATIC: Readonly<Record<string, { file: string; type: string }>> = {
  '/': { file: 'index.html', type: 'text/html; charset=utf-8' },
  '/chat.js': { file: 'chat.js', type: 'text/javascript; charset=utf-8' },
  '/style.css': { file: 'style.css', type: 'text/css; charset=utf-8' },
};
const MAX_BODY_BYTES = 256_000;

/** Starts the server; resolves once it listens. */
export async function startChatServer(options: ChatServerOptions): Promise<ChatServer> {
  const sessions = new ChatSessions(options.agent, {
    maxSessions: options.maxSessions ?? 100,
    idleMs: options.sessionIdleMs ?? 30 * 60_000,
    newPerClient: options.newSessionsPerClient ?? { count: 20, windowMs: 60_000 },
  });
  const listening = options.host ?? '127.0.0.1';
  const server = createServer((request, response) => {
    for (const [name, value] of Object.entries(SECURITY_HEADERS)) response.setHeader(name, value);
    const refused = refuseCaller(request, listening, options);
    if (refused) return refuse(response, refused);
    handle(request, response, options, sessions).catch((error: unknown) => {
      if (!response.headersSent) response.writeHead(500, { 'content-type': 'text/plain' });
      response.end(`Internal error: ${error instanceof Error ? error.message : String(error)}`);
    });
  });
  await new Promise<void>((resolve) => server.listen(options.port ?? 3000, listening, resolve));
  const { address, port } = server.address() as AddressInfo;
  return {
    url: `http://${address}:${port}/`,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

async function handle(
  request: IncomingMessage,
  response: ServerResponse,
  options: ChatServerOptions,
  sessions: ChatSessions,
): Promise<void> {
  const path = new URL(request.url ?? '/', 'http://localhost').pathname;
  const asset = STATIC[path];
  if (request.method === 'GET' && asset) {
    const body = await readFile(join(PUBLIC_DIR, asset.file));
    response.writeHead(200, {
      'content-type': asset.type,
      'content-security-policy': PAGE_CSP,
    });
    return void response.end(body);
  }
  if (request.method === 'POST' && path === '/api/chat') return chat(request, response, options, sessions);
  // Browsers ask for an icon; there is none (and a 404 would be a console error).
  if (path === '/favicon.ico') return void response.writeHead(204).end();
  response.writeHead(404, { 'content-type': 'text/plain' });
  response.end('Not found');
}

async function chat(
  request: IncomingMessage,
  response: ServerResponse,
  options: ChatServerOptions,
  sessions: ChatSessions,
): Promise<void> {
  const wrongType = refuseContentType(request, options);
  if (wrongType) return refuse(response, wrongType);
  const parsed = ChatRequest.safeParse(await readJson(request));
  if (!parsed.success) {
    response.writeHead(400, { 'content-type': 'text/plain' });
    return void response.end(`Bad chat request: ${parsed.error.issues.map((issue) => issue.message).join('; ')}`);
  }
  const { id, message } = parsed.data;
  const text = message.parts.map((part) => (part.type === 'text' ? (part.text ?? '') : '')).join('');
  if (!text.trim()) {
    response.writeHead(400, { 'content-type': 'text/plain' });
    return void response.end('Bad chat request: the message has no text.');
  }
  const lent = await sessions.lend(id, request.socket.remoteAddress ?? 'unknown');
  if ('status' in lent) return refuse(response, lent);
  // The user closed the page or pressed Stop: end the episode (the transcript stays consistent).
  const controller = new AbortController();
  response.on('close', () => {
    if (!response.writableFinished) controller.abort();
  });
  try {
    const events = lent.session.stream(text, { signal: controller.signal });
    await pipeUIMessageStreamToResponse(toUIMessageStream(events), response);
  } finally {
    lent.done();
  }
}

function refuse(response: ServerResponse, refusal: Refusal): void {
  response.writeHead(refusal.status, { 'content-type': 'text/plain; charset=utf-8' });
  response.end(refusal.message);
}

async function readJson(request: IncomingMessage): Promise<unknown> {
  let size = 0;
  const chunks: Buffer[] = [];
  for await (const chunk of request as AsyncIterable<Buffer>) {
    size += chunk.length;
    if (size > MAX_BODY_BYTES) return undefined;
    chunks.push(chunk);
  }
  try {
    return JSON.parse(Buffer.concat(chunks).toString('utf8'));
  } catch {
    // Not JSON: the schema check answers 400.
    return undefined;
  }
}
