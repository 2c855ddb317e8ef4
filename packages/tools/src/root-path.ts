/**
 * Confines user (model) supplied paths to a root directory. A path is refused when
 * it climbs out with `..`, is absolute and outside the root, or passes through a
 * symbolic link whose real target is outside the root. Symbolic links that stay
 * inside the root are fine.
 *
 * The check resolves the real path of the deepest part that exists (so a path to a
 * file not yet created is judged by its real parent). Between this check and the
 * tool opening the path, another process could swap a directory for a link; the
 * built-in tools guard against the model, not against a hostile local process.
 */
import { lstat, readlink, realpath } from 'node:fs/promises';
import path from 'node:path';
import { EpisodicError } from '@episodic/core';

/** A path that would leave the tool's root directory. */
export class PathEscapeError extends EpisodicError {
  /** The path as given. */
  readonly requestedPath: string;

  constructor(requestedPath: string, reason: string) {
    super(
      'path_escape',
      `Path "${requestedPath}" is refused: ${reason}. Use a path relative to the project root, such as "src/index.ts".`,
    );
    this.requestedPath = requestedPath;
  }
}

/** A path resolved inside the root. */
export interface RootedPath {
  /** The real absolute path (symbolic links resolved as far as the path exists). */
  absolute: string;
  /** The path relative to the real root, with `/` separators (`.` for the root itself). */
  relative: string;
  /** The real path of the root. */
  root: string;
}

// Linux gives up after 40 links (ELOOP); so do we.
const MAX_LINKS = 40;

/**
 * Resolves `requestedPath` (relative to `root`, or absolute) to a real path inside
 * the root.
 *
 * @throws {@link PathEscapeError} when the path leaves the root by `..`, by being absolute
 * elsewhere, or through a symbolic link.
 */
export async function resolveInsideRoot(root: string, requestedPath: string): Promise<RootedPath> {
  if (requestedPath.includes('\0'))
    throw new PathEscapeError(requestedPath.replaceAll('\0', '\\0'), 'it contains a NUL byte');
  const realRoot = await realpath(root);
  const lexical = lexicalTarget(path.resolve(root), realRoot, requestedPath);
  if (lexical === undefined) {
    const reason = path.isAbsolute(requestedPath)
      ? 'it is an absolute path outside the project root'
      : 'it goes outside the project root';
    throw new PathEscapeError(requestedPath, reason);
  }
  const real = await realTarget(lexical, requestedPath);
  if (!isInside(realRoot, real)) {
    throw new PathEscapeError(requestedPath, 'it goes through a symbolic link that points outside the project root');
  }
  return { absolute: real, relative: toRelative(realRoot, real), root: realRoot };
}

/** True when `candidate` is `root` or below it (both absolute and normalised). */
function isInside(root: string, candidate: string): boolean {
  const relative = path.relative(root, candidate);
  return relative === '' || (!relative.startsWith(`..${path.sep}`) && relative !== '..' && !path.isAbsolute(relative));
}

/** `candidate` relative to `root` with `/` separators, `.` for the root. */
export function toRelative(root: string, candidate: string): string {
  const relative = path.relative(root, candidate);
  return relative === '' ? '.' : relative.split(path.sep).join('/');
}

/**
 * The absolute path inside the real root, or `undefined` when the path leaves it.
 * An absolute path may name the root as given or its real path (they differ when the
 * root itself is reached through a link, like `/tmp` on macOS).
 */
function lexicalTarget(givenRoot: string, realRoot: string, requestedPath: string): string | undefined {
  for (const base of [realRoot, givenRoot]) {
    const candidate = path.resolve(base, requestedPath);
    if (isInside(base, candidate)) return path.join(realRoot, path.relative(base, candidate));
    if (!path.isAbsolute(requestedPath)) return undefined;
  }
  return undefined;
}

/** The real path of `target`: realpath of its deepest existing ancestor plus the rest. */
async function realTarget(target: string, requestedPath: string): Promise<string> {
  let current = target;
  const rest: string[] = [];
  for (let links = 0; links <= MAX_LINKS;) {
    try {
      return path.join(await realpath(current), ...rest);
    } catch (error) {
      // A cycle of links: the same answer as a chain too long, without the absolute path.
      if ((error as NodeJS.ErrnoException).code === 'ELOOP') break;
      if (!isMissing(error)) throw error;
    }
    const dangling = await danglingLinkTarget(current);
    if (dangling !== undefined) {
      // A link to something that does not exist yet still decides where a write would land.
      current = dangling;
      links += 1;
      continue;
    }
    const parent = path.dirname(current);
    if (parent === current) return path.join(current, ...rest);
    rest.unshift(path.basename(current));
    current = parent;
  }
  throw new PathEscapeError(requestedPath, 'it goes through too many symbolic links');
}

async function danglingLinkTarget(candidate: string): Promise<string | undefined> {
  try {
    const stats = await lstat(candidate);
    if (!stats.isSymbolicLink()) return undefined;
    return path.resolve(path.dirname(candidate), await readlink(candidate));
  } catch (error) {
    if (isMissing(error)) return undefined;
    throw error;
  }
}

function isMissing(error: unknown): boolean {
  const code = (error as NodeJS.ErrnoException | undefined)?.code;
  return code === 'ENOENT' || code === 'ENOTDIR';
}
