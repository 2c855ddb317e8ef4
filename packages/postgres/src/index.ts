/**
 * @episodic/postgres: the session store and the reasoning replay cache on
 * PostgreSQL (through `pg`) or embedded PGlite, for one process or many workers.
 */
export type { ConnectionOptions, PGliteLike, PGliteQueryable } from './database.js';
export { type EmbeddedPGlite, openPGlite } from './embedded.js';
export { type Migration, migrations, SCHEMA_VERSION, SchemaTooNewError } from './migrations.js';
export { PostgresReplayCache, type PostgresReplayCacheOptions } from './postgres-replay-cache.js';
export { DEFAULT_LEASE_MS, PostgresSessionStore, type PostgresSessionStoreOptions } from './postgres-session-store.js';
export { DatabaseConnectionLostError, DatabaseUnavailableError } from './database-errors.js';
