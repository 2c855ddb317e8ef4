import { createServer, type Server } from 'node:net';
import pg from 'pg';
import { afterEach, describe, expect, it } from 'vitest';
import { startLocalServer } from './local-server.js';

const held: Server[] = [];

afterEach(async () => {
  await Promise.all(held.splice(0).map((server) => new Promise((resolve) => server.close(resolve))));
});

async function port(hold: boolean): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  if (typeof address !== 'object' || !address) throw new Error('no address');
  if (hold) held.push(server);
  else await new Promise((resolve) => server.close(resolve));
  return address.port;
}

describe('startLocalServer', () => {
  it('starts on a fresh port when the port it chose was taken before the server bound it', async () => {
    const taken = await port(true);
    const chosen: number[] = [];
    const server = await startLocalServer({
      choosePort: async () => {
        const next = chosen.length === 0 ? taken : await port(false);
        chosen.push(next);
        return next;
      },
    });
    try {
      expect(chosen).toHaveLength(2);
      expect(server.url).toBe(`postgres://postgres@127.0.0.1:${chosen[1]}/postgres`);
      const client = new pg.Client({ connectionString: server.url });
      await client.connect();
      try {
        expect((await client.query<{ one: number }>('SELECT 1 AS one')).rows).toEqual([{ one: 1 }]);
      } finally {
        await client.end();
      }
    } finally {
      await server.stop();
    }
  }, 120_000);

  it('gives up after five taken ports, with the server log saying why', async () => {
    const taken = await port(true);
    let calls = 0;
    const started = startLocalServer({
      choosePort: async () => {
        calls++;
        return taken;
      },
    });
    await expect(started).rejects.toThrow(/could not start a throwaway PostgreSQL server[\s\S]*(could not bind|already in use)/i);
    expect(calls).toBe(5);
  }, 120_000);
});
