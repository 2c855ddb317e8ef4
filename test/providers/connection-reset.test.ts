/**
 * A connection that drops in the middle of a stream is a transient network
 * failure: every adapter must report it as a retryable `network` error, not as a
 * protocol error the agent loop gives up on.
 */
import { createServer, type Server } from 'node:http';
import { generate, type ModelAdapter } from '@episodic/core';
import { createAnthropicAdapter } from '@episodic/providers/anthropic';
import { createGoogleAdapter } from '@episodic/providers/google';
import { createOpenAIChatAdapter, createOpenAIResponsesAdapter } from '@episodic/providers/openai';
import { createOpenAICompatibleAdapter } from '@episodic/providers/openai-compatible';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

/** Answers 200, streams one event in each wire's shape, then drops the connection. */
function startDroppingServer(): Promise<{ server: Server; url: string }> {
  const server = createServer((request, response) => {
    request.resume();
    request.on('end', () => {
      response.writeHead(200, { 'content-type': 'text/event-stream' });
      response.write(
        'event: message_start\ndata: {"type":"message_start","message":{"id":"m","type":"message","role":"assistant","model":"x","content":[],"stop_reason":null,"usage":{"input_tokens":1,"output_tokens":1}}}\n\n',
      );
      setTimeout(() => response.socket?.destroy(), 10);
    });
  });
  return new Promise((resolve) =>
    server.listen(0, '127.0.0.1', () =>
      resolve({ server, url: `http://127.0.0.1:${(server.address() as { port: number }).port}` }),
    ),
  );
}

describe('a connection dropped mid-stream', () => {
  let dropping: { server: Server; url: string };
  beforeAll(async () => {
    dropping = await startDroppingServer();
  });
  afterAll(() => new Promise<void>((resolve) => dropping.server.close(() => resolve())));

  const adapters: [string, () => ModelAdapter][] = [
    [
      'anthropic',
      () => createAnthropicAdapter({ model: 'claude-opus-4-5', baseURL: dropping.url, apiKey: 'k' }),
    ],
    ['openai responses', () => createOpenAIResponsesAdapter({ model: 'gpt-5', baseURL: `${dropping.url}/v1`, apiKey: 'k' })],
    ['openai chat', () => createOpenAIChatAdapter({ model: 'gpt-4o', baseURL: `${dropping.url}/v1`, apiKey: 'k' })],
    [
      'openai-compatible',
      () =>
        createOpenAICompatibleAdapter({
          provider: 'deepseek',
          model: 'deepseek-chat',
          baseURL: `${dropping.url}/v1`,
          apiKey: 'k',
        }),
    ],
    ['google', () => createGoogleAdapter({ model: 'gemini-2.5-flash', baseURL: dropping.url, apiKey: 'k' })],
  ];

  it.each(adapters)('is a retryable network error for %s', async (_name, create) => {
    const error = await generate(create(), { messages: [{ role: 'user', content: 'hi' }] }).catch(
      (thrown: unknown) => thrown,
    );
    expect(error).toMatchObject({ kind: 'network', retryable: true });
  });
});
