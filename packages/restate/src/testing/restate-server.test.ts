import { readFileSync } from 'node:fs';
import { createServer, type Server, type Socket } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { freePort, type RestatePorts, RestateServer } from './restate-server.js';

const held: Server[] = [];
const sockets: Socket[] = [];

afterEach(async () => {
  for (const socket of sockets.splice(0)) socket.destroy();
  await Promise.all(held.splice(0).map((server) => new Promise((resolve) => server.close(resolve))));
});

/** A port held by a listener that accepts and never answers (health checks reach it). */
async function holdPort(): Promise<number> {
  const server = createServer((socket) => sockets.push(socket));
  held.push(server);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  if (typeof address !== 'object' || !address) throw new Error('no address');
  return address.port;
}

async function fourFreePorts(): Promise<RestatePorts> {
  return { ingress: await freePort(), admin: await freePort(), node: await freePort(), query: await freePort() };
}

describe('RestateServer.start', () => {
  it('starts again on fresh ports when a port it chose was taken before the server bound it', async () => {
    const taken = await holdPort();
    const chosen: RestatePorts[] = [];
    const server = await RestateServer.start({
      choosePorts: async () => {
        const ports = chosen.length === 0 ? { ...(await fourFreePorts()), node: taken } : await fourFreePorts();
        chosen.push(ports);
        return ports;
      },
    });
    try {
      expect(chosen).toHaveLength(2);
      expect(server.ingressUrl).toBe(`http://127.0.0.1:${chosen[1]!.ingress}`);
      expect((await fetch(`${server.adminUrl}/health`)).ok).toBe(true);
      // The restarted server keeps its ports.
      await server.restart();
      expect((await fetch(`${server.ingressUrl}/restate/health`)).ok).toBe(true);
    } finally {
      await server.stop();
    }
  }, 120_000);

  it('gives up with the server’s own reason when every launch finds a port taken', async () => {
    const taken = await holdPort();
    let calls = 0;
    const started = RestateServer.start({
      choosePorts: async () => {
        calls++;
        return { ...(await fourFreePorts()), admin: taken };
      },
    });
    await expect(started).rejects.toThrow(/did not start: it exited with \d+[\s\S]*in use/i);
    expect(calls).toBe(5);
  }, 120_000);
});

describe('freePort', () => {
  it('chooses ports below the ephemeral range, where outbound connections do not land', async () => {
    const [low] = readFileSync('/proc/sys/net/ipv4/ip_local_port_range', 'utf8').trim().split(/\s+/).map(Number);
    const ports = await Promise.all(Array.from({ length: 20 }, () => freePort()));
    for (const port of ports) {
      expect(port).toBeGreaterThanOrEqual(10_000);
      expect(port).toBeLessThan(low!);
    }
  });
});
