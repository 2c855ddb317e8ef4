/**
 * The database's own failures, as typed errors: the server cannot be reached, or the
 * connection was lost in the middle of work (a killed backend, a failover, a
 * restart). Both are the environment's, not a bug, and say what was being done.
 */
import { EpisodicError } from '@episodic/core';

/** The server could not be reached (refused, unknown host, timed out, authentication). */
export class DatabaseUnavailableError extends EpisodicError {
  constructor(what: string, cause: Error) {
    super('database_unavailable', `${what}: PostgreSQL cannot be reached (${cause.message}). Check the connection string and that the server is up.`, {
      cause,
    });
  }
}

/** The connection was lost while working; nothing of the unfinished transaction was committed. */
export class DatabaseConnectionLostError extends EpisodicError {
  constructor(what: string, cause: Error) {
    super(
      'database_connection_lost',
      `${what}: the connection to PostgreSQL was lost (${cause.message}); nothing of it was committed. Retry: the next attempt opens a new connection.`,
      { cause },
    );
  }
}

const unreachable = new Set(['ECONNREFUSED', 'ENOTFOUND', 'EAI_AGAIN', 'ETIMEDOUT', 'EHOSTUNREACH', 'ENETUNREACH', '28P01', '28000', '3D000']);
// 57P01 admin_shutdown (pg_terminate_backend), 57P02 crash_shutdown, 57P03 cannot_connect_now.
const lost = new Set(['ECONNRESET', 'EPIPE', '57P01', '57P02', '57P03']);

/** The typed error for a connection failure, or the error unchanged when it is something else. */
export function connectionFailure(error: unknown, what: string): unknown {
  if (EpisodicError.isInstance(error) || !(error instanceof Error)) return error;
  const code = (error as { code?: string }).code ?? '';
  if (unreachable.has(code)) return new DatabaseUnavailableError(what, error);
  if (lost.has(code) || /Connection terminated|connection.*(ended|closed)|terminating connection/i.test(error.message)) {
    return new DatabaseConnectionLostError(what, error);
  }
  return error;
}
