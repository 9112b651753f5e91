/**
 * The image checks on any input: the header reader answers a format and
 * dimensions within 1 to 10,000 or its documented `ImageFormatError` (415)
 * for any bytes, and the upload name rewrite gives a name in the media
 * whitelist that stays in `public/images/`, or its documented
 * `ImageNameError` (400), for any string.
 */
import assert from "node:assert/strict";
import { posix } from "node:path";
import fc from "fast-check";
import {
  ImageFormatError,
  imageHeader,
} from "../../lib/images/image_header.ts";
import { imageName, ImageNameError } from "../../lib/images/image_name.ts";
import { isImageName } from "../../lib/pages/media_rule.ts";
import { propertyRuns } from "../support/runs.ts";

const SIGNATURES = [
  [],
  [
    0x89,
    0x50,
    0x4e,
    0x47,
    0x0d,
    0x0a,
    0x1a,
    0x0a,
    0,
    0,
    0,
    13,
    0x49,
    0x48,
    0x44,
    0x52,
  ],
  [0xff, 0xd8, 0xff, 0xc0],
  [0xff, 0xd8, 0xff, 0xe0, 0, 16],
  [
    0x52,
    0x49,
    0x46,
    0x46,
    0,
    0,
    0,
    0,
    0x57,
    0x45,
    0x42,
    0x50,
    0x56,
    0x50,
    0x38,
  ],
  [0x47, 0x49, 0x46, 0x38],
  [0x3c, 0x73, 0x76, 0x67],
];

Deno.test("the image header reader answers any bytes with a format in range or a 415", () => {
  fc.assert(
    fc.property(
      fc.constantFrom(...SIGNATURES),
      fc.uint8Array({ maxLength: 800 }),
      (head, tail) => {
        const bytes = new Uint8Array(head.length + tail.length);
        bytes.set(head);
        bytes.set(tail, head.length);
        try {
          const info = imageHeader(bytes);
          assert.ok(["jpeg", "png", "webp"].includes(info.format));
          for (const side of [info.width, info.height]) {
            assert.ok(Number.isInteger(side) && side >= 1 && side <= 10_000);
          }
        } catch (error) {
          assert.ok(error instanceof ImageFormatError, String(error));
        }
      },
    ),
    { numRuns: propertyRuns(2_000) },
  );
});

Deno.test("the upload name rewrite gives a whitelisted name under public/images or a 400, for any string", () => {
  const names = fc.oneof(
    fc.string({ unit: "binary", maxLength: 220 }),
    fc.string({
      unit: fc.constantFrom(
        "..",
        "/",
        "\\",
        "%2f",
        ".",
        "a",
        "É",
        " ",
        "\u0000",
        "\u202e",
        "ﬁ",
        "-",
      ),
      maxLength: 80,
    }),
  );
  let named = 0;
  fc.assert(
    fc.property(
      fc.option(names, { nil: undefined }),
      fc.stringMatching(/^[0-9a-f]{64}$/),
      fc.constantFrom("jpeg", "png", "webp") as fc.Arbitrary<
        "jpeg" | "png" | "webp"
      >,
      (given, sha, format) => {
        let name: string;
        try {
          name = imageName(given, sha, format);
        } catch (error) {
          assert.ok(error instanceof ImageNameError, String(error));
          return;
        }
        named++;
        assert.ok(isImageName(name), name);
        const stored = posix.join("public/images", name);
        assert.equal(posix.dirname(stored), "public/images");
        assert.equal(posix.normalize(stored), stored);
      },
    ),
    { numRuns: propertyRuns(2_000) },
  );
  assert.ok(named > 100, `${named} names`);
});
