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
import type { Agent, AgentEvent, ApprovalRequest } from '@episodic/core';
import { createUIMessageStreamResponse, toUIMessageStream, type UIMessageStreamOptions } from '@episodic/core/ui-stream';
import { chatDecision, chatId, chatMessage, type Read, readJsonBody } from './chat-body.js';
import { ChatSessions, type Lent } from './chat-sessions.js';
import { type Refusal, refuseCaller, refuseContentType, type RequestGuardOptions, SECURITY_HEADERS } from './request-guard.js';

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
  const sessions = new ChatSessions(options.agent, {
    maxSessions: options.maxSessions ?? 100,
    idleMs: options.sessionIdleMs ?? 30 * 60_000,
    newPerClient: options.newSessionsPerClient ?? { count: 20, windowMs: 60_000 },
  });
  const routes: Readonly<Record<string, Route>> = {
    [`POST ${path}`]: (request, client) => withBody(request, options, (body) => send(body, client)),
    [`GET ${path}/approvals`]: async (request, client) => {
      const id = chatId({ id: new URL(request.url).searchParams.get('id') });
      if (!id.ok) return refuse(id.refusal);
      return withSession(id.value, client, async (lent) => json({ pending: toWire(lent.session.pendingApprovals) }));
    },
    [`POST ${path}/approvals`]: (request, client) => withBody(request, options, (body) => decide(body, client)),
    [`POST ${path}/resume`]: (request, client) => withBody(request, options, (body) => resume(body, client)),
  };

  const send = (body: unknown, client: string) => {
    const parsed = chatMessage(body, options.maxMessageChars ?? 20_000);
    if (!parsed.ok) return refuse(parsed.refusal);
    const { id, text } = parsed.value;
    return streamed(id, client, (lent, signal) => lent.session.stream(text, { signal }));
  };
  const decide = (body: unknown, client: string) => {
    const parsed = chatDecision(body);
    if (!parsed.ok) return refuse(parsed.refusal);
    const { id, callId, decision, note, reason } = parsed.value;
    return withSession(id, client, async ({ session }) => {
      const waiting = session.pendingApprovals.find((request) => request.callId === callId);
      if (!waiting) return refuse({ status: 404, message: `No tool call "${callId}" waits for a decision in chat ${id}.` });
      if (decision === 'approved') await session.approve(waiting, note === undefined ? {} : { note });
      else await session.reject(waiting, reason === undefined ? {} : { reason });
      return json({ pending: toWire(session.pendingApprovals) });
    });
  };
  const resume = (body: unknown, client: string) => {
    const id = chatId(body);
    if (!id.ok) return refuse(id.refusal);
    return streamed(id.value, client, (lent, signal) => {
      if (!lent.session.unfinished) return undefined;
      return lent.session.resumeStream({ signal });
    });
  };

  /** Runs `use` on the chat's session, given back when it returns. */
  const withSession = async (id: string, client: string, use: (lent: Lent) => Promise<Response>) => {
    const lent = await sessions.lend(id, client);
    if ('status' in lent) return refuse(lent);
    try {
      return await use(lent);
    } finally {
      lent.done();
    }
  };

  /** Streams the events `run` starts; the session stays lent until the stream ends or is cancelled. */
  const streamed = async (id: string, client: string, run: (lent: Lent, signal: AbortSignal) => AsyncIterable<AgentEvent> | undefined) => {
    const lent = await sessions.lend(id, client);
    if ('status' in lent) return refuse(lent);
    const controller = new AbortController();
    let events: AsyncIterable<AgentEvent> | undefined;
    try {
      events = run(lent, controller.signal);
    } catch (error) {
      lent.done();
      throw error;
    }
    if (!events) {
      lent.done();
      return refuse({ status: 409, message: `Chat ${id} has nothing to resume.` });
    }
    // The client went away or pressed Stop: end the episode (the transcript stays consistent).
    const chunks = releasing(toUIMessageStream(events, options.stream), () => controller.abort(), () => lent.done());
    return createUIMessageStreamResponse(chunks, { headers: SECURITY_HEADERS });
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

type Route = (request: Request, client: string) => Promise<Response>;

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

/** A stream that calls `cancelled` when its reader cancels it, and `ended` once when it ends, errs or has been cancelled. */
function releasing<T>(stream: ReadableStream<T>, cancelled: () => void, ended: () => void): ReadableStream<T> {
  const reader = stream.getReader();
  let over = false;
  const end = () => {
    if (over) return;
    over = true;
    ended();
  };
  return new ReadableStream<T>({
    async pull(controller) {
      try {
        const next = await reader.read();
        if (!next.done) return controller.enqueue(next.value);
        end();
        controller.close();
      } catch (error) {
        end();
        controller.error(error);
      }
    },
    async cancel(reason) {
      // Stop the run first, and give the session back only once its events have ended.
      cancelled();
      try {
        await reader.cancel(reason);
      } finally {
        end();
      }
    },
  });
}

/** The wire form of waiting calls. */
function toWire(requests: readonly ApprovalRequest[]) {
  return requests.map(({ callId, toolName, args, sessionId }) => ({ callId, toolName, args, sessionId }));
}

function json(value: unknown): Response {
  return new Response(JSON.stringify(value), { status: 200, headers: { 'content-type': 'application/json; charset=utf-8' } });
}

function refuse(refusal: Refusal): Response {
  return new Response(refusal.message, { status: refusal.status, headers: { 'content-type': 'text/plain; charset=utf-8' } });
}

function withHeaders(response: Response): Response {
  for (const [name, value] of Object.entries(SECURITY_HEADERS)) {
    // A response built with immutable headers (`Response.redirect`, a fetched one) is copied first.
    try {
      if (!response.headers.has(name)) response.headers.set(name, value);
    } catch {
      const copy = new Response(response.body, response);
      for (const [key, header] of Object.entries(SECURITY_HEADERS)) if (!copy.headers.has(key)) copy.headers.set(key, header);
      return copy;
    }
  }
  return response;
}
