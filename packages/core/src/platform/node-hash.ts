/** SHA digests on Node: node:crypto (`#digest` in package.json resolves here under the `node` condition). */
import * as crypto from 'node:crypto';
import type { DigestAlgorithm, DigestEncoding } from '../support/digest.js';

type OneShot = (algorithm: string, data: string, encoding: DigestEncoding) => string;
/**
 * `crypto.hash` (Node 20.12 and later): the same digest without a Hash object, for
 * the short texts hashed on every agent step (packed messages).
 */
const oneShot = (crypto as unknown as { hash?: OneShot }).hash;

/** The digest of a string's UTF-8 bytes, as hex or unpadded base64url. */
export function digestText(algorithm: DigestAlgorithm, text: string, encoding: DigestEncoding): string {
  if (oneShot) return oneShot(algorithm, text, encoding);
  return crypto.createHash(algorithm).update(text).digest(encoding);
}
