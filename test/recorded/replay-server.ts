/**
 * Replays a recording over HTTP on 127.0.0.1: the n-th request gets the n-th
 * recorded response, byte for byte for streams, and every request body the client
 * sent is kept so a test can compare it with what the real API received. A recorded
 * JSON answer to a request that asks for a stream goes out as that API's stream
 * (./json-as-stream.ts); error answers go out as recorded.
 */
import { readJsonBody, sendJson, startLoopbackServer, type LoopbackServer } from '../servers/sse.js';
import { jsonAsStream } from './json-as-stream.js';
import type { Interaction, WireApi } from './recordings.js';

export interface ReplayServer extends LoopbackServer {
  /** Bodies of the requests received so far, in order, with their paths. */
  received: { path: string; body: unknown }[];
}

/** Starts a server that answers with `interactions[i].response` for the i-th request. */
export async function startReplayServer(interactions: readonly Interaction[], wireApi: WireApi): Promise<ReplayServer> {
  const received: { path: string; body: unknown }[] = [];
  const server = await startLoopbackServer(async (request, response) => {
    const body = await readJsonBody(request);
    received.push({ path: request.url ?? '', body });
    const next = interactions[received.length - 1];
    if (!next) {
      sendJson(response, 500, { error: { message: `replay: request ${received.length} was not recorded` } });
      return;
    }
    const recorded = next.response;
    // Gemini asks for a stream in the path (`:streamGenerateContent?alt=sse`), the others in the body.
    const streaming = (body as { stream?: unknown } | undefined)?.stream === true || /alt=sse/.test(request.url ?? '');
    if (recorded.kind === 'json' && !(streaming && recorded.status < 400)) {
      sendJson(response, recorded.status, recorded.body);
      return;
    }
    const text = recorded.kind === 'json' ? jsonAsStream(wireApi, recorded.body) : recorded.text;
    response.writeHead(recorded.status, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' });
    response.end(text);
  });
  return { ...server, received };
}
