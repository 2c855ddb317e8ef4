/**
 * The default tokenizer on Node: tiktoken's WASM build (`#default-encoder` in
 * package.json resolves here under the `node` condition). Encoders are shared by
 * every counter of an encoding. tiktoken (and the 5.6 MB WASM module it compiles
 * when loaded) is required on the first count, not when core is imported: an
 * application that never counts, or counts later, does not pay for it at startup.
 */
import { createRequire } from 'node:module';
import type { Tiktoken } from 'tiktoken';
import { checkEncodingName, type EncodingName, type TokenEncoder } from '../tokens/token-encoder.js';

const require = createRequire(import.meta.url);

/** Whether {@link defaultEncoder} counts exactly (it does here; the browser's default bounds). */
export const defaultIsExact = true;
const encoders = new Map<EncodingName, TokenEncoder>();

/** The shared tiktoken encoder of an encoding. */
export function defaultEncoder(name: EncodingName): TokenEncoder {
  let found = encoders.get(name);
  if (!found) {
    const { get_encoding } = require('tiktoken') as typeof import('tiktoken');
    const tiktoken: Tiktoken = get_encoding(checkEncodingName(name));
    found = { count: (text) => tiktoken.encode_ordinary(text).length };
    encoders.set(name, found);
  }
  return found;
}
