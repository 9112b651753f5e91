import assert from "node:assert/strict";
import fc from "fast-check";
import { HttpError } from "../../lib/http/http_error.ts";
import { answered } from "../support/helpers.ts";
import { CORPORA, corpusFiles } from "../support/corpora.ts";
import { pageRules, sanitiseText } from "../../lib/pages/page_rules.ts";
import {
  PAGE_DEPTH_MAX,
  PAGE_KEY_MAX,
  PAGE_VALUES_MAX,
} from "../../lib/limits.ts";

const CONTENT_MAX = 100_000;

/** The pointer a page is refused at; fails when it is accepted. */
function refusedAt(content: string): string {
  try {
    pageRules(content);
  } catch (thrown) {
    const error = answered(thrown);
    assert.ok(error instanceof HttpError, String(error));
    assert.equal(error.status, 422);
    assert.equal(error.body.error, "invalid_content");
    assert.equal(typeof error.body.at, "string");
    return error.body.at as string;
  }
  assert.fail(`accepted: ${content.slice(0, 200)}`);
}

function page(value: unknown): string {
  return JSON.stringify(value);
}

/** Whether a page is accepted or refused with 422, in at most a second. */
function answers(content: string, name: string): "written" | "refused" {
  const start = performance.now();
  let answer: "written" | "refused";
  try {
    const written = pageRules(content);
    assert.equal(typeof written, "string");
    answer = "written";
  } catch (thrown) {
    const error = answered(thrown);
    assert.ok(
      error instanceof HttpError && error.status === 422,
      `${name}: ${error}`,
    );
    answer = "refused";
  }
  const elapsed = performance.now() - start;
  assert.ok(elapsed < 1000, `${name} took ${elapsed} ms`);
  return answer;
}

Deno.test("pageRules writes the page as indented JSON with a final line feed, unknown keys kept", () => {
  const content =
    '{"title":"Home","extra":{"anything":[1,2.5,true,null,"x"]},"n":-0}';
  assert.equal(
    pageRules(content),
    '{\n  "title": "Home",\n  "extra": {\n    "anything": [\n      1,\n' +
      '      2.5,\n      true,\n      null,\n      "x"\n    ]\n  },\n' +
      '  "n": 0\n}\n',
  );
  assert.equal(pageRules("{}"), "{}\n");
});

Deno.test("pageRules sanitises strings: surrogates, line ends, controls, then NFC", () => {
  const written = JSON.parse(pageRules(page({
    lone: "a\ud800b\udc00c",
    pair: "😀",
    lines: "a\r\nb\rc\nd",
    c0: "a\u0000b\u0001c\u001fd\te\nf\u000bg\u000ch",
    c1: "a\u007fb\u0080c\u009fd\u00a0e",
    nfc: "e\u0301 A\u030a \u212b",
  })));
  assert.deepEqual(written, {
    lone: "a\ufffdb\ufffdc",
    pair: "😀",
    lines: "a\nb\nc\nd",
    c0: "abcd\te\nfgh",
    c1: "abcd\u00a0e",
    nfc: "\u00e9 \u00c5 \u00c5",
  });
});

Deno.test("pageRules sanitises keys as well, and refuses a key that becomes empty", () => {
  assert.deepEqual(
    Object.keys(
      JSON.parse(pageRules(page({ "ti\u0000tle": 1, "e\u0301": 2 }))),
    ),
    ["title", "\u00e9"],
  );
  assert.equal(refusedAt(page({ "\u0001\u0002": 1 })), "/\u0001\u0002");
});

Deno.test("pageRules refuses text that is not JSON, at the root", () => {
  for (
    const content of [
      "",
      " ",
      "{",
      '{"a":1,}',
      "{'a':1}",
      "\ufeff{}",
      "NaN",
      '{"a":01}',
    ]
  ) {
    assert.equal(refusedAt(content), "", JSON.stringify(content));
  }
});

Deno.test("pageRules refuses a top level that is not an object, at the root", () => {
  for (const content of ["[]", "[{}]", '"page"', "1", "true", "null"]) {
    assert.equal(refusedAt(content), "", content);
  }
});

Deno.test("pageRules accepts 32 levels of nesting and refuses 33 with a pointer to the 33rd", () => {
  const nested = (depth: number): string =>
    '{"a":'.repeat(depth - 1) + "{}" + "}".repeat(depth - 1);
  assert.equal(PAGE_DEPTH_MAX, 32);
  assert.equal(typeof pageRules(nested(32)), "string");
  assert.equal(refusedAt(nested(33)), "/a".repeat(32));
  const arrays = '{"a":' + "[".repeat(31) + "]".repeat(31) + "}";
  assert.equal(typeof pageRules(arrays), "string");
  const deeper = '{"a":' + "[".repeat(32) + "]".repeat(32) + "}";
  assert.equal(refusedAt(deeper), "/a" + "/0".repeat(31));
});

Deno.test("pageRules refuses 50,000 levels of nesting fast and without a stack overflow", () => {
  const levels = 49_990;
  const content = '{"a":' + "[".repeat(levels) + "]".repeat(levels) + "}";
  assert.ok(content.length <= CONTENT_MAX);
  const start = performance.now();
  assert.equal(refusedAt(content), "/a" + "/0".repeat(31));
  assert.ok(performance.now() - start < 500);
  const objects = '{"a":'.repeat(16_000) + "1" + "}".repeat(16_000);
  assert.equal(refusedAt(objects), "/a".repeat(32));
});

Deno.test("pageRules accepts 20,000 values and refuses the 20,001st", () => {
  assert.equal(PAGE_VALUES_MAX, 20_000);
  // The top level and the array count: 19,998 items make 20,000 values.
  const items = (count: number) => page({ items: new Array(count).fill(0) });
  assert.equal(typeof pageRules(items(19_998)), "string");
  assert.equal(refusedAt(items(19_999)), "/items/19998");
  const keys = Object.fromEntries(
    Array.from({ length: 20_000 }, (_, index) => [`k${index}`, index]),
  );
  assert.equal(refusedAt(page(keys)), "/k19999");
});

// Not a timing assertion: a check of duplicate ids that compared every pair
// would take about 10^10 steps here, minutes rather than the milliseconds the
// linear check takes (bench/page_rules_bench.ts measures it); the bound only
// tells the two apart, whatever the machine's load.
Deno.test("pageRules refuses a page with 100,000 ids without comparing every pair", () => {
  const sections = Array.from(
    { length: 100_000 },
    (_, index) => ({ id: `s${index}` }),
  );
  const start = performance.now();
  const at = refusedAt(page({ sections }));
  assert.ok(performance.now() - start < 30_000);
  assert.match(at, /^\/sections\/\d+/);
});

Deno.test("pageRules accepts keys of 1 to 64 characters and refuses longer ones", () => {
  assert.equal(PAGE_KEY_MAX, 64);
  const k64 = "k".repeat(64);
  const emoji64 = "😀".repeat(64);
  assert.equal(typeof pageRules(page({ [k64]: 1, [emoji64]: 2 })), "string");
  assert.equal(
    refusedAt(page({ a: { ["k".repeat(65)]: 1 } })),
    `/a/${"k".repeat(65)}`,
  );
  assert.equal(refusedAt(page({ a: { "": 1 } })), "/a/");
});

Deno.test("pageRules refuses __proto__, constructor and prototype keys, even once sanitised", () => {
  assert.equal(
    refusedAt('{"a":{"__proto__":{"polluted":true}}}'),
    "/a/__proto__",
  );
  assert.equal(refusedAt('{"constructor":{"prototype":{}}}'), "/constructor");
  assert.equal(refusedAt('{"x":[{"prototype":1}]}'), "/x/0/prototype");
  assert.equal(refusedAt('{"__proto__\\u0000":{}}'), "/__proto__\u0000");
  assert.equal(({} as Record<string, unknown>).polluted, undefined);
});

Deno.test("pageRules refuses two keys that become equal once sanitised, at the second as submitted", () => {
  assert.equal(refusedAt('{"o":{"ab":1,"a\\u0000b":2}}'), "/o/a\u0000b");
  assert.equal(refusedAt('{"e\\u0301":1,"\\u00e9":2}'), "/\u00e9");
});

Deno.test("pageRules refuses a key written twice, which JSON.parse would merge", () => {
  assert.equal(refusedAt('{"a":1,"a":2}'), "/a");
  assert.equal(refusedAt('{"s":[{"x":"a:b","y":{"k":1,"k":1}}]}'), "/s/0/y/k");
  assert.equal(refusedAt('{"a\\"b":1,"a\\u0022b":2}'), '/a"b');
});

Deno.test("pageRules builds pointers from submitted keys with ~ and / escaped", () => {
  assert.equal(
    refusedAt('{"a/b":{"c~d":{"x":1e999}}}'),
    "/a~1b/c~0d/x",
  );
  assert.equal(refusedAt('{"a/b":{"~1":"<script>"}}'), "/a~1b/~01");
});

Deno.test("pageRules accepts ids unique in the file and refuses a duplicate id with a pointer to the second one", () => {
  const ok = page({
    id: "page",
    sections: [{ id: "intro" }, { id: "Intro_2" }, { nested: { id: "a-b" } }],
  });
  assert.equal(typeof pageRules(ok), "string");
  assert.equal(
    refusedAt(page({ sections: [{ id: "intro" }, { x: { id: "intro" } }] })),
    "/sections/1/x/id",
  );
});

Deno.test("pageRules refuses an id that is not a short identifier", () => {
  for (
    const id of [
      "",
      "-a",
      "_a",
      "a b",
      "a.b",
      "é",
      "a".repeat(65),
      1,
      null,
      true,
      ["a"],
      { a: 1 },
    ]
  ) {
    assert.equal(refusedAt(page({ s: { id } })), "/s/id", JSON.stringify(id));
  }
  assert.equal(typeof pageRules(page({ id: "a".repeat(64) })), "string");
});

Deno.test("pageRules refuses a link outside the whitelist wherever it is", () => {
  assert.equal(
    typeof pageRules(page({ a: [{ href: "/about" }, { href: "#x" }] })),
    "string",
  );
  assert.equal(
    refusedAt(
      page({ a: [{ href: "/about" }, { href: "javascript:alert(1)" }] }),
    ),
    "/a/1/href",
  );
  assert.equal(
    refusedAt(page({ deep: { x: { href: "//evil.example" } } })),
    "/deep/x/href",
  );
  assert.equal(refusedAt(page({ href: 1 })), "/href");
  assert.equal(refusedAt(page({ href: ["/x"] })), "/href");
  assert.equal(refusedAt(page({ "hr\u0000ef": "data:x" })), "/hr\u0000ef");
});

Deno.test("pageRules checks media: image name, width and height from 1 to 10,000, plain alt", () => {
  const image = {
    src: "bowl-1.webp",
    width: 1,
    height: 10_000,
    alt: "A bowl & a cup",
  };
  assert.equal(
    typeof pageRules(page({ hero: image, list: [image] })),
    "string",
  );
  for (
    const [field, value] of [
      ["src", "bowl.svg"],
      ["src", "Bowl.jpg"],
      ["src", "../bowl.jpg"],
      ["src", "a".repeat(97) + ".jpg"],
      ["src", "https://example.org/a.jpg"],
      ["src", 1],
      ["width", 0],
      ["width", 10_001],
      ["width", 1.5],
      ["width", "100"],
      ["height", -1],
      ["height", null],
      ["alt", "<b>bowl</b>"],
      ["alt", "a &amp; b"],
      ["alt", "a > b"],
      ["alt", 1],
    ] as const
  ) {
    assert.equal(
      refusedAt(page({ list: [image, { ...image, [field]: value }] })),
      `/list/1/${field}`,
      `${field}: ${JSON.stringify(value)}`,
    );
  }
});

Deno.test("pageRules applies the media rule only to objects with a src", () => {
  assert.equal(
    typeof pageRules(page({ box: { width: 0, alt: "<b>x</b>" } })),
    "string",
  );
  assert.equal(
    refusedAt(page({ box: { "s\u0000rc": "x.gif" } })),
    "/box/s\u0000rc",
  );
});

Deno.test("pageRules refuses hostile markup in any string, keys included", () => {
  assert.equal(
    typeof pageRules(
      page({ body: 'Hi <a href="/x" title="X">x</a><br>&amp;' }),
    ),
    "string",
  );
  assert.equal(
    refusedAt(page({ a: ["ok", "<img src=x onerror=alert(1)>"] })),
    "/a/1",
  );
  assert.equal(refusedAt(page({ a: { "<b>": 1 } })), "/a/<b>");
  assert.equal(refusedAt(page({ a: "<b>unclosed" })), "/a");
  // A control character cannot split a tag name to slip one through.
  assert.equal(refusedAt(page({ a: "<scr\u0000ipt>" })), "/a");
});

Deno.test("pageRules refuses a number too large to write, such as 1e999", () => {
  assert.equal(refusedAt('{"a":[1,1e999]}'), "/a/1");
  assert.equal(refusedAt('{"a":-1e999}'), "/a");
  assert.equal(pageRules('{"a":1e308}'), '{\n  "a": 1e+308\n}\n');
  // Underflow changes the value too: 1e-999 would be written as 0.
  assert.equal(refusedAt('{"a":1e308,"b":1e-999}'), "/b");
});

Deno.test("pageRules answers every JSONTestSuite parsing file with text or 422 within a second, and every n_ file with 422", async () => {
  const counts = { written: 0, refused: 0 };
  for await (const { name, text } of corpusFiles("json/test_parsing/")) {
    const answer = answers(text, name);
    counts[answer]++;
    if (name.startsWith("n_")) {
      assert.equal(answer, "refused", name);
    }
  }
  assert.equal(counts.written + counts.refused, 318);
});

Deno.test("pageRules answers every JSONTestSuite transform file with text or 422", async () => {
  for await (const { name, text } of corpusFiles("json/test_transform/")) {
    answers(text, name);
  }
  const nfc = await Deno.readTextFile(
    new URL("json/test_transform/object_key_nfc_nfd.json", CORPORA),
  );
  assert.equal(refusedAt(nfc), "/e\u0301");
});

// Property tests.

const anyText = fc.string({ unit: "binary", maxLength: 20 });
const pageValue =
  fc.letrec<{ value: unknown; object: Record<string, unknown> }>((tie) => ({
    value: fc.oneof(
      { depthSize: "small", withCrossShrink: true },
      anyText,
      fc.constantFrom(
        'Hello <b>bold</b> &amp; <a href="/x">link</a>',
        "a\r\nb",
        "e\u0301",
      ),
      fc.double({ noNaN: true, noDefaultInfinity: true }),
      fc.integer(),
      fc.boolean(),
      fc.constant(null),
      fc.array(tie("value"), { maxLength: 4 }),
      tie("object"),
    ),
    object: fc.dictionary(anyText, tie("value"), { maxKeys: 4 }),
  })).object;

// deno-lint-ignore no-control-regex
const FORBIDDEN_CONTROL = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f\r]/;

function everyString(value: unknown, visit: (text: string) => void): void {
  const stack = [value];
  while (stack.length > 0) {
    const next = stack.pop();
    if (typeof next === "string") visit(next);
    else if (Array.isArray(next)) stack.push(...next);
    else if (next !== null && typeof next === "object") {
      for (const [key, child] of Object.entries(next)) {
        visit(key);
        stack.push(child);
      }
    }
  }
}

Deno.test("pageRules writes strings without C0 or C1 controls but tab and newline, well formed and NFC", () => {
  fc.assert(
    fc.property(pageValue, (value) => {
      let written: string;
      try {
        written = pageRules(JSON.stringify(value));
      } catch (thrown) {
        const error = answered(thrown);
        assert.ok(
          error instanceof HttpError && error.status === 422,
          String(error),
        );
        return;
      }
      const parsed = JSON.parse(written);
      assert.equal(typeof parsed, "object");
      assert.ok(!Array.isArray(parsed) && parsed !== null);
      assert.ok(written.endsWith("}\n"));
      everyString(parsed, (text) => {
        assert.doesNotMatch(text, FORBIDDEN_CONTROL);
        assert.ok(text.isWellFormed());
        assert.equal(text, text.normalize("NFC"));
      });
    }),
    { numRuns: 1000 },
  );
});

Deno.test("pageRules is idempotent: what it writes it writes again unchanged", () => {
  fc.assert(
    fc.property(pageValue, (value) => {
      let written: string;
      try {
        written = pageRules(JSON.stringify(value));
      } catch {
        return;
      }
      assert.equal(pageRules(written), written);
    }),
    { numRuns: 1000 },
  );
});

Deno.test("pageRules throws nothing but a 422 for any text", () => {
  fc.assert(
    fc.property(
      fc.oneof(
        fc.string({ unit: "binary", maxLength: 60 }),
        fc.json(),
        pageValue.map((v) => JSON.stringify(v)),
      ),
      (content) => {
        answers(content, JSON.stringify(content));
      },
    ),
    { numRuns: 2000 },
  );
});

Deno.test("sanitiseText is idempotent and keeps text that needs nothing", () => {
  fc.assert(
    fc.property(fc.string({ unit: "binary", maxLength: 40 }), (text) => {
      const clean = sanitiseText(text);
      assert.equal(sanitiseText(clean), clean);
      assert.doesNotMatch(clean, FORBIDDEN_CONTROL);
    }),
    { numRuns: 3000 },
  );
  fc.assert(
    fc.property(fc.string({ unit: "grapheme-ascii" }), (text) => {
      if (!FORBIDDEN_CONTROL.test(text)) assert.equal(sanitiseText(text), text);
    }),
  );
});

Deno.test("pageRules writes renamed objects where they were, whatever their depth, with integer names first", () => {
  const content = '{"b":1,"1\\u0000":{"x\\u0001":"y\\r\\n","z":[{"q\\u0002":' +
    '"e\\u0301"},"\\u0007a"]},"a":["<b>x</b>\\r",{"e\\u0301":{"\\u00e9\\u0000x":1}}]}';
  assert.equal(
    pageRules(content),
    '{\n  "1": {\n    "x": "y\\n",\n    "z": [\n      {\n        "q": "é"\n' +
      '      },\n      "a"\n    ]\n  },\n  "b": 1,\n  "a": [\n' +
      '    "<b>x</b>\\n",\n    {\n      "é": {\n        "éx": 1\n      }\n' +
      "    }\n  ]\n}\n",
  );
});

Deno.test("pageRules tells a key written twice from a `:` written as an escape", () => {
  assert.equal(refusedAt('{"a":1,"a":2,"b":"\\u003a"}'), "/a");
  assert.equal(refusedAt('{"b":"\\u003A","a":{"x":"\\u003a"},"a":1}'), "/a");
  assert.equal(refusedAt('{"k:1":"a:b","k:1":"c"}'), "/k:1");
  assert.equal(refusedAt('{"x":"a:b:c","x":"d"}'), "/x");
  assert.equal(refusedAt('{"\\u003a":1,":":2}'), "/:");
  assert.equal(refusedAt('{"s":[{"t":"\\u003a:"},{"u":1,"u":2}]}'), "/s/1/u");
  assert.deepEqual(
    JSON.parse(pageRules('{"b":"\\u003a","c":{"d\\u003a":"x\\u003Ay:"}}')),
    { b: ":", c: { "d:": "x:y:" } },
  );
});

/** JSON text for an object written as members, keys possibly twice. */
interface Written {
  readonly members: readonly (readonly [string, WrittenValue])[];
}
type WrittenValue = string | number | Written | WrittenValue[];

function isWritten(value: WrittenValue): value is Written {
  return typeof value === "object" && !Array.isArray(value);
}

function writeJson(value: WrittenValue, escapes: () => boolean): string {
  const text = (raw: string): string => {
    const json = JSON.stringify(raw);
    return escapes() ? json.replaceAll(":", "\\u003a") : json;
  };
  if (typeof value === "string") return text(value);
  if (typeof value === "number") return String(value);
  if (Array.isArray(value)) {
    return `[${value.map((item) => writeJson(item, escapes)).join(",")}]`;
  }
  return `{${
    value.members.map(([key, item]) =>
      `${text(key)}:${writeJson(item, escapes)}`
    )
      .join(",")
  }}`;
}

/** The pointer to the first key written twice, in document order. */
function firstDuplicate(value: WrittenValue, at = ""): string | undefined {
  if (Array.isArray(value)) {
    for (const [index, item] of value.entries()) {
      const found = firstDuplicate(item, `${at}/${index}`);
      if (found !== undefined) return found;
    }
  } else if (isWritten(value)) {
    const seen = new Set<string>();
    for (const [key, item] of value.members) {
      const token = key.replaceAll("~", "~0").replaceAll("/", "~1");
      if (seen.has(key)) return `${at}/${token}`;
      seen.add(key);
      const found = firstDuplicate(item, `${at}/${token}`);
      if (found !== undefined) return found;
    }
  }
  return undefined;
}

Deno.test("pageRules refuses a page exactly when a key is written twice, wherever `:` are and however written", () => {
  const key = fc.constantFrom("a", "b", ":", "a:b", "::", "k/1", "~");
  const written = fc.letrec<{ value: WrittenValue; object: Written }>((
    tie,
  ) => ({
    value: fc.oneof(
      { depthSize: "small", withCrossShrink: true },
      fc.constantFrom("x", ":", "a:b", "http://x", "::"),
      fc.integer(),
      fc.array(tie("value"), { maxLength: 3 }),
      tie("object"),
    ),
    object: fc.array(fc.tuple(key, tie("value")), { maxLength: 4 }).map((
      members,
    ) => ({ members })),
  })).object;
  let refused = 0;
  fc.assert(
    fc.property(written, fc.infiniteStream(fc.boolean()), (page, coins) => {
      const content = writeJson(page, () => coins.next().value as boolean);
      const duplicate = firstDuplicate(page);
      if (duplicate === undefined) {
        assert.deepEqual(JSON.parse(pageRules(content)), JSON.parse(content));
      } else {
        refused++;
        assert.equal(refusedAt(content), duplicate, content);
      }
    }),
    { numRuns: 3000 },
  );
  assert.ok(refused > 300, `only ${refused} pages with a key written twice`);
});
