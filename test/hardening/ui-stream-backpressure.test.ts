/**
 * `pipeUIMessageStreamToResponse` against a slow consumer: a client that reads a
 * little, pauses, reads a little. The pipe must wait for the socket (so the producer
 * is paced by the consumer and memory stays bounded) without piling up listeners on
 * the response at every full socket.
 */
import { createServer, get, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { pipeUIMessageStreamToResponse, type UIMessageChunk } from '@episodic/core/ui-stream';
import { afterEach, describe, expect, it } from 'vitest';

const warnings: string[] = [];
const onWarning = (warning: Error) => warnings.push(warning.name);
afterEach(() => void process.off('warning', onWarning));

describe('UI message stream under backpressure', () => {
  it('keeps one close listener, paces the producer by the consumer and keeps memory bounded', async () => {
    process.on('warning', onWarning);
    const delta = 'x'.repeat(16_384);
    let produced = 0;
    const chunks = new ReadableStream<UIMessageChunk>({
      pull(controller) {
        produced += delta.length;
        controller.enqueue({ type: 'text-delta', id: 't', delta });
      },
    });
    let served: ServerResponse | undefined;
    let piped: Promise<void> | undefined;
    const server = createServer((_request, response) => {
      served = response;
      piped = pipeUIMessageStreamToResponse(chunks, response);
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    let consumed = 0;
    const maxListeners: number[] = [];
    const gaps: number[] = [];
    try {
      await new Promise<void>((resolve, reject) => {
        const request = get(`http://127.0.0.1:${(server.address() as AddressInfo).port}/`, (response) => {
          // The slow consumer: a chunk, then a pause.
          response.on('data', (chunk: Buffer) => {
            consumed += chunk.length;
            response.pause();
            setTimeout(() => response.resume(), 2);
          });
          const sampler = setInterval(() => {
            if (served) maxListeners.push(served.listenerCount('close'), served.listenerCount('drain'));
            gaps.push(produced - consumed);
          }, 20);
          setTimeout(() => {
            clearInterval(sampler);
            request.destroy();
            resolve();
          }, 2_500);
        });
        request.on('error', (error: NodeJS.ErrnoException) => (error.code === 'ECONNRESET' ? resolve() : reject(error)));
      });
      await piped;
    } finally {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    }
    expect(consumed, 'the consumer read something').toBeGreaterThan(1_000_000);
    // The response's own listeners plus the pipe's one close listener and at most one drain listener.
    expect(Math.max(...maxListeners), `listener counts ${maxListeners.slice(-6).join(', ')}`).toBeLessThanOrEqual(3);
    expect(warnings).not.toContain('MaxListenersExceededWarning');
    // Paced: what was produced and not yet consumed stays within the socket's buffers.
    expect(Math.max(...gaps)).toBeLessThan(16_000_000);
  }, 30_000);
});
