import { ModelError } from '@episodic/core';
import { describe, expect, it } from 'vitest';
import { apiKeysOf, NO_API_KEY } from './missing-api-key-error.js';
import { callProvider, createProviderAdapter } from './provider-adapter.js';

describe('createProviderAdapter', () => {
  it("keeps the adapter's API key out of the error a provider echoed it in", async () => {
    const key = 'sk-test-0123456789abcdef';
    const adapter = createProviderAdapter({
      model: { provider: 'acme', id: 'acme-1' },
      profile: { id: 'acme-1' } as never,
      prepare: () => ({ body: {}, warnings: [] }),
      open: () => Promise.reject(new Error(`401 Incorrect API key provided: ${key}`)),
      map: async function* () {},
      mapError: (error) => new ModelError('auth', `acme (HTTP 401): ${(error as Error).message}`, { cause: error }),
      secretValues: () => apiKeysOf({ apiKey: key }),
    });
    expect(adapter.secretValues?.()).toEqual([key]);
    const events = adapter.stream({ messages: [] } as never);
    const error = await (async () => {
      for await (const _event of events) {
        // Nothing streams: the call fails on open.
      }
    })().catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(ModelError);
    expect((error as ModelError).message).toBe('acme (HTTP 401): 401 Incorrect API key provided: [redacted]');
    expect(((error as ModelError).cause as Error).message).not.toContain(key);
  });

  it('takes the key a client holds, but not the placeholder of a server that needs none', () => {
    expect(apiKeysOf({ apiKey: 'sk-real-key-123' })).toEqual(['sk-real-key-123']);
    expect(apiKeysOf({ apiKey: NO_API_KEY })).toEqual([]);
    expect(apiKeysOf({ apiKey: null })).toEqual([]);
  });

  it('maps and redacts errors of calls beside the stream (token counting) the same way', async () => {
    const key = 'sk-test-0123456789abcdef';
    const error = await callProvider(
      {
        mapError: (caught) => new ModelError('auth', `acme (HTTP 401): ${(caught as Error).message}`, { cause: caught }),
        secretValues: () => apiKeysOf({ apiKey: key }),
      },
      undefined,
      () => Promise.reject(new Error(`401 Incorrect API key provided: ${key}`)),
    ).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(ModelError);
    expect((error as ModelError).message).toBe('acme (HTTP 401): 401 Incorrect API key provided: [redacted]');
  });
});
