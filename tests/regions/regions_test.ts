import assert from "node:assert/strict";
import fc from "fast-check";
import {
  fields,
  html,
  image,
  inpage,
  item,
  link,
  list,
  markdown,
  page,
  pointer,
  template,
  text,
  tokens,
} from "../../regions/mod.ts";
import { INPAGE_ATTRIBUTES } from "../../lib/wire/names.ts";

Deno.test("regions: each helper gives its one data attribute", () => {
  assert.deepEqual(page("src/content/pages/en/home.json"), {
    "data-inpage-page": "src/content/pages/en/home.json",
  });
  assert.deepEqual(text("/title"), { "data-inpage-text": "/title" });
  assert.deepEqual(html("/sections/0/body"), {
    "data-inpage-html": "/sections/0/body",
  });
  assert.deepEqual(markdown(["posts", 0, "body"]), {
    "data-inpage-markdown": "/posts/0/body",
  });
  assert.throws(() => markdown("body"), TypeError);
  assert.equal(inpage.markdown, markdown);
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

Deno.test("regions: list, item, link, template and fields give their attributes", () => {
  assert.deepEqual(list("/sections"), { "data-inpage-list": "/sections" });
  assert.deepEqual(list(["a/b"]), { "data-inpage-list": "/a~1b" });
  assert.deepEqual(item(["sections", 2]), {
    "data-inpage-item": "/sections/2",
  });
  assert.deepEqual(item("/nav/10"), { "data-inpage-item": "/nav/10" });
  assert.deepEqual(link(["nav", 0, "link"]), {
    "data-inpage-link": "/nav/0/link",
  });
  assert.deepEqual(
    template("/sections", { id: "new", heading: 'Say "hi" & <go>' }),
    {
      "data-inpage-template": "/sections",
      "data-inpage-default": '{"id":"new","heading":"Say \\"hi\\" & <go>"}',
    },
  );
  assert.deepEqual(
    JSON.parse(template(["m~n"], [1, null, true])["data-inpage-default"]),
    [1, null, true],
  );
  assert.deepEqual(fields(["/description", ["seo", "a/b"], "/date"]), {
    "data-inpage-fields": "/description /seo/a~1b /date",
  });
  assert.deepEqual(fields([]), { "data-inpage-fields": "" });
  for (
    const helper of ["link", "list", "item", "template", "fields"] as const
  ) {
    assert.equal(
      inpage[helper],
      { link, list, item, template, fields }[helper],
    );
  }
});

Deno.test("regions: every attribute name comes from the shared names", () => {
  const made = {
    ...page("src/content/pages/en/home.json"),
    ...text("/t"),
    ...html("/h"),
    ...image("/i"),
    ...link("/l"),
    ...list("/s"),
    ...item("/s/0"),
    ...template("/s", {}),
    ...fields(["/d"]),
  };
  const shared: string[] = Object.values(INPAGE_ATTRIBUTES);
  for (const name of Object.keys(made)) assert.ok(shared.includes(name), name);
  assert.equal(Object.keys(made).length, 10);
});

Deno.test("regions: a bad item, template or field is refused", () => {
  for (
    const bad of [
      "/sections",
      "/sections/01",
      "/sections/-1",
      "/sections/-",
      "",
    ]
  ) {
    assert.throws(() => item(bad), TypeError, bad);
  }
  assert.throws(() => item(["sections", "x"]), TypeError);
  for (const bad of ["title", "/a~2"]) {
    assert.throws(() => list(bad), TypeError, bad);
    assert.throws(() => link(bad), TypeError, bad);
    assert.throws(() => template(bad, {}), TypeError, bad);
    assert.throws(() => fields([bad]), TypeError, bad);
  }
  const cyclic: Record<string, unknown> = {};
  cyclic.self = cyclic;
  const notJson = [
    undefined,
    () => 1,
    Number.NaN,
    Infinity,
    1n,
    new Date(),
    {
      a: undefined,
    },
    [Symbol()],
    cyclic,
  ];
  notJson.forEach((bad, index) => {
    assert.throws(() => template("/sections", bad), TypeError, `#${index}`);
  });
  for (const bad of ["", "/a b", "/a\tb", ["a b"]]) {
    assert.throws(() => fields([bad]), TypeError, String(bad));
  }
});

Deno.test("regions: an item pointer is any pointer that ends in an index", () => {
  fc.assert(
    fc.property(
      fc.array(fc.string({ unit: "grapheme-ascii" }), { maxLength: 4 }),
      fc.nat(),
      (keys, index) => {
        const at = pointer([...keys, index]);
        assert.deepEqual(item(at), { "data-inpage-item": at });
        assert.deepEqual(tokens(at), [...keys, String(index)]);
      },
    ),
    { numRuns: 300 },
  );
});
