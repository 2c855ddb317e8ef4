/**
 * SHA-1 and SHA-256 of text, synchronously, on every runtime: node:crypto on Node,
 * plain JavaScript elsewhere (package.json `imports`, `#digest`). The digests name
 * persisted things (replay cache keys, reasoning sidecars, reasoning prefixes), so
 * both builds give the same bytes; a property test checks.
 */
import { digestText } from '#digest';

/** The hash functions available. */
export type DigestAlgorithm = 'sha1' | 'sha256';
/** How a digest is written: lowercase hex, or base64url without padding. */
export type DigestEncoding = 'hex' | 'base64url';

/** The digest of a string's UTF-8 bytes. */
export function digest(algorithm: DigestAlgorithm, text: string, encoding: DigestEncoding): string {
  return digestText(algorithm, text, encoding);
}
