/**
 * A throwaway PostgreSQL server for tests and benchmarks: `initdb` into a temporary
 * directory, `pg_ctl start` on 127.0.0.1 and a free port, and `stop()` removes it
 * all. As root, the server runs as the `postgres` user (PostgreSQL refuses root).
 *
 * {@link serverForTests} is what a test suite calls: the server `EPISODIC_PG_URL`
 * names (which must answer), else a throwaway one, else an error that says how to
 * get one. It never lets a test skip.
 */
import { execFile, spawnSync } from 'node:child_process';
import { existsSync, readdirSync } from 'node:fs';
import { chmod, chown, mkdtemp, readFile, rm } from 'node:fs/promises';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { delimiter, join } from 'node:path';
import { promisify } from 'node:util';

const run = promisify(execFile);

/** A running server and how to stop it. */
export interface LocalServer {
  /** `postgres://postgres@127.0.0.1:<port>/postgres`. */
  url: string;
  /** Stops the server and deletes its data (a no-op for a server this process did not start). */
  stop(): Promise<void>;
}

/** Options of {@link startLocalServer}. */
export interface LocalServerOptions {
  /** Extra server settings, passed as `-c name=value` (e.g. `{ fsync: 'off' }` for tests that need speed only). */
  settings?: Record<string, string>;
  /** Chooses the port, called again when the server finds it taken. Default: a port free on 127.0.0.1 at the time. */
  choosePort?: () => Promise<number>;
}

/** How many ports a server tries when each turns out to be taken by the time it binds. */
const PORT_ATTEMPTS = 5;

/** Where to tell a user to get a server. */
export const HOW_TO_GET_A_SERVER =
  'set EPISODIC_PG_URL=postgres://user@127.0.0.1:5432/database to use a running PostgreSQL server, or install PostgreSQL ' +
  '(Debian/Ubuntu: apt-get install postgresql) so a throwaway server can be started with initdb and pg_ctl.';

/** The directory holding `initdb` and `pg_ctl`: `EPISODIC_PG_BIN`, the PATH, or Debian's /usr/lib/postgresql/<version>/bin. */
export function findServerBinaries(env: NodeJS.ProcessEnv = process.env): string | undefined {
  const has = (directory: string) => existsSync(join(directory, 'initdb')) && existsSync(join(directory, 'pg_ctl'));
  if (env.EPISODIC_PG_BIN) return has(env.EPISODIC_PG_BIN) ? env.EPISODIC_PG_BIN : undefined;
  const onPath = (env.PATH ?? '').split(delimiter).find((directory) => directory && has(directory));
  if (onPath) return onPath;
  const debian = '/usr/lib/postgresql';
  const versions = existsSync(debian) ? readdirSync(debian).filter((name) => /^\d+$/.test(name)) : [];
  const newest = versions.sort((left, right) => Number(right) - Number(left)).map((version) => join(debian, version, 'bin'));
  return newest.find(has);
}

/** Starts a throwaway server; throws with {@link HOW_TO_GET_A_SERVER} when PostgreSQL is not installed. */
export async function startLocalServer(options: LocalServerOptions = {}): Promise<LocalServer> {
  const binaries = findServerBinaries();
  if (!binaries) throw new Error(`PostgreSQL's initdb and pg_ctl were not found: ${HOW_TO_GET_A_SERVER}`);
  const directory = await mkdtemp(join(tmpdir(), 'episodic-pg-'));
  const asRoot = process.getuid?.() === 0;
  if (asRoot) {
    const postgres = await run('id', ['-u', 'postgres']).catch(() => undefined);
    if (!postgres) throw new Error(`running as root, but there is no "postgres" user to run the server as: ${HOW_TO_GET_A_SERVER}`);
    const group = Number((await run('id', ['-g', 'postgres'])).stdout.trim());
    await chown(directory, Number(postgres.stdout.trim()), group);
    await chmod(directory, 0o700);
  }
  const data = join(directory, 'data');
  const asServerUser = (command: string, args: string[]) =>
    asRoot ? run('runuser', ['-u', 'postgres', '--', join(binaries, command), ...args]) : run(join(binaries, command), args);
  const settings = Object.entries(options.settings ?? {}).map(([name, value]) => `-c ${name}=${value}`);
  const stopSync = () => {
    const args = ['-D', data, '-m', 'immediate', 'stop'];
    if (asRoot) spawnSync('runuser', ['-u', 'postgres', '--', join(binaries, 'pg_ctl'), ...args], { stdio: 'ignore' });
    else spawnSync(join(binaries, 'pg_ctl'), args, { stdio: 'ignore' });
  };
  let port = 0;
  try {
    await asServerUser('initdb', ['-D', data, '-A', 'trust', '-U', 'postgres', '-E', 'UTF8', '--no-sync']);
    // A port found free can be taken before the server binds it (another process's outbound
    // connection, another test's server): then it starts on a fresh one.
    for (let attempt = 1; ; attempt++) {
      port = await (options.choosePort ?? freePort)();
      const log = join(directory, `server-${attempt}.log`);
      const serverOptions = [`-k ${directory}`, '-c listen_addresses=127.0.0.1', `-p ${port}`, ...settings].join(' ');
      try {
        await asServerUser('pg_ctl', ['-D', data, '-o', serverOptions, '-l', log, '-w', '-t', '60', 'start']);
        break;
      } catch (error) {
        const said = await readFile(log, 'utf8').catch(() => '');
        if (attempt >= PORT_ATTEMPTS || !/could not bind|address already in use/i.test(said)) {
          throw new Error(`${(error as Error).message}\nThe server's log:\n${said.slice(-2_000)}`, { cause: error });
        }
        stopSync();
      }
    }
  } catch (error) {
    stopSync();
    await rm(directory, { recursive: true, force: true });
    throw new Error(`could not start a throwaway PostgreSQL server in ${directory}: ${(error as Error).message}`, { cause: error });
  }
  // A test process that dies without calling stop() must not leave a server behind.
  process.once('exit', stopSync);
  let stopped = false;
  return {
    url: `postgres://postgres@127.0.0.1:${port}/postgres`,
    async stop() {
      if (stopped) return;
      stopped = true;
      process.removeListener('exit', stopSync);
      await asServerUser('pg_ctl', ['-D', data, '-m', 'fast', '-w', 'stop']).catch(stopSync);
      await rm(directory, { recursive: true, force: true });
    },
  };
}

/**
 * The server tests run against: `EPISODIC_PG_URL` when set (it must answer: an
 * unreachable server fails the tests, loudly), else a throwaway one started here.
 */
export async function serverForTests(env: NodeJS.ProcessEnv = process.env): Promise<LocalServer> {
  const url = env.EPISODIC_PG_URL;
  if (!url) return startLocalServer();
  const pg = (await import('pg')).default;
  const client = new pg.Client({ connectionString: url, connectionTimeoutMillis: 10_000 });
  try {
    await client.connect();
    await client.query('SELECT 1');
  } catch (error) {
    throw new Error(`EPISODIC_PG_URL is set but its server does not answer (${(error as Error).message}): start it, or unset EPISODIC_PG_URL to use a throwaway server.`, {
      cause: error,
    });
  } finally {
    await client.end().catch(() => {});
  }
  return { url, stop: async () => {} };
}

/** A server shared by the tests of one file: see {@link serverPerFile}. */
export interface SharedServer {
  /** The server's URL; rejects with the reason (how to get a server) when there is none. */
  url(): Promise<string>;
  /** Stops the server if this file started one. */
  stop(): Promise<void>;
}

/**
 * {@link serverForTests} for a test file, started once on first use. Every test that
 * needs the server awaits `url()`, so without a server each of them fails with the
 * reason, rather than being reported as skipped by a failed hook.
 */
export function serverPerFile(env: NodeJS.ProcessEnv = process.env): SharedServer {
  let started: Promise<LocalServer> | undefined;
  const start = () => (started ??= serverForTests(env));
  return {
    url: async () => (await start()).url,
    async stop() {
      const server = await started?.catch(() => undefined);
      await server?.stop();
    },
  };
}

async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      server.close(() => (typeof address === 'object' && address ? resolve(address.port) : reject(new Error('no port'))));
    });
  });
}
