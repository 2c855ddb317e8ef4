/**
 * The default tokenizer on Node: gpt-tokenizer (`#default-encoder` in package.json
 * resolves here under the `node` condition), loaded on first use of an encoding
 * (its rank table takes a while to build): required, not imported, for that reason.
 */
import { createRequire } from 'node:module';
import { checkEncodingName, type EncodingName, type TokenEncoder } from '../tokens/token-encoder.js';

/** The part of a gpt-tokenizer encoding module used here. */
interface Encoding {
  countTokens(text: string, options: { disallowedSpecial: Set<string> }): number;
}

/** Special tokens (`<|endoftext|>`) in a text are counted as the text they are, as tiktoken's `encode_ordinary` does. */
const ORDINARY = { disallowedSpecial: new Set<string>() };

const encoders = new Map<EncodingName, TokenEncoder>();

/** The shared gpt-tokenizer encoder of an encoding. */
export function defaultEncoder(name: EncodingName): TokenEncoder {
  let found = encoders.get(name);
  if (!found) {
    const encoding = createRequire(import.meta.url)(`gpt-tokenizer/cjs/encoding/${checkEncodingName(name)}`) as Encoding;
    found = { count: (text) => encoding.countTokens(text, ORDINARY) };
    encoders.set(name, found);
  }
  return found;
}
