/**
 * Files that usually hold credentials (`.env`, private keys, registry tokens, cloud
 * and git credentials). The file tools refuse to read them by default, so keys never
 * reach the model, the provider or the session transcript. A pattern without a `/`
 * matches the file's base name; one with a `/` matches the end of its path (so
 * `.aws/credentials` matches `home/.aws/credentials`); `*` stands for any run of
 * characters other than `/`. Matching ignores case: on macOS and Windows `.ENV` is
 * the same file as `.env`.
 */
import path from 'node:path';
import { ToolUsageError } from './tool-errors.js';

/** The default secret-file patterns. */
export const DEFAULT_SECRET_FILES: readonly string[] = [
  '.env',
  '.env.*',
  '.envrc',
  '*.pem',
  '*.key',
  '*.p12',
  '*.pfx',
  'id_rsa',
  'id_dsa',
  'id_ecdsa',
  'id_ed25519',
  '.npmrc',
  '.netrc',
  '.pypirc',
  '.git-credentials',
  '.aws/credentials',
  'credentials.json',
];

// Templates that document variables without values.
const TEMPLATES = new Set(['.env.example', '.env.sample', '.env.template', '.env.dist']);

/** Decides whether a path names a secrets file; `false` turns the protection off. */
export type SecretFilesOption = readonly string[] | false;

/** Returns the pattern `relativePath` matches, or undefined when it is not a secrets file. */
export function secretPatternOf(relativePath: string, option: SecretFilesOption = DEFAULT_SECRET_FILES): string | undefined {
  if (option === false) return undefined;
  const normalized = relativePath.split(path.sep).join('/');
  const name = path.posix.basename(normalized);
  if (TEMPLATES.has(name.toLowerCase())) return undefined;
  return option.find((pattern) => globToRegExp(pattern).test(pattern.includes('/') ? normalized : name));
}

/** Throws a clear error when `relativePath` is a secrets file. */
export function refuseSecretFile(relativePath: string, option: SecretFilesOption | undefined): void {
  const pattern = secretPatternOf(relativePath, option ?? DEFAULT_SECRET_FILES);
  if (pattern === undefined) return;
  throw new ToolUsageError(
    'secret_file',
    `"${relativePath}" looks like a secrets file (matches "${pattern}") and is not read, so that keys never reach ` +
      'the model or the transcript. Ask the user for the value you need; to allow such files, pass `secretFiles` ' +
      '(your own list, or false) in the tool options.',
  );
}

const compiled = new Map<string, RegExp>();

function globToRegExp(pattern: string): RegExp {
  let found = compiled.get(pattern);
  if (!found) {
    const source = pattern.split('*').map((piece) => piece.replace(/[.+?^${}()|[\]\\]/g, '\\$&')).join('[^/]*');
    found = new RegExp(pattern.includes('/') ? `(?:^|/)${source}$` : `^${source}$`, 'i');
    compiled.set(pattern, found);
  }
  return found;
}
