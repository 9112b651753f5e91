/**
 * SHA-256, SHA-1 (FIPS 180-4) and HMAC-SHA-256 (RFC 2104) in TypeScript,
 * synchronous, with no import: what `digest.ts` hashes with before
 * `node:crypto` is loaded. Tested against `node:crypto` on any bytes.
 *
 * @module
 */

/**
 * SHA-256 of bytes or of a string's UTF-8, as lowercase hex.
 *
 * @example
 * ```ts
 * import { sha256Hex } from "./sha.ts";
 * import assert from "node:assert/strict";
 *
 * assert.equal(
 *   sha256Hex("abc"),
 *   "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad",
 * );
 * ```
 *
 * @param data bytes, or a string hashed as UTF-8
 * @returns 64 hex digits
 */
export function sha256Hex(data: Uint8Array | string): string {
  return hex(sha256([utf8(data)]));
}

/**
 * SHA-1 of a sequence of byte strings, as if concatenated, as lowercase hex.
 *
 * @example
 * ```ts
 * import { sha1Hex } from "./sha.ts";
 * import assert from "node:assert/strict";
 *
 * const abc = new TextEncoder().encode("abc");
 * assert.equal(sha1Hex(abc), "a9993e364706816aba3e25717850c26c9cd0d89d");
 * ```
 *
 * @param parts the bytes, in order
 * @returns 40 hex digits
 */
export function sha1Hex(...parts: Uint8Array[]): string {
  return hex(sha1(parts));
}

/**
 * HMAC-SHA-256 of a string's UTF-8, as lowercase hex.
 *
 * @example
 * ```ts
 * import { hmacSha256Hex } from "./sha.ts";
 * import assert from "node:assert/strict";
 *
 * assert.equal(
 *   hmacSha256Hex("Jefe", "what do ya want for nothing?"),
 *   "5bdcc146bf60754e6a042426089575c75a003f089d2739839dec58b964ec3843",
 * );
 * ```
 *
 * @param key the secret
 * @param text the message
 * @returns 64 hex digits
 */
export function hmacSha256Hex(key: string, text: string): string {
  let secret = utf8(key);
  if (secret.byteLength > BLOCK) secret = wordsToBytes(sha256([secret]));
  const inner = new Uint8Array(BLOCK).fill(0x36);
  const outer = new Uint8Array(BLOCK).fill(0x5c);
  secret.forEach((byte, index) => {
    inner[index]! ^= byte;
    outer[index]! ^= byte;
  });
  const innerHash = wordsToBytes(sha256([inner, utf8(text)]));
  return hex(sha256([outer, innerHash]));
}

const BLOCK = 64;
const encoder = new TextEncoder();

function utf8(data: Uint8Array | string): Uint8Array {
  return typeof data === "string" ? encoder.encode(data) : data;
}

/** The round constants of SHA-256 (FIPS 180-4, 4.2.2). */
const K256 = Int32Array.from([
  0x428a2f98,
  0x71374491,
  0xb5c0fbcf,
  0xe9b5dba5,
  0x3956c25b,
  0x59f111f1,
  0x923f82a4,
  0xab1c5ed5,
  0xd807aa98,
  0x12835b01,
  0x243185be,
  0x550c7dc3,
  0x72be5d74,
  0x80deb1fe,
  0x9bdc06a7,
  0xc19bf174,
  0xe49b69c1,
  0xefbe4786,
  0x0fc19dc6,
  0x240ca1cc,
  0x2de92c6f,
  0x4a7484aa,
  0x5cb0a9dc,
  0x76f988da,
  0x983e5152,
  0xa831c66d,
  0xb00327c8,
  0xbf597fc7,
  0xc6e00bf3,
  0xd5a79147,
  0x06ca6351,
  0x14292967,
  0x27b70a85,
  0x2e1b2138,
  0x4d2c6dfc,
  0x53380d13,
  0x650a7354,
  0x766a0abb,
  0x81c2c92e,
  0x92722c85,
  0xa2bfe8a1,
  0xa81a664b,
  0xc24b8b70,
  0xc76c51a3,
  0xd192e819,
  0xd6990624,
  0xf40e3585,
  0x106aa070,
  0x19a4c116,
  0x1e376c08,
  0x2748774c,
  0x34b0bcb5,
  0x391c0cb3,
  0x4ed8aa4a,
  0x5b9cca4f,
  0x682e6ff3,
  0x748f82ee,
  0x78a5636f,
  0x84c87814,
  0x8cc70208,
  0x90befffa,
  0xa4506ceb,
  0xbef9a3f7,
  0xc67178f2,
]);
/** The message schedule, shared: the functions run to the end unshared. */
const W = new Int32Array(80);

/** The initial hash values of SHA-256 (FIPS 180-4, 5.3.3). */
const SHA256_START = [
  0x6a09e667,
  0xbb67ae85,
  0x3c6ef372,
  0xa54ff53a,
  0x510e527f,
  0x9b05688c,
  0x1f83d9ab,
  0x5be0cd19,
];
/** The initial hash values of SHA-1 (FIPS 180-4, 5.3.1). */
const SHA1_START = [0x67452301, 0xefcdab89, 0x98badcfe, 0x10325476, 0xc3d2e1f0];

function sha256(parts: readonly Uint8Array[]): Int32Array {
  return hashed(parts, SHA256_START, sha256Block);
}

function sha1(parts: readonly Uint8Array[]): Int32Array {
  return hashed(parts, SHA1_START, sha1Block);
}

function sha256Block(state: Int32Array, m: Uint8Array, at: number): void {
  readWords(m, at);
  for (let i = 16; i < 64; i++) {
    const w15 = W[i - 15]!;
    const w2 = W[i - 2]!;
    const s0 = ((w15 >>> 7) | (w15 << 25)) ^ ((w15 >>> 18) | (w15 << 14)) ^
      (w15 >>> 3);
    const s1 = ((w2 >>> 17) | (w2 << 15)) ^ ((w2 >>> 19) | (w2 << 13)) ^
      (w2 >>> 10);
    W[i] = (W[i - 16]! + s0 + W[i - 7]! + s1) | 0;
  }
  let a = state[0]!, b = state[1]!, c = state[2]!, d = state[3]!;
  let e = state[4]!, f = state[5]!, g = state[6]!, h = state[7]!;
  for (let i = 0; i < 64; i++) {
    const s1 = ((e >>> 6) | (e << 26)) ^ ((e >>> 11) | (e << 21)) ^
      ((e >>> 25) | (e << 7));
    const t1 = (h + s1 + ((e & f) ^ (~e & g)) + K256[i]! + W[i]!) | 0;
    const s0 = ((a >>> 2) | (a << 30)) ^ ((a >>> 13) | (a << 19)) ^
      ((a >>> 22) | (a << 10));
    const t2 = (s0 + ((a & b) ^ (a & c) ^ (b & c))) | 0;
    h = g;
    g = f;
    f = e;
    e = (d + t1) | 0;
    d = c;
    c = b;
    b = a;
    a = (t1 + t2) | 0;
  }
  state[0] = (state[0]! + a) | 0;
  state[1] = (state[1]! + b) | 0;
  state[2] = (state[2]! + c) | 0;
  state[3] = (state[3]! + d) | 0;
  state[4] = (state[4]! + e) | 0;
  state[5] = (state[5]! + f) | 0;
  state[6] = (state[6]! + g) | 0;
  state[7] = (state[7]! + h) | 0;
}

function sha1Block(state: Int32Array, m: Uint8Array, at: number): void {
  readWords(m, at);
  for (let i = 16; i < 80; i++) {
    const x = W[i - 3]! ^ W[i - 8]! ^ W[i - 14]! ^ W[i - 16]!;
    W[i] = (x << 1) | (x >>> 31);
  }
  let a = state[0]!, b = state[1]!, c = state[2]!, d = state[3]!;
  let e = state[4]!;
  for (let i = 0; i < 80; i++) {
    const f = i < 20
      ? ((b & c) | (~b & d)) + 0x5a827999
      : i < 40
      ? (b ^ c ^ d) + 0x6ed9eba1
      : i < 60
      ? ((b & c) | (b & d) | (c & d)) + 0x8f1bbcdc
      : (b ^ c ^ d) + 0xca62c1d6;
    const t = (((a << 5) | (a >>> 27)) + f + e + W[i]!) | 0;
    e = d;
    d = c;
    c = (b << 30) | (b >>> 2);
    b = a;
    a = t;
  }
  state[0] = (state[0]! + a) | 0;
  state[1] = (state[1]! + b) | 0;
  state[2] = (state[2]! + c) | 0;
  state[3] = (state[3]! + d) | 0;
  state[4] = (state[4]! + e) | 0;
}

/** Reads a block's 16 big-endian words into the schedule. */
function readWords(m: Uint8Array, at: number): void {
  for (let i = 0; i < 16; i++, at += 4) {
    W[i] = (m[at]! << 24) | (m[at + 1]! << 16) | (m[at + 2]! << 8) |
      m[at + 3]!;
  }
}

/**
 * The Merkle-Damgard loop shared by both: from the initial values, each
 * whole block of the parts as they come, then the rest, a 1 bit, zeros and
 * the length in bits (64-bit big-endian).
 */
function hashed(
  parts: readonly Uint8Array[],
  start: readonly number[],
  block: (state: Int32Array, m: Uint8Array, at: number) => void,
): Int32Array {
  const state = Int32Array.from(start);
  const buffer = new Uint8Array(BLOCK * 2);
  let held = 0;
  let length = 0;
  for (const part of parts) {
    length += part.byteLength;
    let at = 0;
    if (held > 0) {
      const take = Math.min(BLOCK - held, part.byteLength);
      buffer.set(part.subarray(0, take), held);
      held += take;
      at = take;
      if (held < BLOCK) continue;
      block(state, buffer, 0);
      held = 0;
    }
    for (; at + BLOCK <= part.byteLength; at += BLOCK) block(state, part, at);
    buffer.set(part.subarray(at), 0);
    held = part.byteLength - at;
  }
  buffer.fill(0, held);
  buffer[held] = 0x80;
  const end = held < BLOCK - 8 ? BLOCK : BLOCK * 2;
  const bits = length * 8;
  const view = new DataView(buffer.buffer);
  view.setUint32(end - 8, Math.floor(bits / 0x1_0000_0000));
  view.setUint32(end - 4, bits >>> 0);
  block(state, buffer, 0);
  if (end > BLOCK) block(state, buffer, BLOCK);
  return state;
}

function wordsToBytes(words: Int32Array): Uint8Array {
  const bytes = new Uint8Array(words.length * 4);
  const view = new DataView(bytes.buffer);
  words.forEach((word, index) => view.setInt32(index * 4, word));
  return bytes;
}

function hex(words: Int32Array): string {
  let out = "";
  for (const word of words) out += (word >>> 0).toString(16).padStart(8, "0");
  return out;
}
