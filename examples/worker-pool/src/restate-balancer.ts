/**
 * A TCP load balancer for the Restate fault run: Restate calls one endpoint URL (a
 * deployment), so several worker processes sit behind one port, as they would behind
 * any load balancer. Each connection goes to the next live worker in turn; a
 * worker's death resets its connections, and Restate retries those attempts through
 * the balancer on a live one.
 */
import { createServer, type Server, type Socket, connect } from 'node:net';
import type { AddressInfo } from 'node:net';

/** See the module comment. */
export class Balancer {
  private readonly targets = new Set<number>();
  private readonly sockets = new Set<Socket>();
  private next = 0;

  private constructor(private readonly server: Server) {}

  /** Listens on a free port of 127.0.0.1. */
  static async start(): Promise<Balancer> {
    const server = createServer();
    const balancer = new Balancer(server);
    server.on('connection', (socket) => balancer.forward(socket));
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    return balancer;
  }

  get url(): string {
    return `http://127.0.0.1:${(this.server.address() as AddressInfo).port}`;
  }

  add(port: number): void {
    this.targets.add(port);
  }

  remove(port: number): void {
    this.targets.delete(port);
  }

  async close(): Promise<void> {
    for (const socket of this.sockets) socket.destroy();
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }

  private forward(socket: Socket): void {
    const ports = [...this.targets];
    const port = ports[this.next++ % Math.max(1, ports.length)];
    if (port === undefined) {
      socket.destroy();
      return;
    }
    const upstream = connect(port, '127.0.0.1');
    for (const end of [socket, upstream]) {
      this.sockets.add(end);
      end.on('error', () => {});
      end.on('close', () => {
        this.sockets.delete(end);
        socket.destroy();
        upstream.destroy();
      });
    }
    socket.pipe(upstream);
    upstream.pipe(socket);
  }
}
