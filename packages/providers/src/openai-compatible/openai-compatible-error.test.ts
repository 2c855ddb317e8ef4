import { describe, expect, it } from 'vitest';
import { withWrappedErrorBodies, wrapErrorBody } from './openai-compatible-error.js';

describe('wrapErrorBody', () => {
  it('adds the missing `error` wrapper (Cerebras) and leaves wrapped bodies alone', () => {
    const bare =
      '{"message":"messages.2.assistant.reasoning_content: property is unsupported","code":"wrong_api_format"}';
    expect(JSON.parse(wrapErrorBody(bare))).toEqual({ error: JSON.parse(bare) });
    const wrapped = '{"error":{"message":"x"}}';
    expect(wrapErrorBody(wrapped)).toBe(wrapped);
    expect(JSON.parse(wrapErrorBody('Bad Gateway'))).toEqual({ error: { message: 'Bad Gateway' } });
  });

  it('rewrites only failed responses', async () => {
    const fetchStub = async (_input: string | URL | Request) =>
      new Response('{"message":"nope"}', { status: 400, headers: { 'x-request-id': 'req_1' } });
    const wrappedFetch = withWrappedErrorBodies(fetchStub);
    const response = await wrappedFetch('http://127.0.0.1/');
    expect(response.status).toBe(400);
    expect(response.headers.get('x-request-id')).toBe('req_1');
    expect(await response.json()).toEqual({ error: { message: 'nope' } });
    const ok = await withWrappedErrorBodies(async () => new Response('{"message":"fine"}'))('http://127.0.0.1/');
    expect(await ok.json()).toEqual({ message: 'fine' });
  });
});
