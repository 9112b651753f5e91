/**
 * CRC-32 (ISO-HDLC, as in PNG and zlib): `node:zlib`'s native `crc32` where
 * the host has it (Node 20.15 and later, Deno, Bun, workerd), else a
 * table-driven one (slicing by eight), so the module loads on every host.
 * The native one is about 35 times faster (bench/crc32_bench.ts), which is
 * why it stays first.
 *
 * @module
 */

import * as zlib from "node:zlib";

type Native = (data: Uint8Array) => number;

const native: Native | undefined =
  typeof (zlib as { crc32?: unknown }).crc32 === "function"
    ? (zlib as unknown as { crc32: Native }).crc32
    : undefined;

const TABLE = new Uint32Array(8 * 256);
for (let n = 0; n < 256; n++) {
  let c = n;
  for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
  TABLE[n] = c;
}
for (let n = 0; n < 256; n++) {
  let c = TABLE[n] ?? 0;
  for (let s = 1; s < 8; s++) {
    c = (TABLE[c & 255] ?? 0) ^ (c >>> 8);
    TABLE[s * 256 + n] = c;
  }
}

/**
 * The table-driven CRC-32 of `bytes`, used where the host has no native one.
 *
 * @param bytes the data
 * @returns the CRC as an unsigned 32-bit integer
 * @example
 * ```ts
 * import { tableCrc32 } from "./crc32.ts";
 * import assert from "node:assert/strict";
 *
 * assert.equal(tableCrc32(new TextEncoder().encode("123456789")), 0xcbf43926);
 * ```
 */
export function tableCrc32(bytes: Uint8Array): number {
  const t = TABLE;
  let c = ~0;
  let i = 0;
  const last = bytes.length - 8;
  for (; i <= last; i += 8) {
    c ^= bytes[i]! | (bytes[i + 1]! << 8) | (bytes[i + 2]! << 16) |
      (bytes[i + 3]! << 24);
    c = t[1792 + (c & 255)]! ^ t[1536 + ((c >>> 8) & 255)]! ^
      t[1280 + ((c >>> 16) & 255)]! ^ t[1024 + (c >>> 24)]! ^
      t[768 + bytes[i + 4]!]! ^ t[512 + bytes[i + 5]!]! ^
      t[256 + bytes[i + 6]!]! ^ t[bytes[i + 7]!]!;
  }
  for (; i < bytes.length; i++) c = t[(c ^ bytes[i]!) & 255]! ^ (c >>> 8);
  return ~c >>> 0;
}

/**
 * The CRC-32 of `bytes`: native where the host has it, else the table.
 *
 * @param bytes the data
 * @returns the CRC as an unsigned 32-bit integer
 * @example
 * ```ts
 * import { crc32 } from "./crc32.ts";
 * import assert from "node:assert/strict";
 *
 * assert.equal(crc32(new TextEncoder().encode("123456789")), 0xcbf43926);
 * ```
 */
export function crc32(bytes: Uint8Array): number {
  return native ? native(bytes) >>> 0 : tableCrc32(bytes);
}
