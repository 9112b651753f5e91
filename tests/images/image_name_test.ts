import assert from "node:assert/strict";
import fc from "fast-check";
import { HttpError } from "../../lib/http/http_error.ts";
import { answered } from "../support/helpers.ts";
import { imageName } from "../../lib/images/image_name.ts";
import { isImageName } from "../../lib/pages/media_rule.ts";
import { UPLOAD_NAME_MAX } from "../../lib/limits.ts";

const SHA = "0123456789abcdef".repeat(4);
const HASH = "0123456789ab";

function refused(given: string): HttpError {
  try {
    const name = imageName(given, SHA, "jpeg");
    assert.fail(`accepted as ${name}`);
  } catch (thrown) {
    const error = answered(thrown);
    if (!(error instanceof HttpError)) throw error;
    assert.equal(error.status, 400);
    assert.deepEqual(error.body, { error: "bad_request" });
    return error;
  }
}

Deno.test("a name is rewritten into slug, hash and extension", () => {
  const cases: [string, string][] = [
    ["Café Crème.jpg", `cafe-creme-${HASH}.jpg`],
    ["My Photo.JPG", `my-photo-${HASH}.jpg`],
    ["photo.JPEG", `photo-${HASH}.jpg`],
    ["holiday.PNG", `holiday-${HASH}.jpg`],
    ["scan.Tiff", `scan-${HASH}.jpg`],
    ["scan.TIF", `scan-${HASH}.jpg`],
    ["raw.heic", `raw-${HASH}.jpg`],
    ["raw.avif", `raw-${HASH}.jpg`],
    ["old.gif", `old-${HASH}.jpg`],
    ["old.bmp", `old-${HASH}.jpg`],
    ["next.webp", `next-${HASH}.jpg`],
    ["  spaced.jpg  ", `spaced-${HASH}.jpg`],
    // Only one final extension goes; other extensions stay words.
    ["a.jpg.png", `a-jpg-${HASH}.jpg`],
    ["drawing.svg", `drawing-svg-${HASH}.jpg`],
    ["a.b.c", `a-b-c-${HASH}.jpg`],
    ["🐱 cat 🐶.png", `cat-${HASH}.jpg`],
    ["../../x", `x-${HASH}.jpg`],
    ["..%2F..%2Fx", `2f-2fx-${HASH}.jpg`],
    ["a/b\\c.webp", `a-b-c-${HASH}.jpg`],
    ["/etc/passwd", `etc-passwd-${HASH}.jpg`],
    ["İstanbul", `istanbul-${HASH}.jpg`],
    ["straße", `stra-e-${HASH}.jpg`],
    ["Ⅻ ﬁle ①", `xii-file-1-${HASH}.jpg`],
    ["ＰＨＯＴＯ．ＪＰＧ", `photo-${HASH}.jpg`],
    ["a\u0000b\nc", `a-b-c-${HASH}.jpg`],
    ["--Hello__World--", `hello-world-${HASH}.jpg`],
  ];
  for (const [given, expected] of cases) {
    assert.equal(imageName(given, SHA, "jpeg"), expected, given);
  }
});

Deno.test("the extension follows the format recognised from the bytes", () => {
  assert.equal(imageName("x.png", SHA, "jpeg"), `x-${HASH}.jpg`);
  assert.equal(imageName("x.jpg", SHA, "png"), `x-${HASH}.png`);
  assert.equal(imageName("x.jpg", SHA, "webp"), `x-${HASH}.webp`);
});

Deno.test("a missing name gives image; an empty or emptied one is refused", () => {
  assert.equal(imageName(undefined, SHA, "png"), `image-${HASH}.png`);
  assert.equal(imageName(undefined, SHA, "webp"), `image-${HASH}.webp`);
  for (
    const given of ["", " ", "...", ".jpg", ".JPEG", "-_-", "中文.png", "🐱"]
  ) {
    assert.match(refused(given).message, /empty/, given);
  }
});

Deno.test("a slug is cut to 60 characters, without a trailing hyphen", () => {
  assert.equal(
    imageName("a".repeat(100), SHA, "jpeg"),
    `${"a".repeat(60)}-${HASH}.jpg`,
  );
  // Twelve "uber-" make exactly 60 characters ending in a hyphen.
  assert.equal(
    imageName("über-".repeat(20), SHA, "jpeg"),
    `${"uber-".repeat(11)}uber-${HASH}.jpg`,
  );
  assert.equal(
    imageName(`${"b".repeat(59)} c`, SHA, "jpeg"),
    `${"b".repeat(59)}-${HASH}.jpg`,
  );
});

Deno.test("a name of 200 characters is accepted, 201 is refused", () => {
  assert.equal(UPLOAD_NAME_MAX, 200);
  assert.equal(
    imageName("x".repeat(200), SHA, "jpeg"),
    `${"x".repeat(60)}-${HASH}.jpg`,
  );
  assert.match(refused("x".repeat(201)).message, /200/);
  // Characters are code points: 200 emoji are 400 UTF-16 units.
  assert.equal(imageName(`${"🐱".repeat(199)}a`, SHA, "jpeg"), `a-${HASH}.jpg`);
  assert.match(refused("🐱".repeat(201)).message, /200/);
  // The length is checked before the extension is dropped.
  assert.match(refused(`${"x".repeat(197)}.jpg`).message, /200/);
});

Deno.test("a hash that is not 64 lowercase hex digits is a programming error", () => {
  for (
    const sha of ["", "abc", SHA.toUpperCase(), `${SHA}0`, `${SHA.slice(1)}g`]
  ) {
    assert.throws(() => imageName("x", sha, "jpeg"), TypeError);
  }
});

Deno.test("any name of at most 200 characters gives 400 or a safe name", () => {
  const names = fc.oneof(
    fc.string({ unit: "grapheme", maxLength: 200 }),
    fc.string({ unit: "binary", maxLength: 200 }),
    fc.string({
      unit: fc.constantFrom(".", "/", "\\", "-", "_", " ", "a", "É", "%", "J"),
      maxLength: 200,
    }),
  );
  const format = fc.constantFrom("jpeg", "png", "webp") as fc.Arbitrary<
    "jpeg" | "png" | "webp"
  >;
  const hex = fc.stringMatching(/^[0-9a-f]{64}$/);
  let named = 0;
  fc.assert(
    fc.property(names, hex, format, (given, sha, fmt) => {
      fc.pre([...given].length <= UPLOAD_NAME_MAX);
      let name: string;
      try {
        name = imageName(given, sha, fmt);
      } catch (thrown) {
        const error = answered(thrown);
        assert.ok(error instanceof HttpError);
        assert.equal(error.status, 400);
        return;
      }
      named++;
      assert.ok(isImageName(name), name);
      assert.ok(!name.startsWith("."), name);
      assert.ok(!name.includes("/"), name);
      assert.ok(
        name.endsWith(
          `-${sha.slice(0, 12)}.${
            { jpeg: "jpg", png: "png", webp: "webp" }[fmt]
          }`,
        ),
      );
      // The same input always gives the same name.
      assert.equal(imageName(given, sha, fmt), name);
    }),
    { numRuns: 3_000 },
  );
  assert.ok(named > 100, `${named} names`);
});
