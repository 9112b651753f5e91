/**
 * Digests as hex strings.
 *
 * @module
 */

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
