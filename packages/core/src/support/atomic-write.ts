/**
 * Atomic file replacement: write a temporary file beside the target, flush it to
 * disk, then rename it over the target. A crash at any point leaves either the old
 * file or the new one, never a half-written mix.
 */
import { randomBytes } from 'node:crypto';
import { open, rename, unlink } from 'node:fs/promises';

/** Replaces `path` with `text` atomically. `sync: false` skips the fsync (tests, throwaway data). */
export async function writeFileAtomic(path: string, text: string, options: { sync?: boolean } = {}): Promise<void> {
  const temporary = `${path}.${randomBytes(6).toString('hex')}.tmp`;
  const handle = await open(temporary, 'w');
  try {
    await handle.writeFile(text, 'utf8');
    if (options.sync !== false) await handle.sync();
  } catch (error) {
    await handle.close();
    await unlink(temporary).catch(() => {});
    throw error;
  }
  await handle.close();
  try {
    await rename(temporary, path);
  } catch (error) {
    await unlink(temporary).catch(() => {});
    throw error;
  }
}
