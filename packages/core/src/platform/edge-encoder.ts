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

/** Whether {@link defaultEncoder} counts exactly (it bounds here; tiktoken on Node is exact). */
export const defaultIsExact = false;

const HIGH_SURROGATE_START = 0xd800;
const HIGH_SURROGATE_END = 0xdbff;
const LOW_SURROGATE_START = 0xdc00;
const LOW_SURROGATE_END = 0xdfff;

/**
 * UTF-8 bytes of `text` as TextEncoder writes it (a lone surrogate becomes U+FFFD,
 * three bytes), without building the bytes.
 */
export function utf8Length(text: string): number {
  let bytes = 0;
  for (let index = 0; index < text.length; index += 1) {
    const code = text.charCodeAt(index);
    if (code < 0x80) bytes += 1;
    else if (code < 0x800) bytes += 2;
    else if (code >= HIGH_SURROGATE_START && code <= HIGH_SURROGATE_END) {
      const next = text.charCodeAt(index + 1);
      if (next >= LOW_SURROGATE_START && next <= LOW_SURROGATE_END) {
        bytes += 4;
        index += 1;
      } else bytes += 3;
    } else bytes += 3;
  }
  return bytes;
}

const bound: TokenEncoder = { count: utf8Length };

/** The byte bound, for either encoding. */
export function defaultEncoder(name: EncodingName): TokenEncoder {
  checkEncodingName(name);
  return bound;
}
