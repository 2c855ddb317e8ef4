/**
 * A fetch-style handler as a listener for Node's `http` server:
 * `createServer(toNodeListener(handler))`.
 *
 * The request's URL is built from its `Host` header and the path only (an absolute
 * request target such as `POST http://localhost/api/chat` names no host the guards
 * would trust). Its body is pulled as the handler reads it, so a handler that stops
 * reading (a body past its limit) stops the upload: the unread rest is never read,
 * and the connection closes after the answer. The response streams with backpressure;
 * when the client goes away the response body is cancelled, which stops the episode.
 */
import type { IncomingMessage, RequestListener, ServerResponse } from 'node:http';
import type { ChatRequestContext } from './chat-handler.js';

/** What {@link toNodeListener} adapts: any `(Request, context) => Promise<Response>`. */
export type FetchHandler = (request: Request, context: ChatRequestContext) => Promise<Response>;

/** Node's `(req, res)` listener over `handler`. */
export function toNodeListener(handler: FetchHandler): RequestListener {
  return (incoming, outgoing) => {
    serve(handler, incoming, outgoing).catch((error: unknown) => {
      if (!outgoing.headersSent) outgoing.writeHead(500, { 'content-type': 'text/plain; charset=utf-8' });
      outgoing.end(`Internal error: ${error instanceof Error ? error.message : String(error)}`);
    });
  };
}

async function serve(handler: FetchHandler, incoming: IncomingMessage, outgoing: ServerResponse): Promise<void> {
  const request = toRequest(incoming);
  if (!request) return void outgoing.writeHead(400, { 'content-type': 'text/plain; charset=utf-8' }).end('Bad Host header');
  const response = await handler(request, { clientAddress: incoming.socket.remoteAddress });
  await writeResponse(response, incoming, outgoing);
}

function toRequest(incoming: IncomingMessage): Request | undefined {
  const target = incoming.url ?? '/';
  // Keep only the path and query of an absolute target; the host comes from the Host header.
  const path = /^[a-z][a-z\d+.-]*:\/\//i.test(target) ? target.replace(/^[a-z][a-z\d+.-]*:\/\/[^/?#]*/i, '') || '/' : target;
  const host = incoming.headers.host ?? '';
  // No Host (HTTP/1.0 allows it): `http:///localhost/…` would parse with the path's first segment as the host.
  if (!host || /[/\\?#@\s]/.test(host)) return undefined;
  let url: URL;
  try {
    url = new URL(`http://${host}${path.startsWith('/') ? path : `/${path}`}`);
  } catch {
    return undefined;
  }
  const headers = new Headers();
  for (const [name, value] of Object.entries(incoming.headers)) {
    if (value === undefined) continue;
    for (const one of Array.isArray(value) ? value : [value]) headers.append(name, one);
  }
  const method = incoming.method ?? 'GET';
  const hasBody = method !== 'GET' && method !== 'HEAD';
  return new Request(url, {
    method,
    headers,
    ...(hasBody ? { body: pull(incoming), duplex: 'half' } : {}),
  } as RequestInit);
}

/** The request body as a web stream read on demand (nothing is read that the handler does not ask for). */
function pull(incoming: IncomingMessage): ReadableStream<Uint8Array> {
  const chunks = incoming[Symbol.asyncIterator]() as AsyncIterator<Buffer>;
  return new ReadableStream<Uint8Array>(
    {
      async pull(controller) {
        const next = await chunks.next();
        if (next.done) controller.close();
        else controller.enqueue(new Uint8Array(next.value.buffer, next.value.byteOffset, next.value.byteLength));
      },
      cancel() {
        // Stop reading; the connection closes once the answer is written (see writeResponse).
        incoming.pause();
      },
    },
    { highWaterMark: 0 },
  );
}

async function writeResponse(response: Response, incoming: IncomingMessage, outgoing: ServerResponse): Promise<void> {
  const headers: Record<string, string | string[]> = {};
  response.headers.forEach((value, name) => {
    headers[name] = name === 'set-cookie' ? response.headers.getSetCookie() : value;
  });
  // A body the handler did not read to its end is not read at all: close rather than drain it.
  const unread = !incoming.complete && incoming.method !== 'GET' && incoming.method !== 'HEAD';
  if (unread) headers.connection = 'close';
  outgoing.writeHead(response.status, response.statusText, headers);
  if (unread) outgoing.once('finish', () => incoming.socket.destroy());
  if (!response.body) return void outgoing.end();
  const reader = response.body.getReader();
  const gone = new Promise<'gone'>((resolve) => outgoing.once('close', () => resolve('gone')));
  try {
    for (;;) {
      const next = await Promise.race([reader.read(), gone]);
      if (next === 'gone' || outgoing.destroyed) {
        await reader.cancel();
        return;
      }
      if (next.done) break;
      if (!outgoing.write(next.value)) {
        const drained = await Promise.race([new Promise<'drained'>((resolve) => outgoing.once('drain', () => resolve('drained'))), gone]);
        if (drained === 'gone') {
          await reader.cancel();
          return;
        }
      }
    }
  } finally {
    outgoing.end();
  }
}
