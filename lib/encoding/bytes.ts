/**
 * Byte helpers shared by every concern: concatenation and base64.
 *
 * @module
 */

const BASE64 = /^[A-Za-z0-9+/]*={0,2}$/;

/**
 * The bytes of several arrays, one after the other.
 *
 * @param parts the arrays, in order
 * @returns a new array holding them all
 * @example
 * ```ts
 * import { concatBytes } from "./bytes.ts";
 * import assert from "node:assert/strict";
 *
 * assert.deepEqual(
 *   concatBytes(new Uint8Array([1]), new Uint8Array([2, 3])),
 *   new Uint8Array([1, 2, 3]),
 * );
 * ```
 */
export function concatBytes(...parts: Uint8Array[]): Uint8Array<ArrayBuffer> {
  let length = 0;
  for (const part of parts) length += part.byteLength;
  const out = new Uint8Array(length);
  let offset = 0;
  for (const part of parts) {
    out.set(part, offset);
    offset += part.byteLength;
  }
  return out;
}

/**
 * Bytes as standard base64, with padding.
 *
 * @param bytes the bytes
 * @returns their base64 text
 * @example
 * ```ts
 * import { encodeBase64 } from "./bytes.ts";
 * import assert from "node:assert/strict";
 *
 * assert.equal(encodeBase64(new TextEncoder().encode("hi!")), "aGkh");
 * ```
 */
export function encodeBase64(bytes: Uint8Array): string {
  const chunk = 3 * 8192;
  const parts: string[] = [];
  for (let start = 0; start < bytes.byteLength; start += chunk) {
    const slice = bytes.subarray(start, start + chunk);
    parts.push(
      btoa(String.fromCharCode.apply(null, slice as unknown as number[])),
    );
  }
  return parts.join("");
}

/**
 * The bytes of standard base64 text with its padding, such as GitHub sends;
 * line breaks are ignored.
 *
 * @param text standard base64, possibly broken into lines
 * @returns the bytes, or `undefined` when the text is not base64
 * @example
 * ```ts
 * import { decodeBase64 } from "./bytes.ts";
 * import assert from "node:assert/strict";
 *
 * assert.deepEqual(decodeBase64("aG\nkh\n"), new TextEncoder().encode("hi!"));
 * assert.equal(decodeBase64("a?"), undefined);
 * ```
 */
export function decodeBase64(text: string): Uint8Array | undefined {
  const compact = text.replace(/\r?\n/g, "");
  if (compact.length % 4 !== 0 || !BASE64.test(compact)) return undefined;
  const binary = atob(compact);
  const bytes = new Uint8Array(binary.length);
  for (let index = 0; index < binary.length; index++) {
    bytes[index] = binary.charCodeAt(index);
  }
  return bytes;
}
