/**
 * The default tokenizer in browsers and edge runtimes (`#default-encoder` in
 * package.json resolves here outside Node): a text's UTF-8 length in bytes, an upper
 * bound of its o200k_base or cl100k_base count. Those encodings are byte-level BPE:
 * every token stands for at least one byte of the text, so a text never has more
 * tokens than bytes, and a pack counted this way never overflows what the exact count
 * would allow. The bound ships no rank table (the o200k ranks are 2 MB of a bundle);
 * it overcounts prose, code and JSON about three- to fourfold until the first
 * reported usage calibrates it (see calibration.ts). For exact counts, pass
 * js-tiktoken (an optional peer) as `createTokenCounter({ encoder })`.
 */
import { checkEncodingName, type EncodingName, type TokenEncoder } from '../tokens/token-encoder.js';
import { utf8Length } from '../tokens/utf8-length.js';

/** Whether {@link defaultEncoder} counts exactly (it bounds here; tiktoken on Node is exact). */
export const defaultIsExact = false;

const bound: TokenEncoder = { count: utf8Length };

/** The byte bound, for either encoding. */
export function defaultEncoder(name: EncodingName): TokenEncoder {
  checkEncodingName(name);
  return bound;
}
