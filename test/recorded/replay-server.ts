/**
 * Replays a recording over HTTP on 127.0.0.1: the n-th request gets the n-th
 * recorded response, byte for byte for streams, and every request body the client
 * sent is kept so a test can compare it with what the real API received.
 */
import { readJsonBody, sendJson, startLoopbackServer, type LoopbackServer } from '../servers/sse.js';
import type { Interaction } from './recordings.js';

export interface ReplayServer extends LoopbackServer {
  /** Bodies of the requests received so far, in order, with their paths. */
  received: { path: string; body: unknown }[];
}

/** Starts a server that answers with `interactions[i].response` for the i-th request. */
export async function startReplayServer(interactions: readonly Interaction[]): Promise<ReplayServer> {
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
    if (recorded.kind === 'json') {
      sendJson(response, recorded.status, recorded.body);
      return;
    }
    response.writeHead(recorded.status, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' });
    response.end(recorded.text);
  });
  return { ...server, received };
}
