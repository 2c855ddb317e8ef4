/**
 * The default tokenizer in browsers and edge runtimes: js-tiktoken, pure
 * JavaScript with tiktoken's rank files, so it gives tiktoken's counts without a
 * WASM file to load (`#default-encoder` in package.json resolves here outside
 * Node). js-tiktoken is an optional peer dependency: install it to bundle
 * `@episodic/core` for the browser.
 */
import { Tiktoken } from 'js-tiktoken/lite';
import o200k from 'js-tiktoken/ranks/o200k_base';
import { InvalidArgumentError } from '../errors/input-errors.js';
import { checkEncodingName, type EncodingName, type TokenEncoder } from '../tokens/token-encoder.js';

const encoders = new Map<EncodingName, TokenEncoder>();

/** The shared js-tiktoken encoder of an encoding. */
export function defaultEncoder(name: EncodingName): TokenEncoder {
  let found = encoders.get(name);
  if (!found) {
    // Only o200k's ranks are bundled (1 MB each): cl100k comes as an encoder you pass.
    if (checkEncodingName(name) !== 'o200k_base') {
      throw new InvalidArgumentError(
        `encoding ${name} has no built-in encoder outside Node: pass createTokenCounter({ encoding, encoder }) with js-tiktoken's ${name} ranks`,
      );
    }
    const tiktoken = new Tiktoken(o200k);
    // No special token is allowed or refused: their text is encoded as ordinary text, as tiktoken's encode_ordinary does.
    found = { count: (text) => tiktoken.encode(text, [], []).length };
    encoders.set(name, found);
  }
  return found;
}
