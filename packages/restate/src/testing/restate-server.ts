/**
 * A throwaway Restate server for tests and benchmarks: the binary that
 * `@restatedev/restate-server` installs from npm (install it as a dev dependency),
 * on 127.0.0.1 with free ports and a temporary data directory, telemetry off.
 * `start` fails loudly when the binary is missing or the server does not come up;
 * `kill` and `restart` let a fault run SIGKILL the server itself and bring it back
 * on the same ports and data.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { RestateEpisodeError } from '../restate-episode-error.js';

/** Options of {@link RestateServer.start}. */
export interface RestateServerOptions {
  /** How long to wait for the server to be healthy. Default 60,000 ms. */
  startTimeoutMs?: number;
  /** Retry policy of invocations, in ms. Default from 100 ms, at most 1 s apart. */
  retryMaxIntervalMs?: number;
  /**
   * Chooses the server's four ports, called again for each launch that finds one taken.
   * Default: ports free on 127.0.0.1 at the time of the call.
   */
  choosePorts?: () => Promise<RestatePorts>;
}

/** The ports a {@link RestateServer} listens on, all on 127.0.0.1. */
export interface RestatePorts {
  /** Where clients send invocations. */
  ingress: number;
  /** The admin API (deployments, queries, health). */
  admin: number;
  /** The node's own address (its message fabric). */
  node: number;
  /** The admin query engine's PostgreSQL wire protocol. */
  query: number;
}

/** See the module comment. */
export class RestateServer {
  private process: ChildProcess | undefined;
  private output = '';

  private constructor(
    private readonly binary: string,
    private readonly directory: string,
    private ports: RestatePorts,
    private readonly startTimeoutMs: number,
    private readonly retryMaxIntervalMs: number,
  ) {}

  /** The ingress URL, where clients send episodes. */
  get ingressUrl(): string {
    return `http://127.0.0.1:${this.ports.ingress}`;
  }

  /** The admin URL, where deployments are registered. */
  get adminUrl(): string {
    return `http://127.0.0.1:${this.ports.admin}`;
  }

  /** The server's process id while it runs. */
  get pid(): number | undefined {
    return this.process?.pid;
  }

  /**
   * Starts a server (see the module comment). A port found free can be taken by another
   * process before the server binds it (an outbound connection's ephemeral port, another
   * test's server): when the server reports an address in use, it starts again on fresh
   * ports, up to 5 times.
   */
  static async start(options: RestateServerOptions = {}): Promise<RestateServer> {
    const binary = serverBinary();
    const directory = await mkdtemp(join(tmpdir(), 'episodic-restate-'));
    const choosePorts = options.choosePorts ?? freePorts;
    const timeout = options.startTimeoutMs ?? 60_000;
    const server = new RestateServer(binary, directory, await choosePorts(), timeout, options.retryMaxIntervalMs ?? 1_000);
    for (let attempt = 1; ; attempt++) {
      try {
        await server.writeConfig();
        await server.launch();
        return server;
      } catch (error) {
        await server.kill();
        if (attempt < PORT_ATTEMPTS && isAddressInUse(error)) {
          server.ports = await choosePorts();
          // The failed launch may have written its node's address into the data: start clean.
          await rm(join(directory, 'data'), { recursive: true, force: true });
          continue;
        }
        await server.stop();
        throw error;
      }
    }
  }

  /** Registers (or re-registers) the endpoint at `url` with the server. */
  async register(url: string): Promise<void> {
    const response = await fetch(`${this.adminUrl}/deployments`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ uri: url, force: true }),
    });
    if (!response.ok) {
      throw new RestateEpisodeError('restate_server_failed', `registering ${url} with Restate failed: ${response.status} ${await response.text()}`);
    }
  }

  /** Rows of a query on the server's introspection tables (`sys_invocation`, `sys_journal`, ...). */
  async query<Row>(sql: string): Promise<Row[]> {
    const response = await fetch(`${this.adminUrl}/query`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'application/json' },
      body: JSON.stringify({ query: sql }),
    });
    if (!response.ok) throw new RestateEpisodeError('restate_request_failed', `query failed: ${response.status} ${await response.text()}`);
    return ((await response.json()) as { rows: Row[] }).rows;
  }

  /** SIGKILLs the server (a crash: nothing is flushed on purpose); `restart` brings it back. */
  async kill(): Promise<void> {
    const child = this.process;
    this.process = undefined;
    // One that already exited (with a code, or killed by a signal) fires no 'exit' again.
    if (!child || child.exitCode !== null || child.signalCode !== null) return;
    const exited = new Promise((resolve) => child.once('exit', resolve));
    child.kill('SIGKILL');
    await exited;
  }

  /**
   * Starts the server again on the same ports and data directory. Clients hold those
   * ports, so an address briefly in use is waited for (up to 5 launches, 500 ms apart)
   * rather than moved from.
   */
  async restart(): Promise<void> {
    await this.kill();
    for (let attempt = 1; ; attempt++) {
      try {
        await this.launch();
        return;
      } catch (error) {
        await this.kill();
        if (attempt >= PORT_ATTEMPTS || !isAddressInUse(error)) throw error;
        await new Promise((resolve) => setTimeout(resolve, 500));
      }
    }
  }

  /** Stops the server and deletes its data. */
  async stop(): Promise<void> {
    await this.kill();
    await rm(this.directory, { recursive: true, force: true });
  }

  private async writeConfig(): Promise<void> {
    await writeFile(join(this.directory, 'restate.toml'), config(this.directory, this.ports, this.retryMaxIntervalMs));
  }

  private async launch(): Promise<void> {
    this.output = '';
    const child = spawn(this.binary, ['--config-file', join(this.directory, 'restate.toml'), '--listen-mode', 'tcp', '--no-logo'], {
      stdio: ['ignore', 'pipe', 'pipe'],
      env: { ...process.env, DO_NOT_TRACK: '1', RESTATE_LOG_FORMAT: 'compact' },
    });
    this.process = child;
    const keep = (chunk: Buffer) => (this.output = (this.output + chunk.toString()).slice(-4_000));
    child.stdout?.on('data', keep);
    child.stderr?.on('data', keep);
    // Its output streams end after it exits: the reason it gives comes with them.
    const closed = new Promise((resolve) => child.once('close', resolve));
    const deadline = Date.now() + this.startTimeoutMs;
    while (Date.now() < deadline) {
      if (child.exitCode !== null || child.signalCode !== null) {
        await Promise.race([closed, new Promise((resolve) => setTimeout(resolve, 1_000))]);
        break;
      }
      if (await healthy(`${this.adminUrl}/health`) && await healthy(`${this.ingressUrl}/restate/health`)) return;
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    const why = child.exitCode !== null ? `it exited with ${child.exitCode}` : `it was not healthy within ${this.startTimeoutMs} ms`;
    throw new RestateEpisodeError('restate_server_failed', `the Restate server (${this.binary}) did not start: ${why}. Its output:\n${this.output}`);
  }
}

/** How many times a server is launched when its ports turn out to be taken. */
const PORT_ATTEMPTS = 5;

async function freePorts(): Promise<RestatePorts> {
  return { ingress: await freePort(), admin: await freePort(), node: await freePort(), query: await freePort() };
}

/** Whether a launch failed because a port was taken between choosing it and binding it. */
function isAddressInUse(error: unknown): boolean {
  return error instanceof RestateEpisodeError && /address (already )?in use/i.test(error.message);
}

/** The path of the server binary `@restatedev/restate-server` installed for this platform. */
export function serverBinary(): string {
  const require = createRequire(import.meta.url);
  const name = `@restatedev/restate-server-${process.platform}-${process.arch}/bin/restate-server`;
  try {
    return require.resolve(name);
  } catch (error) {
    throw new RestateEpisodeError(
      'restate_server_failed',
      `no Restate server binary for ${process.platform}-${process.arch}: install @restatedev/restate-server (it brings ${name} as an optional dependency)`,
      { cause: error },
    );
  }
}

function config(directory: string, ports: RestatePorts, retryMaxIntervalMs: number): string {
  return `disable-telemetry = true
base-dir = "${join(directory, 'data')}"
bind-address = "127.0.0.1:${ports.node}"
advertised-address = "http://127.0.0.1:${ports.node}/"
default-num-partitions = 4
rocksdb-total-memory-size = "256 MiB"
log-filter = "warn"

[default-retry-policy]
initial-interval = "100ms"
exponentiation-factor = 2.0
max-interval = "${retryMaxIntervalMs}ms"
max-attempts = 100000
on-max-attempts = "pause"

[worker.invoker]
# One invocation per HTTP/2 connection, so a load balancer in front of several endpoints spreads them.
http2-streams-per-connection-limit = 1
# An attempt silent this long is suspended and retried (default 1 min): a test notices a stuck one sooner.
inactivity-timeout = "10s"

[admin]
bind-address = "127.0.0.1:${ports.admin}"
disable-web-ui = true

[admin.query-engine]
pgsql-bind-address = "127.0.0.1:${ports.query}"
memory-size = "64 MiB"

[ingress]
bind-address = "127.0.0.1:${ports.ingress}"
`;
}

async function healthy(url: string): Promise<boolean> {
  try {
    const response = await fetch(url, { signal: AbortSignal.timeout(1_000) });
    await response.arrayBuffer();
    return response.ok;
  } catch {
    return false;
  }
}

/**
 * A port free on 127.0.0.1 right now, chosen below the system's ephemeral range where
 * it can tell (Linux): a port the OS hands out for `listen(0)` is in that range, where
 * any process's next outbound connection may take it before the caller binds it.
 */
export async function freePort(): Promise<number> {
  const low = ephemeralLow();
  for (let tries = 0; low !== undefined && low > 10_000 && tries < 20; tries++) {
    const port = 10_000 + Math.floor(Math.random() * (low - 10_000));
    if (await bindable(port)) return port;
  }
  return listenOn(0);
}

function ephemeralLow(): number | undefined {
  try {
    const low = Number(readFileSync('/proc/sys/net/ipv4/ip_local_port_range', 'utf8').trim().split(/\s+/)[0]);
    return Number.isInteger(low) ? low : undefined;
  } catch {
    return undefined;
  }
}

async function bindable(port: number): Promise<boolean> {
  return listenOn(port).then(
    () => true,
    () => false,
  );
}

function listenOn(port: number): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(port, '127.0.0.1', () => {
      const address = server.address();
      const bound = typeof address === 'object' && address ? address.port : 0;
      server.close(() => resolve(bound));
    });
  });
}
