/**
 * The UI message stream on the wire: server-sent events, one JSON chunk per `data:`
 * line, ended by `data: [DONE]`, with the headers the AI SDK's chat transport
 * expects (`x-vercel-ai-ui-message-stream: v1`).
 *
 * @see https://ai-sdk.dev/docs/ai-sdk-ui/stream-protocol#ui-message-stream-protocol
 */
import type { ServerResponse } from 'node:http';
import type { UIMessageChunk } from './ui-message-chunk.js';

/** Response headers of a UI message stream. */
export const UI_MESSAGE_STREAM_HEADERS: Readonly<Record<string, string>> = {
  'content-type': 'text/event-stream',
  'cache-control': 'no-cache',
  connection: 'keep-alive',
  'x-vercel-ai-ui-message-stream': 'v1',
  // Proxies such as nginx would otherwise buffer the stream and the UI would not stream.
  'x-accel-buffering': 'no',
};

/** Options of the response helpers. */
export interface UIMessageStreamResponseInit {
  status?: number;
  /** Added to (and overriding) {@link UI_MESSAGE_STREAM_HEADERS}. */
  headers?: Record<string, string>;
}

/** The chunks as server-sent event text. */
export function toServerSentEvents(chunks: ReadableStream<UIMessageChunk>): ReadableStream<string> {
  return chunks.pipeThrough(
    new TransformStream<UIMessageChunk, string>({
      transform(chunk, controller) {
        controller.enqueue(`data: ${JSON.stringify(chunk)}\n\n`);
      },
      flush(controller) {
        controller.enqueue('data: [DONE]\n\n');
      },
    }),
  );
}

/** A fetch `Response` streaming the chunks (for route handlers: Next.js, Hono, Deno, Bun). */
export function createUIMessageStreamResponse(
  chunks: ReadableStream<UIMessageChunk>,
  init: UIMessageStreamResponseInit = {},
): Response {
  const body = toServerSentEvents(chunks).pipeThrough(new TextEncoderStream());
  return new Response(body, { status: init.status ?? 200, headers: { ...UI_MESSAGE_STREAM_HEADERS, ...init.headers } });
}

/**
 * Writes the chunks to a Node `http` response, honouring backpressure, and ends it.
 * A full socket stops the reading (the stream is pulled, so the producer waits too)
 * until it drains; one `close` listener for the whole pipe wakes it when the client
 * goes away (a listener per full socket piled up under a slow consumer).
 */
export async function pipeUIMessageStreamToResponse(
  chunks: ReadableStream<UIMessageChunk>,
  response: ServerResponse,
  init: UIMessageStreamResponseInit = {},
): Promise<void> {
  response.writeHead(init.status ?? 200, { ...UI_MESSAGE_STREAM_HEADERS, ...init.headers });
  const reader = toServerSentEvents(chunks).getReader();
  let wake: (() => void) | undefined;
  const onClose = () => wake?.();
  response.once('close', onClose);
  const drained = () =>
    new Promise<void>((resolve) => {
      wake = () => {
        response.off('drain', wake!);
        wake = undefined;
        resolve();
      };
      response.on('drain', wake);
    });
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      if (response.destroyed) {
        await reader.cancel();
        break;
      }
      if (!response.write(value)) await drained();
    }
  } finally {
    response.off('close', onClose);
    response.end();
  }
}
