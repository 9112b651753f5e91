/**
 * Digests as hex strings, synchronous: SHA-256, SHA-1 and HMAC-SHA-256.
 *
 * Two implementations give the same results (a property test compares them
 * on any bytes, split anywhere). `node:crypto` hashes incrementally in
 * native code: a 20 MB upload is hashed at native speed without a copy,
 * unlike `crypto.subtle.digest`. But loading it brings up the host's Node
 * compatibility layer, about 40 ms of a cold start, so it is loaded only
 * where large data is hashed, by `useNativeDigest()` (the upload route) and
 * with the key check (its `timingSafeEqual`). Until then the short strings
 * every request hashes (a session token, a client address, a page's
 * version) go through `@noble/hashes` (audited, no dependency, synchronous),
 * which costs about as much as a call into `node:crypto` for inputs of a few
 * kilobytes.
 *
 * @module
 */

import { sha256 } from "@noble/hashes/sha2.js";
import { sha1 } from "@noble/hashes/legacy.js";
import { hmac } from "@noble/hashes/hmac.js";
import { bytesToHex, utf8ToBytes } from "@noble/hashes/utils.js";

type NodeCrypto = typeof import("node:crypto");

let native: NodeCrypto | undefined;
let loading: Promise<void> | undefined;

/**
 * Loads `node:crypto` for the digests, once; every later call of the
 * functions below hashes in native code.
 *
 * @example
 * ```ts
 * import { sha256Hex, useNativeDigest } from "./digest.ts";
 * import assert from "node:assert/strict";
 *
 * const before = sha256Hex("abc");
 * await useNativeDigest();
 * assert.equal(sha256Hex("abc"), before);
 * ```
 *
 * @returns when it is loaded
 */
export function useNativeDigest(): Promise<void> {
  return loading ??= import("node:crypto").then((module) => {
    native = module;
  });
}

/**
 * SHA-256 of bytes or of a string's UTF-8, as lowercase hex.
 *
 * @example
 * ```ts
 * import { sha256Hex } from "./digest.ts";
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
  if (native) return native.createHash("sha256").update(data).digest("hex");
  return bytesToHex(
    sha256(typeof data === "string" ? utf8ToBytes(data) : data),
  );
}

/**
 * SHA-1 of a sequence of byte strings, as if concatenated, as lowercase hex.
 *
 * @example
 * ```ts
 * import { sha1Hex } from "./digest.ts";
 * import assert from "node:assert/strict";
 *
 * const abc = new TextEncoder().encode("abc");
 * assert.equal(sha1Hex(abc), "a9993e364706816aba3e25717850c26c9cd0d89d");
 * assert.equal(sha1Hex(abc.subarray(0, 1), abc.subarray(1)), sha1Hex(abc));
 * ```
 *
 * @param parts the bytes, in order
 * @returns 40 hex digits
 */
export function sha1Hex(...parts: Uint8Array[]): string {
  if (native) {
    const hash = native.createHash("sha1");
    for (const part of parts) hash.update(part);
    return hash.digest("hex");
  }
  const hash = sha1.create();
  for (const part of parts) hash.update(part);
  return bytesToHex(hash.digest());
}

/**
 * HMAC-SHA-256 of a string's UTF-8, as lowercase hex.
 *
 * @example
 * ```ts
 * import { hmacSha256Hex } from "./digest.ts";
 * import assert from "node:assert/strict";
 *
 * // RFC 4231, test case 2.
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
  if (native) {
    return native.createHmac("sha256", key).update(text).digest("hex");
  }
  return bytesToHex(hmac(sha256, utf8ToBytes(key), utf8ToBytes(text)));
}
