/**
 * Digests as hex strings, computed incrementally by `node:crypto` (which
 * Deno, Node, Bun and Workers' Node compatibility provide): no copy of a
 * 20 MB upload is made to hash it, unlike `crypto.subtle.digest`, and a
 * short string is hashed without a trip to another thread.
 *
 * @module
 */

import { createHash, createHmac } from "node:crypto";

/**
 * SHA-256 of bytes or of a string's UTF-8, as lowercase hex.
 *
 * @param data bytes, or a string hashed as UTF-8
 * @returns 64 hex digits
 */
export function sha256Hex(data: Uint8Array | string): string {
  return createHash("sha256").update(data).digest("hex");
}

/**
 * SHA-1 of a sequence of byte strings, as if concatenated, as lowercase hex.
 *
 * @param parts the bytes, in order
 * @returns 40 hex digits
 */
export function sha1Hex(...parts: Uint8Array[]): string {
  const hash = createHash("sha1");
  for (const part of parts) hash.update(part);
  return hash.digest("hex");
}

/**
 * HMAC-SHA-256 of a string's UTF-8, as lowercase hex.
 *
 * @param key the secret
 * @param text the message
 * @returns 64 hex digits
 */
export function hmacSha256Hex(key: string, text: string): string {
  return createHmac("sha256", key).update(text).digest("hex");
}
