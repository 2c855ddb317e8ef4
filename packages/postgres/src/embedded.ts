/**
 * Opening an embedded database: PGlite on a data directory (created when missing),
 * or in memory without one. PGlite is loaded on use, so a server user never loads
 * the WASM build.
 */
import type { PGliteLike } from './database.js';

/**
 * What {@link openPGlite} gives: the PGlite instance, typed as the stores use it (plus
 * `close`), so these declarations need no PGlite types (whose own declarations need
 * `@types/emscripten` under `skipLibCheck: false`). It is a whole `PGlite`: import the
 * type from `@electric-sql/pglite` and cast to use the rest of its API.
 */
export interface EmbeddedPGlite extends PGliteLike {
  /** Closes the database (and flushes it to its directory). */
  close(): Promise<void>;
}

/** A PGlite instance on `directory` (one process at a time), or in memory. Close it when done. */
export async function openPGlite(directory?: string): Promise<EmbeddedPGlite> {
  const { PGlite } = await import('@electric-sql/pglite');
  return PGlite.create(directory);
}
