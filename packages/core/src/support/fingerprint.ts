/**
 * Content fingerprints of packed messages, used to predict prompt-cache reuse: two
 * calls share a cached prefix only while their serialised messages are
 * byte-identical. Fingerprints are cached per object, so each packed form is
 * serialised and hashed once.
 */
import { digest } from './digest.js';

const fingerprints = new WeakMap<object, string>();

/** A short stable hash of a value's JSON serialisation. Cached per object. */
export function fingerprint(value: object): string {
  let found = fingerprints.get(value);
  if (found === undefined) {
    found = hashText(JSON.stringify(value));
    fingerprints.set(value, found);
  }
  return found;
}

/** A short stable hash of a string. */
export function hashText(text: string): string {
  return digest('sha1', text, 'base64url').slice(0, 16);
}
