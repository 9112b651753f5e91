import assert from "node:assert/strict";
import fc from "fast-check";
import { concatBytes } from "../../lib/encoding/bytes.ts";
import { IMAGE_KINDS } from "../../lib/wire/mod.ts";
import { HttpError } from "../../lib/http/http_error.ts";
import { answered } from "../support/helpers.ts";
import {
  imageHeader,
  type ImageInfo,
  type ImageKind,
} from "../../lib/images/image_header.ts";
import { IMAGE_SIDE_MAX } from "../../lib/limits.ts";

// ---------------------------------------------------------------------------
// Helpers

const IMAGES = new URL("../../../shared/corpora/images/", import.meta.url);
const SVG_XSS = new URL(
  "../../../shared/corpora/xss/svg_xss/",
  import.meta.url,
);

/** The kinds a 415 may name: the wire contract's list. */
const KINDS: readonly ImageKind[] = IMAGE_KINDS;

/** The HttpError thrown by `imageHeader`, failing on anything else. */
function refusal(bytes: Uint8Array): HttpError {
  try {
    const info = imageHeader(bytes);
    assert.fail(`accepted as ${info.format} ${info.width}x${info.height}`);
  } catch (thrown) {
    const error = answered(thrown);
    if (!(error instanceof HttpError)) throw error;
    assert.equal(error.status, 415);
    assert.equal(error.body.error, "unsupported_format");
    assert.ok(KINDS.includes(error.body.kind as ImageKind));
    assert.deepEqual(Object.keys(error.body).sort(), ["error", "kind"]);
    return error;
  }
}

function refusedKind(bytes: Uint8Array): ImageKind {
  return refusal(bytes).body.kind as ImageKind;
}

/** Either an accepted header in range, or a 415 HttpError; nothing else. */
function acceptedOrRefused(bytes: Uint8Array): ImageInfo | HttpError {
  try {
    const info = imageHeader(bytes);
    assert.ok(["jpeg", "png", "webp"].includes(info.format));
    assert.ok(Number.isInteger(info.width) && Number.isInteger(info.height));
    assert.ok(info.width >= 1 && info.width <= IMAGE_SIDE_MAX);
    assert.ok(info.height >= 1 && info.height <= IMAGE_SIDE_MAX);
    return info;
  } catch (thrown) {
    const error = answered(thrown);
    if (!(error instanceof HttpError)) throw error;
    assert.equal(error.status, 415);
    assert.ok(KINDS.includes(error.body.kind as ImageKind));
    return error;
  }
}

const text = (s: string): Uint8Array => new TextEncoder().encode(s);
const bytes = (...parts: (readonly number[] | Uint8Array)[]): Uint8Array =>
  concatBytes(...parts.map((part) => Uint8Array.from(part)));
const u32be = (n: number): number[] => [
  (n >>> 24) & 255,
  (n >>> 16) & 255,
  (n >>> 8) & 255,
  n & 255,
];
const u16be = (n: number): number[] => [(n >>> 8) & 255, n & 255];
const u32le = (n: number): number[] => u32be(n).reverse();
const u24le = (n: number): number[] => [n & 255, (n >>> 8) & 255, n >>> 16];
const u16le = (n: number): number[] => [n & 255, (n >>> 8) & 255];

function crc32(data: Uint8Array): number {
  let c = 0xffffffff;
  for (const byte of data) {
    c ^= byte;
    for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
  }
  return (c ^ 0xffffffff) >>> 0;
}

function pngChunk(type: string, data: Uint8Array | number[]): Uint8Array {
  const body = bytes(text(type), data);
  return bytes(u32be(body.length - 4), body, u32be(crc32(body)));
}

/** zlib stream of a 1x1 grey 8-bit image (filter byte 0, pixel 0). */
const ZLIB_1X1 = [0x78, 0x9c, 0x63, 0x60, 0x00, 0x00, 0x00, 0x02, 0x00, 0x01];
const PNG_SIGNATURE = [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a];

function makePng(
  width: number,
  height: number,
  options: { depth?: number; colour?: number; idat?: number[] } = {},
): Uint8Array {
  const ihdr = bytes(
    u32be(width),
    u32be(height),
    [options.depth ?? 8, options.colour ?? 0, 0, 0, 0],
  );
  return bytes(
    PNG_SIGNATURE,
    pngChunk("IHDR", ihdr),
    pngChunk("IDAT", options.idat ?? ZLIB_1X1),
    pngChunk("IEND", []),
  );
}

function makeJpeg(width: number, height: number): Uint8Array {
  return bytes(
    [0xff, 0xd8], // SOI
    [0xff, 0xe0], // APP0 JFIF
    u16be(16),
    text("JFIF\0"),
    [1, 1, 0, 0, 1, 0, 1, 0, 0],
    [0xff, 0xff, 0xc0], // a fill byte, then SOF0
    u16be(11),
    [8],
    u16be(height),
    u16be(width),
    [1, 1, 0x11, 0],
    [0xff, 0xda], // SOS
    u16be(8),
    [1, 1, 0, 0, 0x3f, 0],
    [0x12, 0xff, 0x00, 0x34, 0xff, 0xd0, 0x56], // entropy data, stuffing, RST0
    [0xff, 0xd9], // EOI
  );
}

function riff(...chunks: Uint8Array[]): Uint8Array {
  const body = bytes(text("WEBP"), ...chunks);
  return bytes(text("RIFF"), u32le(body.length), body);
}

function webpChunk(fourcc: string, data: Uint8Array | number[]): Uint8Array {
  const payload = Uint8Array.from(data);
  const pad = payload.length % 2 === 1 ? [0] : [];
  return bytes(text(fourcc), u32le(payload.length), payload, pad);
}

function vp8(width: number, height: number): Uint8Array {
  const partition = 4;
  const tag = (partition << 5) | (1 << 4); // key frame, version 0, shown
  return webpChunk(
    "VP8 ",
    bytes(
      u24le(tag),
      [0x9d, 0x01, 0x2a],
      u16le(width),
      u16le(height),
      [0, 0, 0, 0],
    ),
  );
}

function vp8l(width: number, height: number): Uint8Array {
  const bits = ((width - 1) | ((height - 1) << 14)) >>> 0;
  return webpChunk("VP8L", bytes([0x2f], u32le(bits), [0, 0, 0]));
}

function vp8x(width: number, height: number, flags = 0): Uint8Array {
  return webpChunk(
    "VP8X",
    bytes([flags, 0, 0, 0], u24le(width - 1), u24le(height - 1)),
  );
}

async function read(url: URL): Promise<Uint8Array> {
  return await Deno.readFile(url);
}

// ---------------------------------------------------------------------------
// The corpus, file by file, from its manifest.

interface Entry {
  name: string;
  format: string;
  expected_outcome: string;
  expected_width?: number;
  expected_height?: number;
  measured_width?: number;
  measured_height?: number;
}

type Expectation =
  | { accept: [number, number] }
  | { refuse: readonly ImageKind[] };

/** The kind a manifest `format` stands for. */
function kindOf(format: string): ImageKind {
  if (format.startsWith("png") || format === "apng") return "png";
  if (format === "jpeg") return "jpeg";
  if (format.startsWith("webp")) return "webp";
  if (format.includes("tiff")) return "tiff";
  if (format.startsWith("heif") || format === "heic") return "heic";
  if (format.startsWith("not-an-image")) return "unknown";
  assert.ok(KINDS.includes(format as ImageKind), `format ${format}`);
  return format as ImageKind;
}

/**
 * Files judged differently from their manifest entry, with the reason.
 *
 * - `sample_fried.png` is stated valid (128x68) by image-size, but it is an
 *   Apple "CgBI" PNG: a proprietary chunk before IHDR and non-standard
 *   compressed data. It is not a PNG by the specification, browsers do not
 *   display it, and Pillow cannot decode it; the first chunk is not IHDR.
 *
 * Every other entry follows the manifest: `xcsn0g01.png` and
 * `x_interlaced_chck.png` (corrupt only by an IDAT CRC) are refused because
 * every chunk's CRC is checked.
 */
const OVERRIDES: Readonly<Record<string, Expectation>> = {
  "image-size/valid/png/sample_fried.png": { refuse: ["png"] },
};

function expectation(entry: Entry): Expectation {
  const override = OVERRIDES[entry.name];
  if (override !== undefined) return override;
  const kind = kindOf(entry.format);
  const base = entry.name.split("/").pop() ?? "";
  if (entry.name.startsWith("pngsuite/x")) {
    if (/^x(s|cr|lf)/.test(base)) return { refuse: ["png", "unknown"] };
    return { refuse: ["png"] };
  }
  const valid = entry.expected_outcome.startsWith("valid");
  const width = entry.expected_width ?? entry.measured_width;
  const height = entry.expected_height ?? entry.measured_height;
  if (
    valid && (kind === "png" || kind === "jpeg" || kind === "webp") &&
    width !== undefined && height !== undefined
  ) {
    return { accept: [width, height] };
  }
  return { refuse: [kind] };
}

const manifest: Entry[] = JSON.parse(
  await Deno.readTextFile(new URL("MANIFEST.json", IMAGES)),
);

Deno.test("the manifest lists every image file of the corpus", async () => {
  const onDisk: string[] = [];
  async function walk(dir: URL, prefix: string): Promise<void> {
    for await (const item of Deno.readDir(dir)) {
      if (item.isDirectory) {
        await walk(new URL(`${item.name}/`, dir), `${prefix}${item.name}/`);
      } else onDisk.push(`${prefix}${item.name}`);
    }
  }
  await walk(IMAGES, "");
  const listed = new Set(manifest.map((entry) => entry.name));
  const documents = onDisk.filter((name) => !listed.has(name)).sort();
  assert.deepEqual(documents, [
    "MANIFEST.json",
    "README.md",
    "pngsuite/PngSuite.LICENSE",
    "pngsuite/PngSuite.README",
  ]);
  assert.equal(manifest.length, 246);
  assert.equal(onDisk.length, 250);
  // The corpus' own text files are no image either.
  for (const name of documents) {
    assert.equal(refusedKind(await read(new URL(name, IMAGES))), "unknown");
  }
});

Deno.test("every corpus image is accepted with its dimensions or refused with its kind", async () => {
  const accepted: Record<string, number> = {};
  const refused: Record<string, number> = {};
  for (const entry of manifest) {
    const data = await read(new URL(entry.name, IMAGES));
    const expected = expectation(entry);
    if ("accept" in expected) {
      let info: ImageInfo;
      try {
        info = imageHeader(data);
      } catch (error) {
        assert.fail(`${entry.name} refused: ${(error as Error).message}`);
      }
      assert.deepEqual(
        [info.width, info.height],
        expected.accept,
        entry.name,
      );
      assert.equal(info.format, kindOf(entry.format), entry.name);
      accepted[info.format] = (accepted[info.format] ?? 0) + 1;
    } else {
      const kind = refusedKind(data);
      assert.ok(
        expected.refuse.includes(kind),
        `${entry.name}: kind ${kind}, expected ${expected.refuse}`,
      );
      refused[kind] = (refused[kind] ?? 0) + 1;
    }
  }
  assert.deepEqual(accepted, { png: 165, jpeg: 9, webp: 4 });
  assert.deepEqual(refused, {
    svg: 17,
    png: 23,
    bmp: 2,
    gif: 2,
    avif: 4,
    heic: 6,
    tiff: 10,
    unknown: 4,
  });
});

Deno.test("PngSuite's corrupted files are refused as the brief says", async () => {
  const exact: Record<string, ImageKind> = {
    "xs1n0g01.png": "unknown", // first byte not 0x89
    "xs2n0g01.png": "unknown", // 'Q' for 'P'
    "xs4n0g01.png": "unknown", // 'g' for 'G'
    "xs7n0g01.png": "png", // 0x20 for 0x1a, after "\x89PNG"
    "xcrn0g04.png": "png", // CR/LF conversion
    "xlfn0g04.png": "png", // LF conversion
    "xhdn0g08.png": "png", // IHDR CRC
    "xc1n0g08.png": "png", // colour type 1
    "xc9n2c08.png": "png", // colour type 9
    "xd0n2c08.png": "png", // bit depth 0
    "xd3n2c08.png": "png", // bit depth 3
    "xd9n2c08.png": "png", // bit depth 99
    "xdtn0g01.png": "png", // no IDAT
    "xcsn0g01.png": "png", // IDAT CRC
  };
  for (const [name, kind] of Object.entries(exact)) {
    const data = await read(new URL(`pngsuite/${name}`, IMAGES));
    assert.equal(refusedKind(data), kind, name);
  }
  const corrupted = manifest.filter((e) => e.name.startsWith("pngsuite/x"));
  assert.equal(corrupted.length, 14);
  assert.equal(Object.keys(exact).length, 14);
});

Deno.test("file-type's false positives are refused", async () => {
  for (
    const [name, kind] of [
      ["file-type/fixture-json.webp", "unknown"],
      ["file-type/fixture-corrupt.png", "png"],
    ] as const
  ) {
    assert.equal(refusedKind(await read(new URL(name, IMAGES))), kind, name);
  }
});

Deno.test("every SVG of the XSS corpus is refused as svg", async () => {
  let count = 0;
  for await (const item of Deno.readDir(SVG_XSS)) {
    const data = await read(new URL(item.name, SVG_XSS));
    assert.equal(refusedKind(data), "svg", item.name);
    count++;
  }
  assert.equal(count, 9);
});

// ---------------------------------------------------------------------------
// Synthetic headers: the edges of each rule.

/** Asserts that the header of each size is read back as that size. */
function assertSizesRead(
  format: string,
  make: (width: number, height: number) => Uint8Array,
  sizes: [number, number][],
): void {
  for (const [width, height] of sizes) {
    assert.deepEqual(imageHeader(make(width, height)), {
      format,
      width,
      height,
    });
  }
}

Deno.test("a PNG is accepted from 1 to 10,000 px on each side", () => {
  assertSizesRead("png", makePng, [
    [1, 1],
    [10_000, 1],
    [1, 10_000],
    [10_000, 10_000],
  ]);
});

Deno.test("a PNG whose correct IHDR is out of range is refused as png", () => {
  for (
    const [w, h] of [[10_001, 1], [0, 5], [1, 10_001], [5, 0], [
      0xffffffff,
      1,
    ]]
  ) {
    const error = refusal(makePng(w!, h!));
    assert.equal(error.body.kind, "png");
    assert.match(error.message, /out of range/);
  }
});

Deno.test("a PNG's IHDR must be consistent", () => {
  const valid: [number, number][] = [
    [0, 1],
    [0, 2],
    [0, 4],
    [0, 8],
    [0, 16],
    [2, 8],
    [2, 16],
    [3, 1],
    [3, 2],
    [3, 4],
    [3, 8],
    [4, 8],
    [4, 16],
    [6, 8],
    [6, 16],
  ];
  const plte = pngChunk("PLTE", [0, 0, 0]);
  for (let colour = 0; colour < 8; colour++) {
    for (const depth of [0, 1, 2, 3, 4, 8, 16, 32]) {
      let file = makePng(2, 2, { colour, depth });
      if (colour === 3) {
        file = bytes(file.subarray(0, 33), plte, file.subarray(33));
      }
      const ok = valid.some(([c, d]) => c === colour && d === depth);
      if (ok) assert.equal(imageHeader(file).width, 2);
      else assert.equal(refusedKind(file), "png", `${colour}/${depth}`);
    }
  }
  const base = makePng(2, 2);
  // Compression, filter and interlace bytes, CRC recomputed each time.
  for (
    const [offset, value, ok] of [[26, 1, false], [27, 1, false], [
      28,
      1,
      true,
    ], [28, 2, false]] as const
  ) {
    const ihdr = base.slice(12, 29);
    ihdr[offset - 12] = value;
    const file = bytes(
      base.subarray(0, 12),
      ihdr,
      u32be(crc32(ihdr)),
      base.subarray(33),
    );
    if (ok) assert.equal(imageHeader(file).format, "png");
    else assert.equal(refusedKind(file), "png");
  }
  // A wrong IHDR CRC.
  const bad = base.slice();
  bad[32] = (bad[32] ?? 0) ^ 1;
  assert.match(refusal(bad).message, /CRC/);
});

Deno.test("a PNG's chunk structure must be whole and in order", () => {
  const sig = PNG_SIGNATURE;
  const ihdr = pngChunk(
    "IHDR",
    bytes(u32be(3), u32be(4), [8, 0, 0, 0, 0]),
  );
  const idat = pngChunk("IDAT", ZLIB_1X1);
  const iend = pngChunk("IEND", []);
  const note = pngChunk("tEXt", [0x61, 0, 0x62]);
  const png = (...chunks: Uint8Array[]): Uint8Array =>
    bytes(sig, ihdr, ...chunks);
  assert.deepEqual(imageHeader(png(note, idat, iend)), {
    format: "png",
    width: 3,
    height: 4,
  });
  // IDAT split in many chunks, even 1-byte ones.
  const split = ZLIB_1X1.map((b) => pngChunk("IDAT", [b]));
  assert.equal(imageHeader(png(...split, iend)).width, 3);
  const cases: [string, Uint8Array][] = [
    ["no IDAT", png(note, iend)],
    ["no IEND", png(idat)],
    ["bytes after IEND", png(idat, iend, Uint8Array.of(0))],
    ["IDAT not consecutive", png(idat, note, idat, iend)],
    ["IHDR repeated", png(ihdr, idat, iend)],
    ["unknown critical chunk", png(pngChunk("ABCD", []), idat, iend)],
    ["chunk type not letters", png(pngChunk("ab1d", []), idat, iend)],
    ["empty IDAT", png(pngChunk("IDAT", []), iend)],
    ["not zlib", png(pngChunk("IDAT", [0, 1, 2, 3, 4, 5, 6, 7]), iend)],
    ["IEND not empty", png(idat, pngChunk("IEND", [0]))],
    ["PLTE in grey", png(pngChunk("PLTE", [1, 2, 3]), idat, iend)],
    [
      "chunk longer than the file",
      bytes(sig, ihdr, u32be(1000), text("tEXt"), [0x61, 0, 0x62]),
    ],
    ["chunk length over 2^31-1", bytes(sig, ihdr, u32be(0x80000000), [0])],
  ];
  for (const [name, file] of cases) {
    assert.equal(refusedKind(file), "png", name);
  }
  // Palette images need their PLTE, before the data.
  const pal = pngChunk(
    "IHDR",
    bytes(u32be(1), u32be(1), [8, 3, 0, 0, 0]),
  );
  const plte = pngChunk("PLTE", [1, 2, 3]);
  assert.equal(imageHeader(bytes(sig, pal, plte, idat, iend)).width, 1);
  assert.equal(refusedKind(bytes(sig, pal, idat, iend)), "png");
  assert.equal(refusedKind(bytes(sig, pal, idat, plte, iend)), "png");
  assert.equal(
    refusedKind(bytes(sig, pal, pngChunk("PLTE", [1, 2]), idat, iend)),
    "png",
  );
});

Deno.test("a JPEG is accepted from 1 to 10,000 px and refused outside", () => {
  assertSizesRead("jpeg", makeJpeg, [
    [1, 1],
    [10_000, 1],
    [1, 10_000],
    [640, 480],
  ]);
  for (const [w, h] of [[10_001, 1], [1, 10_001], [0, 5], [5, 0], [65535, 1]]) {
    const error = refusal(makeJpeg(w!, h!));
    assert.equal(error.body.kind, "jpeg");
    assert.match(error.message, /out of range/);
  }
});

Deno.test("a JPEG's marker walk refuses what comes out of order", () => {
  const soi = [0xff, 0xd8];
  const app = bytes([0xff, 0xe1], u16be(4), [0, 0]);
  const sof = (marker: number): Uint8Array =>
    bytes([0xff, marker], u16be(11), [8], u16be(2), u16be(3), [1, 1, 0x11, 0]);
  const sos = bytes([0xff, 0xda], u16be(8), [1, 1, 0, 0, 0x3f, 0], [1, 2]);
  const eoi = [0xff, 0xd9];
  // Every start-of-frame marker gives the dimensions.
  for (
    const marker of [
      0xc0,
      0xc1,
      0xc2,
      0xc3,
      0xc5,
      0xc6,
      0xc7,
      0xc9,
      0xca,
      0xcb,
      0xcd,
      0xce,
      0xcf,
    ]
  ) {
    assert.deepEqual(
      imageHeader(bytes(soi, app, sof(marker), sos, eoi)),
      { format: "jpeg", width: 3, height: 2 },
    );
  }
  // Standalone markers and fill bytes between segments are walked over.
  assert.equal(
    imageHeader(
      bytes(soi, [0xff, 0x01, 0xff, 0xff], app, sof(0xc0), sos, eoi),
    ).width,
    3,
  );
  const cases: [string, Uint8Array][] = [
    ["SOI only", bytes(soi)],
    ["SOS before SOF", bytes(soi, app, sos, sof(0xc0), sos, eoi)],
    ["EOI before SOF", bytes(soi, app, eoi)],
    ["EOI before SOS", bytes(soi, sof(0xc0), eoi)],
    ["DHT is no frame", bytes(soi, sof(0xc4), sos, eoi)],
    ["JPG is no frame", bytes(soi, sof(0xc8), sos, eoi)],
    ["DAC is no frame", bytes(soi, sof(0xcc), sos, eoi)],
    ["two frames", bytes(soi, sof(0xc0), sof(0xc0), sos, eoi)],
    ["segment past the end", bytes(soi, [0xff, 0xe0], u16be(100), [0, 0])],
    ["segment length 1", bytes(soi, [0xff, 0xe0], u16be(1), sof(0xc0))],
    ["no marker", bytes(soi, [0x00], sof(0xc0), sos, eoi)],
    ["second SOI", bytes(soi, soi, sof(0xc0), sos, eoi)],
    ["no EOI", bytes(soi, sof(0xc0), sos)],
    ["bytes after EOI", bytes(soi, sof(0xc0), sos, eoi, [0])],
    [
      "frame length inconsistent",
      bytes(
        soi,
        [0xff, 0xc0],
        u16be(12),
        [8],
        u16be(2),
        u16be(3),
        [
          1,
          1,
          0x11,
          0,
          0,
        ],
        sos,
        eoi,
      ),
    ],
    [
      "frame without components",
      bytes(
        soi,
        [0xff, 0xc0],
        u16be(8),
        [8],
        u16be(2),
        u16be(3),
        [0],
        sos,
        eoi,
      ),
    ],
  ];
  for (const [name, file] of cases) {
    assert.equal(refusedKind(file), "jpeg", name);
  }
});

Deno.test("a WebP is accepted from 1 to 10,000 px and refused outside", () => {
  for (const [w, h] of [[1, 1], [10_000, 1], [1, 10_000], [123, 456]]) {
    const expected = { format: "webp", width: w, height: h };
    assert.deepEqual(imageHeader(riff(vp8(w!, h!))), expected);
    assert.deepEqual(imageHeader(riff(vp8l(w!, h!))), expected);
    assert.deepEqual(imageHeader(riff(vp8x(w!, h!), vp8l(w!, h!))), expected);
    assert.deepEqual(
      imageHeader(
        riff(vp8x(w!, h!, 0x10), webpChunk("ALPH", [0]), vp8(w!, h!)),
      ),
      expected,
    );
  }
  for (const [w, h] of [[10_001, 1], [1, 10_001], [16_383, 16_383]]) {
    assert.match(refusal(riff(vp8(w!, h!))).message, /out of range/);
    assert.match(refusal(riff(vp8l(w!, h!))).message, /out of range/);
    assert.match(
      refusal(riff(vp8x(w!, h!), vp8l(1, 1))).message,
      /out of range/,
    );
  }
  for (const [w, h] of [[0, 5], [5, 0]]) {
    assert.match(refusal(riff(vp8(w!, h!))).message, /out of range/);
  }
  assert.match(
    refusal(riff(vp8x(1 << 24, 1), vp8l(1, 1))).message,
    /out of range/,
  );
});

Deno.test("a WebP's container and bitstream must be consistent", () => {
  const good = riff(vp8l(3, 4));
  const sized = (file: Uint8Array, size: number): Uint8Array => {
    const copy = file.slice();
    copy.set(u32le(size), 4);
    return copy;
  };
  const frameTag = (tag: number): Uint8Array =>
    riff(
      webpChunk(
        "VP8 ",
        bytes(u24le(tag), [0x9d, 1, 0x2a], u16le(3), u16le(4), [0, 0, 0, 0]),
      ),
    );
  const cases: [string, Uint8Array][] = [
    ["RIFF size too large", sized(good, good.length - 7)],
    ["RIFF size too small", sized(good, good.length - 9)],
    ["trailing bytes", bytes(good, [0, 0])],
    ["unknown first chunk", riff(webpChunk("JUNK", [0, 0]))],
    ["two image chunks", riff(vp8l(3, 4), vp8l(3, 4))],
    ["chunk past the end", riff(bytes(text("VP8L"), u32le(100), [0x2f]))],
    ["VP8L signature", riff(webpChunk("VP8L", [0x2e, 0, 0, 0, 0]))],
    ["VP8L version", riff(webpChunk("VP8L", bytes([0x2f], u32le(1 << 29))))],
    [
      "VP8 start code",
      riff(webpChunk("VP8 ", [0x10, 0, 0, 0x9d, 1, 0x2b, 1, 0, 1, 0])),
    ],
    ["VP8 not a key frame", frameTag((4 << 5) | (1 << 4) | 1)],
    ["VP8 not shown", frameTag(4 << 5)],
    ["VP8 version 4", frameTag((4 << 5) | (1 << 4) | (4 << 1))],
    ["VP8 partition too long", frameTag((5 << 5) | (1 << 4))],
    ["VP8 too short", riff(webpChunk("VP8 ", [0x90, 0, 0, 0x9d, 1, 0x2a]))],
    ["VP8X without image", riff(vp8x(3, 4))],
    ["VP8X canvas differs", riff(vp8x(3, 4), vp8l(4, 3))],
    ["VP8X repeated", riff(vp8x(3, 4), vp8x(3, 4), vp8l(3, 4))],
    [
      "VP8X too short",
      riff(webpChunk("VP8X", [0, 0, 0, 0, 2, 0, 0, 3, 0]), vp8l(3, 4)),
    ],
    [
      "frame in a still image",
      riff(vp8x(3, 4), webpChunk("ANMF", new Uint8Array(16)), vp8l(3, 4)),
    ],
    [
      "animation without frames",
      riff(vp8x(3, 4, 0x02), webpChunk("ANIM", new Uint8Array(6))),
    ],
    ["no WEBP chunk at all", riff()],
  ];
  for (const [name, file] of cases) {
    assert.equal(refusedKind(file), "webp", name);
  }
  // An animation takes its canvas size.
  const frame = webpChunk("ANMF", bytes(new Uint8Array(16), vp8l(3, 4)));
  assert.deepEqual(
    imageHeader(
      riff(vp8x(30, 40, 0x02), webpChunk("ANIM", new Uint8Array(6)), frame),
    ),
    { format: "webp", width: 30, height: 40 },
  );
  // An odd chunk is padded; a missing final pad byte is tolerated.
  const odd = riff(vp8x(3, 4), webpChunk("EXIF", [1]), vp8l(3, 4));
  assert.equal(imageHeader(odd).width, 3);
  const unpadded = riff(
    vp8x(3, 4),
    vp8l(3, 4),
    bytes(text("EXIF"), u32le(1), [1]),
  );
  assert.equal(imageHeader(unpadded).height, 4);
  assert.equal(refusedKind(text("RIFF\x04\0\0\0WAVE")), "unknown");
});

Deno.test("other formats are recognised and refused with their kind", () => {
  const ftyp = (major: string, ...compatible: string[]): Uint8Array =>
    bytes(
      u32be(16 + 4 * compatible.length),
      text("ftyp"),
      text(major),
      [0, 0, 0, 0],
      ...compatible.map(text),
      u32be(8),
      text("meta"),
    );
  const cases: [ImageKind, Uint8Array][] = [
    ["gif", text("GIF87a\x01\0\x01\0")],
    ["gif", text("GIF89a\x01\0\x01\0")],
    [
      "bmp",
      bytes(text("BM"), new Uint8Array(12), u32le(40), new Uint8Array(40)),
    ],
    [
      "bmp",
      bytes(text("BM"), new Uint8Array(12), u32le(124), new Uint8Array(40)),
    ],
    ["tiff", bytes(text("II*\0"), u32le(8))],
    ["tiff", bytes(text("MM\0*"), u32be(8))],
    ["tiff", bytes(text("II+\0"), [8, 0, 0, 0], new Uint8Array(8))],
    ["tiff", bytes(text("MM\0+"), [0, 8, 0, 0], new Uint8Array(8))],
    ["avif", ftyp("avif", "mif1", "miaf")],
    ["avif", ftyp("avis", "msf1")],
    ["avif", ftyp("mif1", "miaf", "avif")],
    ["ico", bytes([0, 0, 1, 0, 1, 0], new Uint8Array(16))],
    ["ico", bytes([0, 0, 2, 0, 1, 0], new Uint8Array(16))],
    ["pdf", text("%PDF-1.7\n%\xe2\xe3\xcf\xd3\n")],
    ["unknown", ftyp("isom", "iso2", "mp41")],
    ["unknown", ftyp("qt  ")],
    ["unknown", new Uint8Array()],
    ["unknown", text("hello, world")],
    ["unknown", text("<!DOCTYPE html><html><body>hi</body></html>")],
    ["unknown", text("BMW")],
    ["unknown", bytes([0, 0, 1, 0, 0, 0])],
    ["unknown", bytes([0x00, 0x00, 0x00, 0x0c, 0x6a, 0x50, 0x20, 0x20])],
  ];
  for (
    const brand of [
      "heic",
      "heix",
      "hevc",
      "hevx",
      "heim",
      "heis",
      "mif1",
      "msf1",
    ]
  ) {
    cases.push(["heic", ftyp(brand)]);
    cases.push(["heic", ftyp(brand, "mif1", brand)]);
  }
  for (const [kind, file] of cases) {
    assert.equal(refusedKind(file), kind, new TextDecoder().decode(file));
  }
});

Deno.test("SVG is recognised behind a prolog or near the start of text", () => {
  const svg = '<svg xmlns="http://www.w3.org/2000/svg"/>';
  const cases = [
    svg,
    `\ufeff${svg}`,
    `\n \t${svg}`,
    `<?xml version="1.0" encoding="UTF-8"?>\n${svg}`,
    `<?xml version="1.0"?><!-- a comment --><!-- another -->\n${svg}`,
    `<!DOCTYPE svg PUBLIC "-//W3C//DTD SVG 1.1//EN" "x.dtd">${svg}`,
    `<!DOCTYPE svg [ <!ENTITY a "b"> ]>${svg}`,
    "<SVG><script>alert(1)</script></SVG>",
    '<svg:svg xmlns:svg="http://www.w3.org/2000/svg"/>',
    '<a:script xmlns:a="http://www.w3.org/1999/xhtml">alert(1)</a:script>',
    "<html><body><svg onload=alert(1)></body></html>",
    "some text then <svg>",
  ];
  for (const source of cases) {
    assert.equal(refusedKind(text(source)), "svg", source);
  }
  // UTF-16 with a byte order mark.
  const utf16le = bytes(
    [0xff, 0xfe],
    ...[...svg].map((c) => u16le(c.charCodeAt(0))),
  );
  const utf16be = bytes(
    [0xfe, 0xff],
    ...[...svg].map((c) => u16be(c.charCodeAt(0))),
  );
  assert.equal(refusedKind(utf16le), "svg");
  assert.equal(refusedKind(utf16be), "svg");
  // Binary data that happens to hold "<svg" is not text.
  assert.equal(refusedKind(bytes([0, 1, 2], text("<svg>"))), "unknown");
  // "<svg" far from the start of the text is not looked for.
  assert.equal(refusedKind(text(`${"x".repeat(5000)}<svg>`)), "unknown");
});

// ---------------------------------------------------------------------------
// Truncation: every prefix of a valid file is refused.

const TRUNCATED = [
  "pngsuite/basn0g01.png",
  "pngsuite/oi9n0g16.png",
  "file-type/fixture.apng",
  "image-size/valid/jpg/1x2-flipped-big-endian.jpg",
  "image-size/valid/jpg/progressive.jpg",
  "file-type/fixture.jpg",
  "image-size/valid/webp/lossy.webp",
  "image-size/valid/webp/lossless.webp",
  "image-size/valid/webp/extended.webp",
];

Deno.test("every prefix of a valid file is refused, never accepted", async () => {
  let prefixes = 0;
  const formats = new Set<string>();
  for (const name of TRUNCATED) {
    const data = await read(new URL(name, IMAGES));
    const whole = imageHeader(data);
    formats.add(whole.format);
    const recognisedFrom = { png: 4, jpeg: 2, webp: 12 }[whole.format];
    for (let n = 0; n < data.length; n++) {
      const kind = refusedKind(data.subarray(0, n));
      if (n >= recognisedFrom) assert.equal(kind, whole.format, `${name} ${n}`);
      prefixes++;
    }
    // A byte more is refused too.
    assert.equal(refusedKind(bytes(data, [0])), whole.format, name);
  }
  assert.deepEqual([...formats].sort(), ["jpeg", "png", "webp"]);
  assert.ok(prefixes > 300_000, `${prefixes} prefixes`);
});

Deno.test("every prefix of a synthetic file is refused", () => {
  for (
    const file of [
      makePng(7, 9),
      makeJpeg(7, 9),
      riff(vp8(7, 9)),
      riff(vp8x(7, 9, 0x10), webpChunk("ALPH", [1]), vp8l(7, 9)),
    ]
  ) {
    assert.equal(imageHeader(file).width, 7);
    for (let n = 0; n < file.length; n++) refusal(file.subarray(0, n));
  }
});

// ---------------------------------------------------------------------------
// Properties: random input never throws anything but a 415, nor hangs.

const SAMPLES = [
  "pngsuite/basn2c08.png",
  "pngsuite/oi4n0g16.png",
  "pngsuite/basn3p02.png",
  "image-size/valid/jpg/1x2-flipped-little-endian.jpg",
  "image-size/valid/webp/lossy.webp",
  "image-size/valid/webp/extended.webp",
];

Deno.test("random bytes never throw anything but a 415", () => {
  const prefixes = fc.constantFrom(
    [],
    PNG_SIGNATURE,
    [0xff, 0xd8],
    [0xff, 0xd8, 0xff],
    [...text("RIFF")],
    [...text("GIF8")],
    [0, 0, 0, 0x18, ...text("ftyp")],
  );
  fc.assert(
    fc.property(prefixes, fc.uint8Array({ maxLength: 600 }), (head, tail) => {
      const start = performance.now();
      acceptedOrRefused(bytes(head, tail));
      assert.ok(performance.now() - start < 250);
    }),
    { numRuns: 5_000 },
  );
});

Deno.test("mutations of valid files never throw anything but a 415", async () => {
  const samples = await Promise.all(
    SAMPLES.map((name) => read(new URL(name, IMAGES))),
  );
  const mutation = fc.record({
    sample: fc.nat({ max: samples.length - 1 }),
    // Overwrites, mostly in the header where the decisions are made.
    writes: fc.array(
      fc.tuple(
        fc.oneof(fc.nat({ max: 64 }), fc.nat({ max: 1 << 20 })),
        fc.integer({ min: 0, max: 255 }),
      ),
      { minLength: 1, maxLength: 6 },
    ),
    cut: fc.option(fc.nat(), { nil: undefined }),
    insert: fc.option(
      fc.tuple(fc.nat({ max: 128 }), fc.uint8Array({ maxLength: 8 })),
      { nil: undefined },
    ),
  });
  let accepted = 0;
  fc.assert(
    fc.property(mutation, ({ sample, writes, cut, insert }) => {
      let file: Uint8Array = (samples[sample] ?? new Uint8Array()).slice();
      for (const [at, value] of writes) {
        if (file.length > 0) file[at % file.length] = value;
      }
      if (insert !== undefined) {
        const at = Math.min(insert[0], file.length);
        file = bytes(file.subarray(0, at), insert[1], file.subarray(at));
      }
      if (cut !== undefined) file = file.subarray(0, cut % (file.length + 1));
      const start = performance.now();
      if (!(acceptedOrRefused(file) instanceof HttpError)) accepted++;
      assert.ok(performance.now() - start < 250);
    }),
    { numRuns: 5_000 },
  );
  // Some mutations (in pixel data or ancillary chunks) leave a sound header.
  assert.ok(accepted > 0);
});
