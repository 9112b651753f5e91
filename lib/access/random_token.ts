/**
 * Random tokens: bytes from `crypto.getRandomValues`, written in base64url.
 *
 * @module
 */

import { encodeBase64 } from "../encoding/bytes.ts";
/**
 * A random token.
 *
 * @param byteCount how many random bytes (32 for a 256-bit session token)
 * @returns the bytes in base64url, without padding
 */
export function randomToken(byteCount: number): string {
  const bytes = crypto.getRandomValues(new Uint8Array(byteCount));
  return encodeBase64(bytes).replace(/\+/g, "-").replace(/\//g, "_").replace(
    /=+$/,
    "",
  );
}
