/** SHA digests on Node: node:crypto (`#digest` in package.json resolves here under the `node` condition). */
import { createHash } from 'node:crypto';
import type { DigestAlgorithm, DigestEncoding } from '../support/digest.js';

/** The digest of a string's UTF-8 bytes, as hex or unpadded base64url. */
export function digestText(algorithm: DigestAlgorithm, text: string, encoding: DigestEncoding): string {
  return createHash(algorithm).update(text).digest(encoding);
}
