/**
 * A chat endpoint as a web-standard `(Request) => Promise<Response>` function, to
 * mount in any server that speaks fetch's `Request`/`Response` (Next.js route
 * handlers, Hono, Deno, Bun) or in Node's `http` through `toNodeListener`.
 *
 * Each chat id names one Episodic session, opened by id from the agent's store; the
 * page sends only its new message and the session keeps the rest (reasoning
 * included). Replies stream as the AI SDK UI message stream that
 * `@episodic/core/ui-stream` produces, so the AI SDK's chat client (`useChat`) reads
 * them as they are.
 *
 * Routes under `path` (default `/api/chat`):
 * - `POST path` `{ id, message }`: runs an episode with the message, streamed.
 * - `GET path/approvals?id=…`: the chat's tool calls waiting for a decision.
 * - `POST path/approvals` `{ id, callId, decision, note?, reason? }`: decides one.
 * - `POST path/resume` `{ id }`: continues the paused episode, streamed.
 */
import type { Agent } from '@episodic/core';
import type { UIMessageStreamOptions } from '@episodic/core/ui-stream';
import { type Read, readJsonBody } from './chat-body.js';
import { ChatRoutes } from './chat-routes.js';
import { ChatSessions } from './chat-sessions.js';
import { refuse, withHeaders } from './http-responses.js';
import { refuseCaller, refuseContentType, type RequestGuardOptions } from './request-guard.js';

/**
 * Options of {@link createChatHandler}. By default it answers only requests whose
 * `Host` is loopback, from the page's own origin (or no browser at all), with JSON
 * bodies of at most 256 kB; `allowedHosts`, `allowedOrigins`, `contentTypes` and
 * `maxBodyBytes` widen that.
 */
export interface ChatHandlerOptions extends RequestGuardOptions {
  /** The agent each chat's session is opened from (by chat id, from the agent's store). */
  agent: Agent;
  /** Where the routes live. Default `/api/chat`. */
  path?: string | undefined;
  /** Largest request body, in bytes, however it is framed. Default 256,000. */
  maxBodyBytes?: number | undefined;
  /** Longest message text, in characters. Default 20,000. */
  maxMessageChars?: number | undefined;
  /** Sessions kept in memory; the least recently used idle one is dropped past this. Default 100. */
  maxSessions?: number | undefined;
  /** A session unused this long is dropped (reopened from the agent's store on its next message). Default 30 minutes. */
  sessionIdleMs?: number | undefined;
  /** New sessions one client may open per window. Default 20 per minute. */
  newSessionsPerClient?: { count: number; windowMs: number } | undefined;
  /** How events become stream chunks (e.g. the error text a client sees). */
  stream?: UIMessageStreamOptions | undefined;
  /**
   * Answers requests outside the chat routes, after the same caller checks (e.g. the
   * chat page). Without it they get 404.
   */
  fallback?: ((request: Request) => Response | Promise<Response>) | undefined;
}

/** What the server knows about a request beyond the request itself. */
export interface ChatRequestContext {
  /** The client's address, for the per-client limit on new sessions. Default `unknown` (one client for all). */
  clientAddress?: string | undefined;
}

/** A mounted chat: a fetch-style handler. */
export type ChatHandler = (request: Request, context?: ChatRequestContext) => Promise<Response>;

/** Builds the handler (see the module comment for its routes). */
export function createChatHandler(options: ChatHandlerOptions): ChatHandler {
  const path = (options.path ?? '/api/chat').replace(/\/$/, '');
  const chat = new ChatRoutes(
    new ChatSessions(options.agent, {
      maxSessions: options.maxSessions ?? 100,
      idleMs: options.sessionIdleMs ?? 30 * 60_000,
      newPerClient: options.newSessionsPerClient ?? { count: 20, windowMs: 60_000 },
    }),
    { maxMessageChars: options.maxMessageChars ?? 20_000, stream: options.stream },
  );
  const routes: Readonly<Record<string, Route>> = {
    [`POST ${path}`]: (request, client) => withBody(request, options, (body) => chat.send(body, client)),
    [`GET ${path}/approvals`]: (request, client) => chat.approvals(new URL(request.url).searchParams.get('id'), client),
    [`POST ${path}/approvals`]: (request, client) => withBody(request, options, (body) => chat.decide(body, client)),
    [`POST ${path}/resume`]: (request, client) => withBody(request, options, (body) => chat.resume(body, client)),
  };
  const answer = async (request: Request, context: ChatRequestContext) => {
    const refused = refuseCaller(request, options);
    if (refused) return refuse(refused);
    const route = routes[`${request.method} ${new URL(request.url).pathname}`];
    if (route) return route(request, context.clientAddress ?? 'unknown');
    if (options.fallback) return options.fallback(request);
    return refuse({ status: 404, message: 'Not found' });
  };
  return async (request, context = {}) => withHeaders(await answer(request, context));
}

type Route = (request: Request, client: string) => Promise<Response> | Response;

async function withBody(
  request: Request,
  options: ChatHandlerOptions,
  use: (body: unknown) => Promise<Response> | Response,
): Promise<Response> {
  const wrongType = refuseContentType(request, options);
  if (wrongType) return refuse(wrongType);
  const body: Read<unknown> = await readJsonBody(request, options.maxBodyBytes ?? 256_000);
  return body.ok ? use(body.value) : refuse(body.refusal);
}
