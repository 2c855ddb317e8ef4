/**
 * An HTTP/2 endpoint serving the episode services, for the Restate server to call
 * (register its URL with the server once: `RestateServer.register` in tests, the
 * `restate` CLI or the admin API in production).
 */
import http2 from 'node:http2';
import type { AddressInfo } from 'node:net';
import { createEndpointHandler } from '@restatedev/restate-sdk';
import { restateEpisodes, type RestateEpisodesOptions } from './restate-episodes.js';

/** Options of {@link serveEpisodes}. */
export interface ServeEpisodesOptions extends RestateEpisodesOptions {
  /** Port to listen on; 0 (the default) picks a free one. */
  port?: number | undefined;
  /** Address to listen on. Default 127.0.0.1. */
  host?: string | undefined;
}

/** A running endpoint. */
export interface EpisodesEndpoint {
  /** The URL to register with the Restate server. */
  url: string;
  close(): Promise<void>;
}

/** Serves the episode services on an HTTP/2 (cleartext) endpoint. */
export async function serveEpisodes(options: ServeEpisodesOptions): Promise<EpisodesEndpoint> {
  const { session, episode } = restateEpisodes(options);
  const server = http2.createServer(createEndpointHandler({ services: [session, episode] }));
  const host = options.host ?? '127.0.0.1';
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port ?? 0, host, () => resolve());
  });
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://${host}:${port}`,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        // Streams Restate keeps open would hold close() forever.
        setTimeout(resolve, 1_000).unref();
      }),
  };
}
