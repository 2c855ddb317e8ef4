/** The token counter the packer uses when none is given. */
import { createTokenCounter, type TokenCounter } from '../tokens/token-counter.js';

let defaultCounter: TokenCounter | undefined;

/** The counter used when none is given: o200k_base, created on first use. */
export function defaultTokenCounter(): TokenCounter {
  defaultCounter ??= createTokenCounter();
  return defaultCounter;
}
