/**
 * The tokenizer under a token counter: text in, a token count out, special tokens
 * counted as ordinary text. tiktoken (WASM) is the default on Node; browsers and
 * edge runtimes get js-tiktoken (pure JavaScript, the same counts); any other BPE
 * tokenizer can be plugged in with `createTokenCounter({ encoder })`.
 */
import { InvalidArgumentError } from '../errors/input-errors.js';

/** Counts the tokens of text, treating special-token text as ordinary text. */
export interface TokenEncoder {
  /** The number of tokens `text` encodes to. */
  count(text: string): number;
}

/** The tiktoken encodings a counter can use. */
export type EncodingName = 'o200k_base' | 'cl100k_base';

/** Checks an encoding name given at run time (from JavaScript or configuration). */
export function checkEncodingName(name: string): EncodingName {
  if (name !== 'o200k_base' && name !== 'cl100k_base') {
    throw new InvalidArgumentError(`unknown encoding "${String(name)}": use o200k_base or cl100k_base`);
  }
  return name;
}
