/**
 * `lib/images/`, the images concern: what an upload is and what it is
 * stored as. It knows nothing of HTTP: a refusal is an `ImageFormatError`
 * or an `ImageNameError`.
 *
 * Recognises an uploaded image from its bytes and reads its dimensions from
 * its header. JPEG, PNG and WebP are accepted; every other format, and any
 * accepted format whose structure is bad, truncated or out of range, is
 * refused with the kind that was recognised. Nothing is guessed: what
 * cannot be checked is refused.
 *
 * Pure: no I/O, no `Deno.*`, safe for any host.
 *
 * @module
 */

import { crc32 as anyCrc32 } from "./crc32.ts";
import { IMAGE_SIDE_MAX } from "../limits.ts";

import { ImageFormatError, type ImageKind } from "./image_format_error.ts";
export { ImageFormatError };
export type { ImageKind };

/** An accepted upload format. */
export type ImageFormat = "jpeg" | "png" | "webp";

/** What the header of an accepted image says. */
export interface ImageInfo {
  /** The format recognised from the bytes. */
  format: ImageFormat;
  /** Width in pixels, 1 to {@link IMAGE_SIDE_MAX}. */
  width: number;
  /** Height in pixels, 1 to {@link IMAGE_SIDE_MAX}. */
  height: number;
}

/**
 * Recognises a JPEG, PNG or WebP image from its bytes and reads its
 * dimensions from its header, after checking that the file's structure is
 * whole (so a truncated upload is refused).
 *
 * @example Reading the size of a PNG
 * ```ts
 * import { imageHeader } from "./image_header.ts";
 *
 * const png = Uint8Array.from(atob(
 *   "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAAAAAA6fptVAAAACklEQVR4nGNgAAAAAgABSK+kcQAAAABJRU5ErkJggg==",
 * ), (c) => c.charCodeAt(0));
 * const info = imageHeader(png);
 * if (info.format !== "png" || info.width !== 1 || info.height !== 1) {
 *   throw new Error("unexpected header");
 * }
 * ```
 *
 * @param bytes the whole uploaded file
 * @returns the format and the dimensions, each between 1 and 10,000
 * @throws {ImageFormatError} with the recognised `kind` when the format is not accepted, or when an accepted format's header is
 * bad, truncated, inconsistent or out of range
 */
export function imageHeader(bytes: Uint8Array): ImageInfo {
  const kind = sniff(bytes);
  switch (kind) {
    case "png":
      return png(bytes);
    case "jpeg":
      return jpeg(bytes);
    case "webp":
      return webp(bytes);
    default:
      return fail(kind, `${kind} is not an accepted format`);
  }
}

function fail(kind: ImageKind, detail: string): never {
  throw new ImageFormatError(kind, detail);
}

function side(kind: ImageFormat, width: number, height: number): ImageInfo {
  if (
    !(width >= 1 && width <= IMAGE_SIDE_MAX && height >= 1 &&
      height <= IMAGE_SIDE_MAX)
  ) {
    fail(kind, `${kind} dimensions ${width}x${height} out of range`);
  }
  return { format: kind, width, height };
}

// ---------------------------------------------------------------------------
// Byte helpers. Every read is bounds-checked by its caller; `at` turns a
// missing byte into 0 so that the compiler's undefined never leaks.

function at(b: Uint8Array, i: number): number {
  return b[i] ?? 0;
}

function u16be(b: Uint8Array, i: number): number {
  return (at(b, i) << 8) | at(b, i + 1);
}

function u32be(b: Uint8Array, i: number): number {
  return ((at(b, i) << 24) | (at(b, i + 1) << 16) | (at(b, i + 2) << 8) |
    at(b, i + 3)) >>> 0;
}

function u16le(b: Uint8Array, i: number): number {
  return at(b, i) | (at(b, i + 1) << 8);
}

function u24le(b: Uint8Array, i: number): number {
  return at(b, i) | (at(b, i + 1) << 8) | (at(b, i + 2) << 16);
}

function u32le(b: Uint8Array, i: number): number {
  return (at(b, i) | (at(b, i + 1) << 8) | (at(b, i + 2) << 16) |
    (at(b, i + 3) << 24)) >>> 0;
}

function ascii(b: Uint8Array, i: number, n: number): string {
  let s = "";
  for (let k = i; k < i + n && k < b.length; k++) {
    s += String.fromCharCode(at(b, k));
  }
  return s;
}

function startsWith(b: Uint8Array, prefix: readonly number[], i = 0): boolean {
  if (b.length < i + prefix.length) return false;
  for (let k = 0; k < prefix.length; k++) {
    if (b[i + k] !== prefix[k]) return false;
  }
  return true;
}

// ---------------------------------------------------------------------------
// Recognition from the leading bytes.

const PNG_SIGNATURE = [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a];
const AVIF_BRANDS = new Set(["avif", "avis"]);
const HEIC_BRANDS = new Set([
  "heic",
  "heix",
  "hevc",
  "hevx",
  "heim",
  "heis",
  "mif1",
  "msf1",
]);
const BMP_HEADER_SIZES = new Set([12, 16, 40, 52, 56, 64, 108, 124]);

function sniff(b: Uint8Array): ImageKind {
  // A damaged PNG signature (CR/LF conversions, flipped bits) still says PNG.
  if (startsWith(b, [0x89, 0x50, 0x4e, 0x47])) return "png";
  if (startsWith(b, [0xff, 0xd8])) return "jpeg";
  if (ascii(b, 0, 4) === "RIFF" && ascii(b, 8, 4) === "WEBP") return "webp";
  const head4 = ascii(b, 0, 4);
  if (head4 === "GIF8") return "gif";
  if (
    ascii(b, 0, 2) === "BM" && b.length >= 18 &&
    BMP_HEADER_SIZES.has(u32le(b, 14))
  ) {
    return "bmp";
  }
  if (
    startsWith(b, [0x49, 0x49, 0x2a, 0x00]) ||
    startsWith(b, [0x4d, 0x4d, 0x00, 0x2a]) ||
    startsWith(b, [0x49, 0x49, 0x2b, 0x00]) ||
    startsWith(b, [0x4d, 0x4d, 0x00, 0x2b])
  ) {
    return "tiff";
  }
  if (ascii(b, 4, 4) === "ftyp") return isoBrand(b);
  if (
    (startsWith(b, [0, 0, 1, 0]) || startsWith(b, [0, 0, 2, 0])) &&
    b.length >= 6 && u16le(b, 4) >= 1
  ) {
    return "ico";
  }
  if (ascii(b, 0, 5) === "%PDF-") return "pdf";
  if (isSvg(b)) return "svg";
  return "unknown";
}

const FTYP_BRANDS_MAX = 64;

/** The kind of an ISO base media file from its `ftyp` brands. */
function isoBrand(b: Uint8Array): ImageKind {
  const major = ascii(b, 8, 4);
  if (AVIF_BRANDS.has(major)) return "avif";
  if (HEIC_BRANDS.has(major) && major !== "mif1" && major !== "msf1") {
    return "heic";
  }
  // Generic major brand: the compatible brands (after the minor version)
  // say which codec the image items use.
  // At most 64 brands are read, whatever the box claims: a 20 MB box of
  // brands must not cost a string each.
  const boxEnd = Math.min(u32be(b, 0), b.length, 16 + 4 * FTYP_BRANDS_MAX);
  let heic = HEIC_BRANDS.has(major);
  for (let i = 16; i + 4 <= boxEnd; i += 4) {
    const brand = ascii(b, i, 4);
    if (AVIF_BRANDS.has(brand)) return "avif";
    if (HEIC_BRANDS.has(brand)) heic = true;
  }
  return heic ? "heic" : "unknown";
}

const SVG_HEAD_BYTES = 4096;

/**
 * Whether the bytes are SVG (or other namespaced XML) text: after an optional
 * byte order mark, whitespace, XML declaration, comments and doctype, the
 * root element is `svg` (possibly prefixed) or declares a namespace; or the
 * text shows an `<svg` tag near its start.
 */
function isSvg(b: Uint8Array): boolean {
  const text = headText(b);
  if (text === undefined) return false;
  let i = 0;
  for (;;) {
    while (i < text.length && /\s/.test(text.charAt(i))) i++;
    if (text.startsWith("<?", i)) {
      const end = text.indexOf("?>", i + 2);
      if (end < 0) break;
      i = end + 2;
    } else if (text.startsWith("<!--", i)) {
      const end = text.indexOf("-->", i + 4);
      if (end < 0) break;
      i = end + 3;
    } else if (/^<!doctype/i.test(text.slice(i, i + 9))) {
      const close = text.indexOf(">", i);
      const subset = text.indexOf("[", i);
      const end = subset >= 0 && (close < 0 || subset < close)
        ? text.indexOf("]", subset) + 1
        : i;
      const after = text.indexOf(">", end);
      if (end <= 0 || after < 0) break;
      i = after + 1;
    } else {
      break;
    }
  }
  const root = /^<([A-Za-z_][\w.-]*:)?([A-Za-z_][\w.-]*)([^>]*)/.exec(
    text.slice(i, i + 1024),
  );
  if (root !== null) {
    if ((root[2] ?? "").toLowerCase() === "svg") return true;
    if (/\sxmlns(?::[\w.-]+)?\s*=/.test(root[3] ?? "")) return true;
  }
  return /<svg[\s>/]/i.test(text);
}

/**
 * The first bytes decoded as text, or undefined when they do not look like
 * text (a NUL or another control character outside whitespace).
 */
function headText(b: Uint8Array): string | undefined {
  const head = b.subarray(0, SVG_HEAD_BYTES);
  let text: string;
  if (startsWith(head, [0xff, 0xfe])) {
    text = new TextDecoder("utf-16le").decode(head.subarray(2));
  } else if (startsWith(head, [0xfe, 0xff])) {
    text = new TextDecoder("utf-16be").decode(head.subarray(2));
  } else {
    const start = startsWith(head, [0xef, 0xbb, 0xbf]) ? 3 : 0;
    text = new TextDecoder("utf-8").decode(head.subarray(start));
  }
  // deno-lint-ignore no-control-regex
  if (/[\x00-\x08\x0b\x0e-\x1f\x7f]/.test(text)) return undefined;
  return text;
}

// ---------------------------------------------------------------------------
// PNG: signature, IHDR, then every chunk by its length, each with its CRC.

const PNG_DEPTHS: Readonly<Record<number, readonly number[]>> = {
  0: [1, 2, 4, 8, 16],
  2: [8, 16],
  3: [1, 2, 4, 8],
  4: [8, 16],
  6: [8, 16],
};
const PNG_CHUNK_MAX = 0x7fffffff;

function png(b: Uint8Array): ImageInfo {
  if (!startsWith(b, PNG_SIGNATURE)) fail("png", "PNG signature damaged");
  if (b.length < 8 + 25) fail("png", "PNG truncated in IHDR");
  if (u32be(b, 8) !== 13 || ascii(b, 12, 4) !== "IHDR") {
    fail("png", "PNG first chunk is not a 13-byte IHDR");
  }
  if (crc32(b, 12, 29) !== u32be(b, 29)) fail("png", "PNG IHDR CRC mismatch");
  const width = u32be(b, 16);
  const height = u32be(b, 20);
  const depth = at(b, 24);
  const colour = at(b, 25);
  if (!(PNG_DEPTHS[colour]?.includes(depth) ?? false)) {
    fail("png", `PNG colour type ${colour} with bit depth ${depth}`);
  }
  if (at(b, 26) !== 0 || at(b, 27) !== 0 || at(b, 28) > 1) {
    fail("png", "PNG IHDR compression, filter or interlace method invalid");
  }
  const info = side("png", width, height);
  pngChunks(b, colour);
  return info;
}

/**
 * Walks the chunks after IHDR by their lengths: each inside the file, with a
 * letter-only type and a correct CRC; PLTE where the colour type allows it and before the
 * data; IDAT chunks consecutive and starting a zlib stream; IEND last.
 */
function pngChunks(b: Uint8Array, colour: number): void {
  let p = 33;
  let palette = false;
  let idat = 0; // 0 none yet, 1 in the IDAT run, 2 after it
  let idatBytes = 0;
  let zlib = -1; // first byte of the zlib stream, once seen
  for (;;) {
    if (p + 12 > b.length) fail("png", "PNG truncated: no IEND chunk");
    const length = u32be(b, p);
    const type = ascii(b, p + 4, 4);
    if (length > PNG_CHUNK_MAX) fail("png", "PNG chunk length over 2^31-1");
    if (!/^[A-Za-z]{4}$/.test(type)) fail("png", "PNG chunk type invalid");
    const data = p + 8;
    const end = data + length + 4;
    if (end > b.length) fail("png", `PNG truncated in chunk ${type}`);
    if (crc32(b, p + 4, data + length) !== u32be(b, data + length)) {
      fail("png", `PNG ${type} chunk CRC mismatch`);
    }
    if (idat === 1 && type !== "IDAT") idat = 2;
    switch (type) {
      case "IDAT":
        if (idat === 2) fail("png", "PNG IDAT chunks are not consecutive");
        if (colour === 3 && !palette) fail("png", "PNG PLTE missing");
        idat = 1;
        for (let k = 0; k < length && idatBytes + k < 2; k++) {
          if (idatBytes + k === 0) zlib = at(b, data + k);
          else zlibHeader(zlib, at(b, data + k));
        }
        idatBytes += length;
        break;
      case "PLTE":
        if (palette || idat !== 0 || colour === 0 || colour === 4) {
          fail("png", "PNG PLTE misplaced");
        }
        if (length === 0 || length > 768 || length % 3 !== 0) {
          fail("png", "PNG PLTE length invalid");
        }
        palette = true;
        break;
      case "IEND":
        if (length !== 0) fail("png", "PNG IEND not empty");
        if (idat === 0) fail("png", "PNG has no IDAT chunk");
        // A zlib stream is at least 2 header bytes, some data, 4 check bytes.
        if (idatBytes < 7) fail("png", "PNG image data too short");
        if (end !== b.length) fail("png", "PNG has bytes after IEND");
        return;
      case "IHDR":
        fail("png", "PNG IHDR repeated");
        break;
      default:
        // An unknown critical chunk (upper-case first letter) cannot be
        // skipped by a decoder.
        if (type.charCodeAt(0) < 0x61) {
          fail("png", `PNG unknown critical chunk ${type}`);
        }
    }
    p = end;
  }
}

function zlibHeader(cmf: number, flg: number): void {
  if (
    (cmf & 0x0f) !== 8 || cmf >> 4 > 7 || ((cmf << 8) | flg) % 31 !== 0 ||
    (flg & 0x20) !== 0
  ) {
    fail("png", "PNG image data is not a zlib stream");
  }
}

/** CRC-32 (ISO-HDLC, as in PNG) of `b[start..end)`, native where it can. */
function crc32(b: Uint8Array, start: number, end: number): number {
  return anyCrc32(b.subarray(start, end));
}

// ---------------------------------------------------------------------------
// JPEG: SOI, marker segments to the frame header, then the scans to EOI,
// which ends the file.

function isSof(marker: number): boolean {
  return marker >= 0xc0 && marker <= 0xcf && marker !== 0xc4 &&
    marker !== 0xc8 && marker !== 0xcc;
}

function jpeg(b: Uint8Array): ImageInfo {
  let info: ImageInfo | undefined;
  let scanned = false;
  let p = 2;
  for (;;) {
    if (at(b, p) !== 0xff || p >= b.length) {
      fail("jpeg", p >= b.length ? "JPEG truncated" : "JPEG marker expected");
    }
    while (p < b.length && b[p] === 0xff) p++; // fill bytes
    if (p >= b.length) fail("jpeg", "JPEG truncated in a marker");
    const marker = at(b, p++);
    if (marker === 0x00 || marker === 0xd8) {
      fail("jpeg", `JPEG marker ${marker.toString(16)} out of place`);
    }
    if (marker === 0xd9) {
      if (info === undefined || !scanned) fail("jpeg", "JPEG ends early");
      if (p !== b.length) fail("jpeg", "JPEG has bytes after EOI");
      return info;
    }
    if (marker === 0x01 || (marker >= 0xd0 && marker <= 0xd7)) continue;
    if (p + 2 > b.length) fail("jpeg", "JPEG truncated in a segment length");
    const length = u16be(b, p);
    const end = p + length;
    if (length < 2 || end > b.length) fail("jpeg", "JPEG segment truncated");
    if (isSof(marker)) {
      if (info !== undefined) fail("jpeg", "JPEG has a second frame header");
      const components = at(b, p + 7);
      if (length < 8 || components === 0 || length !== 8 + 3 * components) {
        fail("jpeg", "JPEG frame header length inconsistent");
      }
      info = side("jpeg", u16be(b, p + 5), u16be(b, p + 3));
    }
    p = end;
    if (marker === 0xda) {
      if (info === undefined) fail("jpeg", "JPEG scan before frame header");
      scanned = true;
      p = entropyEnd(b, p);
    }
  }
}

/**
 * The offset of the marker that ends the entropy-coded data starting at `p`:
 * the first 0xFF followed by neither a stuffed zero nor a restart marker.
 */
function entropyEnd(b: Uint8Array, p: number): number {
  let q = p;
  for (;;) {
    q = b.indexOf(0xff, q);
    if (q < 0 || q + 1 >= b.length) fail("jpeg", "JPEG truncated in a scan");
    const next = at(b, q + 1);
    if (next === 0x00 || (next >= 0xd0 && next <= 0xd7)) {
      q += 2;
    } else {
      return q;
    }
  }
}

// ---------------------------------------------------------------------------
// WebP: RIFF container, then a VP8, VP8L or VP8X first chunk.

function webp(b: Uint8Array): ImageInfo {
  if (b.length < 20) fail("webp", "WebP truncated");
  if (u32le(b, 4) + 8 !== b.length) {
    fail("webp", "WebP RIFF size does not match the data");
  }
  const first = chunkAt(b, 12);
  if (first.fourcc === "VP8X") {
    return vp8x(b, first);
  }
  const info = bitstream(b, first);
  if (info === undefined) fail("webp", `WebP first chunk ${first.fourcc}`);
  if (first.next !== b.length) fail("webp", "WebP simple file has extra data");
  return info;
}

interface Chunk {
  fourcc: string;
  data: number;
  size: number;
  next: number;
}

function chunkAt(b: Uint8Array, p: number): Chunk {
  if (p + 8 > b.length) fail("webp", "WebP truncated in a chunk header");
  const size = u32le(b, p + 4);
  const data = p + 8;
  const end = data + size;
  if (end > b.length) fail("webp", "WebP chunk runs past the data");
  // Chunks are padded to an even size; tolerate a missing pad at the end.
  const next = Math.min(end + (size & 1), b.length);
  return { fourcc: ascii(b, p, 4), data, size, next };
}

/** The dimensions of a VP8 or VP8L chunk; undefined for other chunks. */
function bitstream(b: Uint8Array, c: Chunk): ImageInfo | undefined {
  const d = c.data;
  if (c.fourcc === "VP8 ") {
    if (c.size < 10) fail("webp", "WebP VP8 chunk too short");
    const tag = u24le(b, d);
    if ((tag & 1) !== 0) fail("webp", "WebP VP8 frame is not a key frame");
    if (((tag >> 1) & 7) > 3) fail("webp", "WebP VP8 version invalid");
    if (((tag >> 4) & 1) === 0) fail("webp", "WebP VP8 frame not shown");
    if (tag >> 5 > c.size - 10) {
      fail("webp", "WebP VP8 partition runs past the chunk");
    }
    if (!startsWith(b, [0x9d, 0x01, 0x2a], d + 3)) {
      fail("webp", "WebP VP8 start code missing");
    }
    return side("webp", u16le(b, d + 6) & 0x3fff, u16le(b, d + 8) & 0x3fff);
  }
  if (c.fourcc === "VP8L") {
    if (c.size < 5) fail("webp", "WebP VP8L chunk too short");
    if (at(b, d) !== 0x2f) fail("webp", "WebP VP8L signature missing");
    const bits = u32le(b, d + 1);
    if (bits >>> 29 !== 0) fail("webp", "WebP VP8L version invalid");
    return side("webp", (bits & 0x3fff) + 1, ((bits >>> 14) & 0x3fff) + 1);
  }
  return undefined;
}

/**
 * Extended WebP: the canvas size from VP8X, then the chunk walk to the end
 * of the file, with the image (or the animation frames) it announces.
 */
function vp8x(b: Uint8Array, first: Chunk): ImageInfo {
  if (first.size < 10) fail("webp", "WebP VP8X chunk too short");
  const flags = at(b, first.data);
  const canvas = side(
    "webp",
    u24le(b, first.data + 4) + 1,
    u24le(b, first.data + 7) + 1,
  );
  const animated = (flags & 0x02) !== 0;
  let image: ImageInfo | undefined;
  let frames = 0;
  let p = first.next;
  while (p < b.length) {
    const c = chunkAt(b, p);
    if (c.fourcc === "VP8X") fail("webp", "WebP VP8X repeated");
    if (c.fourcc === "ANMF") {
      if (!animated) fail("webp", "WebP frame in a still image");
      if (c.size < 16) fail("webp", "WebP ANMF chunk too short");
      frames++;
    }
    const found = bitstream(b, c);
    if (found !== undefined) {
      if (animated || image !== undefined) {
        fail("webp", "WebP image chunk out of place");
      }
      image = found;
    }
    p = c.next;
  }
  if (animated ? frames === 0 : image === undefined) {
    fail("webp", "WebP extended file has no image");
  }
  if (
    image !== undefined &&
    (image.width !== canvas.width || image.height !== canvas.height)
  ) {
    fail("webp", "WebP image size differs from its canvas");
  }
  return canvas;
}
