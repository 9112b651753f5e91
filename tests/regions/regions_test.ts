import assert from "node:assert/strict";
import fc from "fast-check";
import {
  html,
  image,
  inpage,
  page,
  pointer,
  text,
  tokens,
} from "../../regions/mod.ts";

Deno.test("regions: each helper gives its one data attribute", () => {
  assert.deepEqual(page("src/content/pages/en/home.json"), {
    "data-inpage-page": "src/content/pages/en/home.json",
  });
  assert.deepEqual(text("/title"), { "data-inpage-text": "/title" });
  assert.deepEqual(html("/sections/0/body"), {
    "data-inpage-html": "/sections/0/body",
  });
  assert.deepEqual(image(["sections", 1, "image"]), {
    "data-inpage-image": "/sections/1/image",
  });
  assert.equal(inpage.text, text);
  assert.ok(Object.isFrozen(inpage));
});

Deno.test("regions: tokens are escaped per RFC 6901, ~ before /", () => {
  assert.equal(pointer([]), "");
  assert.equal(pointer([""]), "/");
  assert.equal(pointer(["a/b"]), "/a~1b");
  assert.equal(pointer(["m~n"]), "/m~0n");
  // "~1" as a key is a tilde then a one, not a slash.
  assert.equal(pointer(["~1"]), "/~01");
  assert.equal(pointer(["sections", 10, "héading"]), "/sections/10/héading");
  assert.deepEqual(text(["a/b", "~"]), { "data-inpage-text": "/a~1b/~0" });
});

Deno.test("regions: the RFC 6901 examples read back to their tokens", () => {
  // RFC 6901 section 5, the pointers into its example document.
  const cases: [string, string[]][] = [
    ["", []],
    ["/foo", ["foo"]],
    ["/foo/0", ["foo", "0"]],
    ["/", [""]],
    ["/a~1b", ["a/b"]],
    ["/c%d", ["c%d"]],
    ["/e^f", ["e^f"]],
    ["/g|h", ["g|h"]],
    ["/i\\j", ["i\\j"]],
    ['/k"l', ['k"l']],
    ["/ ", [" "]],
    ["/m~0n", ["m~n"]],
  ];
  for (const [written, expected] of cases) {
    assert.deepEqual(tokens(written), expected, written);
    assert.equal(pointer(expected), written);
  }
});

Deno.test("regions: any tokens round-trip through pointer and tokens", () => {
  fc.assert(
    fc.property(fc.array(fc.string({ unit: "grapheme-ascii" })), (list) => {
      const written = pointer(list);
      assert.deepEqual(tokens(written), list);
      assert.deepEqual(text(written), { "data-inpage-text": written });
    }),
    { numRuns: 500 },
  );
});

Deno.test("regions: malformed pointers and paths are refused", () => {
  for (const bad of ["title", "~0", "/a~", "/a~2", "/~x", "/a/~"]) {
    assert.throws(() => text(bad), TypeError, bad);
    assert.throws(() => html(bad), TypeError, bad);
    assert.throws(() => image(bad), TypeError, bad);
    assert.throws(() => tokens(bad), TypeError, bad);
  }
  for (const bad of [-1, 1.5, Number.NaN, Infinity, 2 ** 53]) {
    assert.throws(() => pointer(["sections", bad]), TypeError, String(bad));
  }
  for (
    const bad of [
      "",
      "/src/content/pages/en/home.json",
      "src/content/pages/../../secret.json",
      "src/content/pages/en/home.md",
    ]
  ) {
    assert.throws(() => page(bad), TypeError, bad);
  }
});
