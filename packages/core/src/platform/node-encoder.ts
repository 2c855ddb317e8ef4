/**
 * The default tokenizer on Node: tiktoken's WASM build (`#default-encoder` in
 * package.json resolves here under the `node` condition). Encoders are shared by
 * every counter of an encoding; the WASM module loads on the first one.
 */
import { get_encoding, type Tiktoken } from 'tiktoken';
import { checkEncodingName, type EncodingName, type TokenEncoder } from '../tokens/token-encoder.js';

const encoders = new Map<EncodingName, TokenEncoder>();

/** The shared tiktoken encoder of an encoding. */
export function defaultEncoder(name: EncodingName): TokenEncoder {
  let found = encoders.get(name);
  if (!found) {
    const tiktoken: Tiktoken = get_encoding(checkEncodingName(name));
    found = { count: (text) => tiktoken.encode_ordinary(text).length };
    encoders.set(name, found);
  }
  return found;
}
