/**
 * Real image files of any size for tests and benchmarks: well-formed PNG
 * and JPEG byte streams whose headers, chunk CRCs and markers are exact.
 *
 * @module
 */

import { crc32 } from "node:zlib";

function noise(length: number): Uint8Array<ArrayBuffer> {
  const out = new Uint8Array(length);
  for (let at = 0; at < length; at += 65_536) {
    crypto.getRandomValues(out.subarray(at, Math.min(at + 65_536, length)));
  }
  return out;
}

function be32(out: Uint8Array, at: number, n: number): void {
  new DataView(out.buffer, out.byteOffset).setUint32(at, n >>> 0);
}

/**
 * A PNG of exactly `size` bytes: signature, IHDR, image data split into IDAT
 * chunks of `chunk` bytes (the last takes the rest), IEND; every CRC right.
 *
 * @param size total bytes, at least 64
 * @param width IHDR width
 * @param height IHDR height
 * @param chunk IDAT chunk size
 * @returns the file
 */
export function pngOfSize(
  size: number,
  width = 4000,
  height = 3000,
  chunk = 1 << 20,
): Uint8Array<ArrayBuffer> {
  const out = noise(size);
  out.set([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
  be32(out, 8, 13);
  out.set([0x49, 0x48, 0x44, 0x52], 12); // IHDR
  be32(out, 16, width);
  be32(out, 20, height);
  out.set([8, 6, 0, 0, 0], 24);
  be32(out, 29, crc32(out.subarray(12, 29)));
  const iend = size - 12;
  let at = 33;
  let first = true;
  while (at < iend) {
    const room = iend - at - 12;
    const length = room - chunk < 12 ? room : chunk;
    be32(out, at, length);
    out.set([0x49, 0x44, 0x41, 0x54], at + 4); // IDAT
    if (first) out.set([0x78, 0x9c], at + 8); // zlib header
    first = false;
    be32(out, at + 8 + length, crc32(out.subarray(at + 4, at + 8 + length)));
    at += 12 + length;
  }
  be32(out, iend, 0);
  out.set([0x49, 0x45, 0x4e, 0x44, 0xae, 0x42, 0x60, 0x82], iend + 4);
  return out;
}

/**
 * A baseline JPEG of exactly `size` bytes whose scan is random stuffed data.
 *
 * @param size total bytes, at least 32
 * @param width frame width
 * @param height frame height
 * @returns the file
 */
export function jpegOfSize(
  size: number,
  width = 4000,
  height = 3000,
): Uint8Array<ArrayBuffer> {
  const head = [
    ...[0xff, 0xd8],
    ...[
      0xff,
      0xc0,
      0,
      11,
      8,
      height >> 8,
      height & 255,
      width >> 8,
      width & 255,
      1,
      1,
      0x11,
      0,
    ],
    ...[0xff, 0xda, 0, 8, 1, 1, 0, 0, 0x3f, 0],
  ];
  const out = noise(size);
  out.set(head);
  for (let at = head.length; at < size - 2; at++) {
    if (out[at] === 0xff) out[++at] = 0x00;
  }
  if (out[size - 3] === 0xff) out[size - 3] = 0x00;
  out.set([0xff, 0xd9], size - 2);
  return out;
}
