/**
 * SHA-1 and SHA-256 in plain JavaScript for browsers and edge runtimes (`#digest` in
 * package.json resolves here outside Node), where node:crypto is missing and Web
 * Crypto's digest is asynchronous. Must equal node:crypto byte for byte.
 */
import type { DigestAlgorithm, DigestEncoding } from '../support/digest.js';

const BASE64URL = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_';

/**
 * The first 32 bits of the fractional parts of the cube roots of the first 64 primes.
 * The primes are found once: this runs when the module loads, on a page's startup path.
 */
const SHA256_K = (() => {
  const primes: number[] = [];
  for (let candidate = 2; primes.length < 64; candidate += 1) {
    if (primes.every((prime) => candidate % prime !== 0)) primes.push(candidate);
  }
  return Uint32Array.from(primes, (prime) => {
    const root = Math.cbrt(prime);
    return Math.floor((root - Math.floor(root)) * 2 ** 32);
  });
})();

/** The 64-byte blocks of a message with SHA padding and the bit length at the end. */
function paddedBlocks(bytes: Uint8Array): DataView {
  const length = Math.ceil((bytes.length + 9) / 64) * 64;
  const padded = new Uint8Array(length);
  padded.set(bytes);
  padded[bytes.length] = 0x80;
  const view = new DataView(padded.buffer);
  const bits = bytes.length * 8;
  view.setUint32(length - 8, Math.floor(bits / 2 ** 32));
  view.setUint32(length - 4, bits >>> 0);
  return view;
}

const rotl = (value: number, bits: number) => (value << bits) | (value >>> (32 - bits));
const rotr = (value: number, bits: number) => (value >>> bits) | (value << (32 - bits));

function sha1Block(state: number[], words: Uint32Array): void {
  for (let index = 16; index < 80; index += 1) {
    words[index] = rotl(words[index - 3]! ^ words[index - 8]! ^ words[index - 14]! ^ words[index - 16]!, 1);
  }
  let [a, b, c, d, e] = state as [number, number, number, number, number];
  for (let index = 0; index < 80; index += 1) {
    const round = Math.floor(index / 20);
    const f = round === 0 ? (b & c) | (~b & d) : round === 2 ? (b & c) | (b & d) | (c & d) : b ^ c ^ d;
    const k = [0x5a827999, 0x6ed9eba1, 0x8f1bbcdc, 0xca62c1d6][round]!;
    const next = (rotl(a, 5) + f + e + k + words[index]!) >>> 0;
    [e, d, c, b, a] = [d, c, rotl(b, 30), a, next];
  }
  [a, b, c, d, e].forEach((value, index) => (state[index] = (state[index]! + value) >>> 0));
}

function sha256Block(state: number[], words: Uint32Array): void {
  for (let index = 16; index < 64; index += 1) {
    const [w15, w2] = [words[index - 15]!, words[index - 2]!];
    const s0 = rotr(w15, 7) ^ rotr(w15, 18) ^ (w15 >>> 3);
    const s1 = rotr(w2, 17) ^ rotr(w2, 19) ^ (w2 >>> 10);
    words[index] = (words[index - 16]! + s0 + words[index - 7]! + s1) >>> 0;
  }
  let [a, b, c, d, e, f, g, h] = state as [number, number, number, number, number, number, number, number];
  for (let index = 0; index < 64; index += 1) {
    const t1 = (h + (rotr(e, 6) ^ rotr(e, 11) ^ rotr(e, 25)) + ((e & f) ^ (~e & g)) + SHA256_K[index]! + words[index]!) >>> 0;
    const t2 = ((rotr(a, 2) ^ rotr(a, 13) ^ rotr(a, 22)) + ((a & b) ^ (a & c) ^ (b & c))) >>> 0;
    [h, g, f, e, d, c, b, a] = [g, f, e, (d + t1) >>> 0, c, b, a, (t1 + t2) >>> 0];
  }
  [a, b, c, d, e, f, g, h].forEach((value, index) => (state[index] = (state[index]! + value) >>> 0));
}

const initial: Record<DigestAlgorithm, readonly number[]> = {
  sha1: [0x67452301, 0xefcdab89, 0x98badcfe, 0x10325476, 0xc3d2e1f0],
  sha256: [0x6a09e667, 0xbb67ae85, 0x3c6ef372, 0xa54ff53a, 0x510e527f, 0x9b05688c, 0x1f83d9ab, 0x5be0cd19],
};

function digestBytes(algorithm: DigestAlgorithm, bytes: Uint8Array): Uint8Array {
  const view = paddedBlocks(bytes);
  const state = [...initial[algorithm]];
  const words = new Uint32Array(algorithm === 'sha1' ? 80 : 64);
  for (let offset = 0; offset < view.byteLength; offset += 64) {
    for (let index = 0; index < 16; index += 1) words[index] = view.getUint32(offset + index * 4);
    (algorithm === 'sha1' ? sha1Block : sha256Block)(state, words);
  }
  const out = new Uint8Array(state.length * 4);
  const outView = new DataView(out.buffer);
  state.forEach((word, index) => outView.setUint32(index * 4, word));
  return out;
}

function base64url(bytes: Uint8Array): string {
  let text = '';
  for (let index = 0; index < bytes.length; index += 3) {
    const chunk = (bytes[index]! << 16) | ((bytes[index + 1] ?? 0) << 8) | (bytes[index + 2] ?? 0);
    const chars = Math.min(4, Math.ceil(((bytes.length - index) * 8) / 6));
    for (let position = 0; position < chars; position += 1) text += BASE64URL[(chunk >>> (18 - position * 6)) & 63];
  }
  return text;
}

const hex = (bytes: Uint8Array) => Array.from(bytes, (byte) => byte.toString(16).padStart(2, '0')).join('');

/** The digest of a string's UTF-8 bytes, as hex or unpadded base64url, as node:crypto gives it. */
export function digestText(algorithm: DigestAlgorithm, text: string, encoding: DigestEncoding): string {
  const bytes = digestBytes(algorithm, new TextEncoder().encode(text));
  return encoding === 'hex' ? hex(bytes) : base64url(bytes);
}
