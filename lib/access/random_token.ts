/**
 * Random tokens: bytes from `crypto.getRandomValues`, written in base64url.
 *
 * @module
 */

/**
 * A random token.
 *
 * @param byteCount how many random bytes (32 for a 256-bit session token)
 * @returns the bytes in base64url, without padding
 */
export function randomToken(byteCount: number): string {
  let binary = "";
  for (const byte of crypto.getRandomValues(new Uint8Array(byteCount))) {
    binary += String.fromCharCode(byte);
  }
  return btoa(binary).replace(/\+/g, "-").replace(/\//g, "_").replace(
    /=+$/,
    "",
  );
}
