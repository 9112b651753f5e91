/**
 * The PNG check's CRC-32 on 20 MB: `node:zlib`'s native one (what every
 * tested host has) against the table-driven fallback (for Node before
 * 20.15) and a SHA-256 of the same bytes (the cost every upload pays
 * anyway). The native one stays first: here the table is about 35 times
 * slower than it, and 1.6 times a SHA-256.
 *
 * Run: `deno bench -A bench/crc32_bench.ts`
 *
 * @module
 */

import { crc32 as zlibCrc32 } from "node:zlib";
import { tableCrc32 } from "../lib/images/crc32.ts";

const data = new Uint8Array(20_000_000);
for (let at = 0; at < data.length; at += 65_536) {
  crypto.getRandomValues(data.subarray(at, at + 65_536));
}
if (tableCrc32(data) !== zlibCrc32(data) >>> 0) {
  throw new Error("the table-driven CRC-32 disagrees with zlib's");
}

Deno.bench({
  name: "sha-256",
  group: "20 MB",
  baseline: true,
  async fn() {
    await crypto.subtle.digest("SHA-256", data);
  },
});
Deno.bench({
  name: "crc32, node:zlib (native)",
  group: "20 MB",
  fn() {
    zlibCrc32(data);
  },
});
Deno.bench({
  name: "crc32, table-driven (fallback)",
  group: "20 MB",
  fn() {
    tableCrc32(data);
  },
});
