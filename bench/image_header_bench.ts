/**
 * `imageHeader` on 20 MB uploads against a SHA-256 of the same bytes (the
 * cost every upload pays anyway). Budget: at most about twice the digest.
 *
 * Run: `deno bench -A bench/image_header_bench.ts`
 *
 * @module
 */

import { imageHeader } from "../lib/image_header.ts";

const SIZE = 20_000_000;

function crc32(data: Uint8Array): number {
  let c = 0xffffffff;
  for (const byte of data) {
    c ^= byte;
    for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
  }
  return (c ^ 0xffffffff) >>> 0;
}

function noise(length: number): Uint8Array {
  const out = new Uint8Array(length);
  for (let at = 0; at < length; at += 65_536) {
    crypto.getRandomValues(out.subarray(at, Math.min(at + 65_536, length)));
  }
  return out;
}

function be32(out: Uint8Array, at: number, n: number): void {
  new DataView(out.buffer, out.byteOffset).setUint32(at, n);
}

/**
 * A PNG of exactly `SIZE` bytes: signature, IHDR (with its CRC), image data
 * split into IDAT chunks of `chunk` bytes (the last takes the rest), IEND.
 */
function png(chunk: number): Uint8Array {
  const out = noise(SIZE);
  out.set([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
  be32(out, 8, 13);
  out.set([0x49, 0x48, 0x44, 0x52], 12); // IHDR
  be32(out, 16, 4000);
  be32(out, 20, 3000);
  out.set([8, 6, 0, 0, 0], 24);
  be32(out, 29, crc32(out.subarray(12, 29)));
  const iend = SIZE - 12;
  let at = 33;
  let first = true;
  while (at < iend) {
    const room = iend - at - 12;
    const length = room - chunk < 12 ? room : chunk;
    be32(out, at, length);
    out.set([0x49, 0x44, 0x41, 0x54], at + 4); // IDAT
    if (first) out.set([0x78, 0x9c], at + 8); // zlib header
    first = false;
    at += 12 + length; // the CRC bytes stay random: they are not read
  }
  be32(out, iend, 0);
  out.set([0x49, 0x45, 0x4e, 0x44, 0xae, 0x42, 0x60, 0x82], iend + 4);
  return out;
}

/** A baseline JPEG of `SIZE` bytes whose scan is random (stuffed) data. */
function jpeg(): Uint8Array {
  const head = [
    ...[0xff, 0xd8],
    ...[0xff, 0xc0, 0, 11, 8, 0x0b, 0xb8, 0x0f, 0xa0, 1, 1, 0x11, 0],
    ...[0xff, 0xda, 0, 8, 1, 1, 0, 0, 0x3f, 0],
  ];
  const out = noise(SIZE);
  out.set(head);
  for (let at = head.length; at < SIZE - 2; at++) {
    if (out[at] === 0xff) out[++at] = 0x00;
  }
  out.set([0xff, 0xd9], SIZE - 2);
  return out;
}

const cases: [string, Uint8Array][] = [
  ["png, one IDAT", png(SIZE)],
  ["png, 8 KiB IDATs", png(8_192)],
  ["jpeg", jpeg()],
];

for (const [name, data] of cases) {
  const info = imageHeader(data); // fails the run if the fixture is wrong
  if (info.width !== 4000 || info.height !== 3000) {
    throw new Error(`${name}: ${info.width}x${info.height}`);
  }
  Deno.bench({
    name: `sha-256 (${name})`,
    group: name,
    baseline: true,
    async fn() {
      await crypto.subtle.digest("SHA-256", data as Uint8Array<ArrayBuffer>);
    },
  });
  Deno.bench({
    name: `imageHeader (${name})`,
    group: name,
    fn() {
      imageHeader(data);
    },
  });
}
