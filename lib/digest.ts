/**
 * Digests as hex strings.
 *
 * @module
 */

import { createSHA256 } from "hash-wasm";

let hasher: ReturnType<typeof createSHA256> | undefined;

/**
 * Lowercase hex of some bytes.
 *
 * @param bytes the bytes
 * @returns two hex digits per byte
 */
export function toHex(bytes: Uint8Array): string {
  let out = "";
  for (const byte of bytes) out += byte.toString(16).padStart(2, "0");
  return out;
}

/**
 * SHA-256 of bytes or of a string's UTF-8, as lowercase hex.
 *
 * @param data bytes, or a string hashed as UTF-8
 * @returns 64 hex digits
 */
export async function sha256Hex(data: Uint8Array | string): Promise<string> {
  const bytes = typeof data === "string"
    ? new TextEncoder().encode(data)
    : data;
  return toHex(
    new Uint8Array(
      await crypto.subtle.digest("SHA-256", bytes as Uint8Array<ArrayBuffer>),
    ),
  );
}

/**
 * SHA-256 of a short string's UTF-8, as lowercase hex, computed in-process
 * without a trip to the Web Crypto thread (for the per-request client tag
 * and session key, where `crypto.subtle` costs tens of microseconds).
 *
 * @param text the string
 * @returns 64 hex digits
 */
export async function sha256TextHex(text: string): Promise<string> {
  hasher ??= createSHA256();
  const sha = await hasher;
  sha.init();
  sha.update(text);
  return sha.digest("hex");
}
