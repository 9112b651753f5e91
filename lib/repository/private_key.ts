/**
 * An RSA private key in PEM, as GitHub issues a GitHub App's (PKCS#1,
 * `BEGIN RSA PRIVATE KEY`) or as `openssl pkcs8` converts it (PKCS#8,
 * `BEGIN PRIVATE KEY`), read into the PKCS#8 DER bytes WebCrypto imports.
 * Pure functions over bytes: no key material is ever written anywhere.
 *
 * @module
 */

import { concatBytes, decodeBase64 } from "../encoding/bytes.ts";

const PEM =
  /-----BEGIN (RSA )?PRIVATE KEY-----([A-Za-z0-9+/=\s]+)-----END (RSA )?PRIVATE KEY-----/;

/** `rsaEncryption` (1.2.840.113549.1.1.1) with its NULL parameters. */
const RSA_ALGORITHM = new Uint8Array([
  0x30,
  0x0d,
  0x06,
  0x09,
  0x2a,
  0x86,
  0x48,
  0x86,
  0xf7,
  0x0d,
  0x01,
  0x01,
  0x01,
  0x05,
  0x00,
]);

/** A DER length: short form below 128, else long form. */
function derLength(length: number): Uint8Array {
  if (length < 0x80) return new Uint8Array([length]);
  const bytes: number[] = [];
  for (let rest = length; rest > 0; rest = Math.floor(rest / 256)) {
    bytes.unshift(rest & 0xff);
  }
  return new Uint8Array([0x80 | bytes.length, ...bytes]);
}

/** One DER element: its tag, its length, its content. */
function der(tag: number, content: Uint8Array): Uint8Array {
  return concatBytes(
    new Uint8Array([tag]),
    derLength(content.byteLength),
    content,
  );
}

/** Whether bytes are exactly one DER SEQUENCE, its length well-formed. */
function isSequence(bytes: Uint8Array): boolean {
  if (bytes.byteLength < 2 || bytes[0] !== 0x30) return false;
  const first = bytes[1]!;
  if (first < 0x80) return 2 + first === bytes.byteLength;
  const size = first & 0x7f;
  if (size === 0 || size > 4 || bytes.byteLength < 2 + size) return false;
  let length = 0;
  for (let index = 0; index < size; index++) {
    length = length * 256 + bytes[2 + index]!;
  }
  return 2 + size + length === bytes.byteLength;
}

/**
 * The PKCS#8 DER bytes of a PEM RSA private key: a PKCS#1 key (`BEGIN RSA
 * PRIVATE KEY`, as GitHub issues them) is wrapped as PKCS#8; a PKCS#8 key
 * (`BEGIN PRIVATE KEY`) is taken as it is. Line breaks written as `\n`
 * (as many hosts store a multi-line variable) are read as line breaks.
 *
 * @param pem the key, PEM-encoded
 * @returns the PKCS#8 DER bytes
 * @throws {TypeError} when it is not such a key (the message never holds any of it)
 * @example
 * ```ts
 * import { pkcs8FromPem } from "./private_key.ts";
 * import assert from "node:assert/strict";
 *
 * const pair = await crypto.subtle.generateKey(
 *   {
 *     name: "RSASSA-PKCS1-v1_5",
 *     modulusLength: 2048,
 *     publicExponent: new Uint8Array([1, 0, 1]),
 *     hash: "SHA-256",
 *   },
 *   true,
 *   ["sign", "verify"],
 * );
 * const der = new Uint8Array(await crypto.subtle.exportKey("pkcs8", pair.privateKey));
 * const base64 = btoa(String.fromCharCode(...der)).replace(/.{64}/g, "$&\n");
 * const pem = `-----BEGIN PRIVATE KEY-----\n${base64}\n-----END PRIVATE KEY-----\n`;
 * assert.deepEqual(pkcs8FromPem(pem), der);
 * assert.throws(() => pkcs8FromPem("not a key"), TypeError);
 * ```
 */
export function pkcs8FromPem(pem: string): Uint8Array {
  const refused = new TypeError(
    "The private key must be an RSA key in PEM (BEGIN RSA PRIVATE KEY or BEGIN PRIVATE KEY)",
  );
  if (typeof pem !== "string" || pem.length > 20_000) throw refused;
  const match = PEM.exec(pem.replaceAll("\\n", "\n"));
  if (!match || match[1] !== match[3]) throw refused;
  const body = decodeBase64((match[2] ?? "").replace(/\s+/g, ""));
  if (!body || !isSequence(body)) throw refused;
  if (match[1] === undefined) return body;
  return der(
    0x30,
    concatBytes(
      new Uint8Array([0x02, 0x01, 0x00]),
      RSA_ALGORITHM,
      der(0x04, body),
    ),
  );
}
