/**
 * Opening an embedded database: PGlite on a data directory (created when missing),
 * or in memory without one. PGlite is loaded on use, so a server user never loads
 * the WASM build.
 */
import type { PGlite } from '@electric-sql/pglite';

/** A PGlite instance on `directory` (one process at a time), or in memory. Close it when done. */
export async function openPGlite(directory?: string): Promise<PGlite> {
  const { PGlite } = await import('@electric-sql/pglite');
  return PGlite.create(directory);
}
