import assert from "node:assert/strict";
import fc from "fast-check";
import { Parser } from "htmlparser2";
import { type DefaultTreeAdapterTypes, parseFragment } from "parse5";
import { isSafeLink } from "../lib/link_rule.ts";
import {
  isPlainText,
  isSafeMarkup,
  markupFailure,
} from "../lib/markup_rule.ts";

const CORPORA = new URL("../../shared/corpora/", import.meta.url);
const ALLOWED_TAGS = new Set([
  "a",
  "b",
  "strong",
  "i",
  "em",
  "u",
  "s",
  "small",
  "sub",
  "sup",
  "br",
  "p",
  "ul",
  "ol",
  "li",
]);

const RICH_TEXT = 'Hello <strong>world</strong>, see <a href="/about" ' +
  'title="About">us</a>.<br>Line two &amp; more';

/** The tags and attributes htmlparser2, a second parser, reads in a string. */
function secondParserEvents(text: string): string[] {
  const events: string[] = [];
  const parser = new Parser({
    onopentag(name, attributes) {
      const attrs = Object.entries(attributes)
        .map(([key, value]) => ` ${key}=${JSON.stringify(value)}`).join("");
      events.push(`<${name}${attrs}>`);
    },
    onclosetag(name, implied) {
      if (!(implied && name === "br")) events.push(`</${name}>`);
    },
    oncomment() {
      events.push("comment");
    },
    oncdatastart() {
      events.push("cdata");
    },
    onprocessinginstruction(name) {
      events.push(`pi ${name}`);
    },
  }, { decodeEntities: true });
  parser.write(text);
  parser.end();
  return events;
}

/** The tags and attributes of the tree parse5's tree builder makes. */
function treeEvents(text: string): string[] {
  const events: string[] = [];
  const walk = (node: DefaultTreeAdapterTypes.ParentNode): void => {
    for (const child of node.childNodes) {
      if (child.nodeName === "#comment") events.push("comment");
      if (!("tagName" in child)) continue;
      const attrs = child.attrs
        .map(({ name, value }) => ` ${name}=${JSON.stringify(value)}`).join("");
      events.push(`<${child.tagName}${attrs}>`);
      walk(child);
      if (child.tagName !== "br") events.push(`</${child.tagName}>`);
    }
  };
  walk(parseFragment(text));
  return events;
}

/** What a browser would show as text, per parse5's tree builder. */
function treeText(text: string): string {
  let shown = "";
  const walk = (node: DefaultTreeAdapterTypes.ParentNode): void => {
    for (const child of node.childNodes) {
      if ("value" in child) shown += child.value;
      else if ("childNodes" in child) walk(child);
    }
  };
  walk(parseFragment(text));
  return shown;
}

/** Whether every tag and attribute htmlparser2 reads is in the allowlist. */
function secondParserSeesOnlyAllowed(text: string): boolean {
  let allowed = true;
  const parser = new Parser({
    onopentag(name, attributes) {
      if (!ALLOWED_TAGS.has(name)) allowed = false;
      for (const [key, value] of Object.entries(attributes)) {
        if (name !== "a") allowed = false;
        else if (key === "href") allowed &&= isSafeLink(value);
        else if (key !== "title") allowed = false;
      }
    },
    onclosetag(name) {
      if (!ALLOWED_TAGS.has(name)) allowed = false;
    },
    oncomment() {
      allowed = false;
    },
    oncdatastart() {
      allowed = false;
    },
    onprocessinginstruction() {
      allowed = false;
    },
  }, { decodeEntities: true });
  parser.write(text);
  parser.end();
  return allowed;
}

// Generators of accepted rich text.
const words = fc.array(
  fc.constantFrom(
    "Hello",
    " ",
    "world",
    "&amp;",
    "&lt;",
    "&gt;",
    "&quot;",
    "&#169;",
    "&#x2014;",
    "&nbsp;",
    ">",
    "é",
    "\n",
    "\t",
    "Tom & Jerry",
    '"quoted"',
    "it's",
    "5 > 3",
    "AT&T",
    "😀",
  ),
  { maxLength: 4 },
).map((parts) => parts.join(""));
const hrefs = fc.constantFrom(
  "/about",
  "#top",
  "https://example.org/a?b=1&amp;c=2",
  "http://example.org",
  "mailto:hello@example.org",
  "tel:+33123456789",
);
const titles = fc.constantFrom(
  "About",
  "Tom &amp; Jerry",
  "say &quot;hi&quot;",
  "",
  "l'été",
);
const inlineNames = fc.constantFrom(
  "b",
  "strong",
  "i",
  "em",
  "u",
  "s",
  "small",
  "sub",
  "sup",
);
const anchorOpen = fc.tuple(fc.option(hrefs), fc.option(titles)).map(
  ([href, title]) =>
    `<a${href === null ? "" : ` href="${href}"`}${
      title === null ? "" : ` title="${title}"`
    }>`,
);
const markup = fc.letrec<{
  phrasing: string;
  phrasingNoAnchor: string;
  flow: string;
  list: string;
  page: string;
}>((tie) => ({
  phrasingNoAnchor: fc.oneof(
    { depthSize: "small", withCrossShrink: true },
    words,
    fc.constant("<br>"),
    fc.tuple(inlineNames, fc.array(tie("phrasingNoAnchor"), { maxLength: 3 }))
      .map(([name, kids]) => `<${name}>${kids.join("")}</${name}>`),
  ),
  phrasing: fc.oneof(
    { depthSize: "small", withCrossShrink: true },
    tie("phrasingNoAnchor"),
    fc.tuple(anchorOpen, fc.array(tie("phrasingNoAnchor"), { maxLength: 3 }))
      .map(([open, kids]) => `${open}${kids.join("")}</a>`),
    fc.tuple(inlineNames, fc.array(tie("phrasing"), { maxLength: 3 }))
      .map(([name, kids]) => `<${name}>${kids.join("")}</${name}>`),
  ),
  list: fc.tuple(
    fc.constantFrom("ul", "ol"),
    fc.array(
      fc.tuple(
        fc.constantFrom("", "\n", "  "),
        fc.array(tie("flow"), { maxLength: 3 }),
      ).map(([space, kids]) => `${space}<li>${kids.join("")}</li>`),
      { maxLength: 3 },
    ),
  ).map(([name, items]) => `<${name}>${items.join("")}</${name}>`),
  flow: fc.oneof(
    { depthSize: "small", withCrossShrink: true },
    tie("phrasing"),
    fc.array(tie("phrasing"), { maxLength: 3 }).map((kids) =>
      `<p>${kids.join("")}</p>`
    ),
    tie("list"),
  ),
  page: fc.array(tie("flow"), { maxLength: 5 }).map((kids) => kids.join("")),
})).page;

/** One random edit with characters that matter to HTML. */
const hostileEdit = fc.tuple(
  fc.nat(),
  fc.nat(3),
  fc.constantFrom(
    "<",
    ">",
    "/",
    "=",
    '"',
    "'",
    "`",
    " ",
    "!",
    "-",
    "?",
    "&",
    ";",
    "#",
    "\u0000",
    "\f",
    "<script>",
    "</",
    "<!--",
    "-->",
    "<![CDATA[",
    "<svg>",
    "<img src=x onerror=alert(1)>",
    " onclick=alert(1)",
    "<a href=javascript:alert(1)>",
    "<style>",
    "</p>",
    "<p>",
    "<li>",
    "</li>",
    "<a>",
    "</b>",
    "<br/>",
    "</br>",
    "&#0;",
    "&lt",
    "&copy",
  ),
);

function applyEdit(
  text: string,
  [at, remove, insert]: [number, number, string],
): string {
  const index = text.length === 0 ? 0 : at % (text.length + 1);
  return text.slice(0, index) + insert + text.slice(index + remove);
}

Deno.test("isSafeMarkup accepts ordinary rich text", () => {
  assert.equal(markupFailure(RICH_TEXT), undefined);
  for (
    const text of [
      "",
      "Plain text",
      "Tom & Jerry, 5 > 3, AT&T, 100 %",
      "&amp; &lt; &gt; &quot; &#169; &#x2014; &nbsp; &eacute;",
      "<p>One</p><p>Two <em>and</em> <sub>2</sub><sup>3</sup></p>",
      "<ul>\n  <li>One</li>\n  <li>Two <ol><li><p>Deep</p></li></ol></li>\n</ul>",
      "<b><i><u><s><small>nested</small></s></u></i></b>",
      '<a href="https://example.org/a?b=1&amp;c=2" title="Tom &amp; Jerry">x</a>',
      '<a title="" href="#top">top</a>',
      "<a>no target</a>",
      "<b><b><b><b><b>five</b></b></b></b></b>",
      "line<br>line<br><br>",
      "😀 <strong>emoji</strong> é\u0301",
    ]
  ) {
    assert.equal(markupFailure(text), undefined, text);
  }
});

Deno.test("isSafeMarkup refuses tags and attributes outside the allowlist", () => {
  for (
    const text of [
      "<script>alert(1)</script>",
      "<img src=x onerror=alert(1)>",
      "<div>x</div>",
      "<span>x</span>",
      "<svg><a href=/x>x</a></svg>",
      "<math>x</math>",
      "<style>*{}</style>",
      "<iframe></iframe>",
      '<b onclick="alert(1)">x</b>',
      '<b title="x">x</b>',
      '<p title="x">x</p>',
      '<a id="x">x</a>',
      '<a href="/x" target="_blank">x</a>',
      '<a style="color:red">x</a>',
      '<a href="javascript:alert(1)">x</a>',
      '<a href="&#106;avascript:alert(1)">x</a>',
      '<a href="java&#x09;script:alert(1)">x</a>',
      '<a href="//evil.example">x</a>',
      '<a href="">x</a>',
      '<a href="/x" href="/y">x</a>',
      '<a title="a" title="b">x</a>',
    ]
  ) {
    assert.equal(isSafeMarkup(text), false, text);
  }
});

Deno.test("isSafeMarkup refuses comments, doctypes, CDATA and processing instructions", () => {
  for (
    const text of [
      "<!-- x -->",
      "a<!---->b",
      "<!doctype html>",
      "<![CDATA[x]]>",
      "<?xml version='1.0'?>",
      "<!x>",
      "</ x>",
    ]
  ) {
    assert.equal(isSafeMarkup(text), false, text);
  }
});

Deno.test("isSafeMarkup refuses tags not written in their serialised form", () => {
  for (
    const text of [
      "<br/>",
      "<br />",
      "<b/>x",
      "<B>x</B>",
      "<b >x</b>",
      "<b>x</b >",
      "<b>x</B>",
      "<a href=/x>x</a>",
      "<a href='/x'>x</a>",
      '<a  href="/x">x</a>',
      '<a\thref="/x">x</a>',
      '<a\nhref="/x">x</a>',
      '<a href = "/x">x</a>',
      '<a href="/x"title="t">x</a>',
      '<a href="/x" >x</a>',
      '<a title="a>b">x</a>',
      '<a title="a<b">x</a>',
      "<a title>x</a>",
      '<a title="">x</a/>',
    ]
  ) {
    assert.equal(isSafeMarkup(text), false, text);
  }
});

Deno.test("isSafeMarkup refuses misnested, unclosed and stray tags", () => {
  for (
    const text of [
      "<b>x",
      "x</b>",
      "</br>",
      "<br></br>",
      "<b><i>x</b></i>",
      "<p>x",
      "<p><p>x</p></p>",
      "<p><ul><li>x</li></ul></p>",
      "<b><p>x</p></b>",
      "<li>x</li>",
      "<ul>x</ul>",
      "<ul><b>x</b></ul>",
      "<ul><li>x</li>",
      "<ol><li><li>x</li></li></ol>",
      "<a><a>x</a></a>",
      "<a><b><a>x</a></b></a>",
      "<p><li>x</li></p>",
    ]
  ) {
    assert.equal(isSafeMarkup(text), false, text);
  }
});

Deno.test("isSafeMarkup refuses a < that does not open a complete tag", () => {
  for (
    const text of [
      "a < b",
      "<3",
      "<",
      "a<",
      "<b",
      '<a href="/x"',
      "<a title='x",
      "</",
      "</>",
      "<>",
    ]
  ) {
    assert.equal(isSafeMarkup(text), false, text);
  }
});

Deno.test("isSafeMarkup refuses character references a browser would repair", () => {
  for (
    const text of [
      "&copy 2024",
      "&lt",
      "&foo;",
      "&#0;",
      "&#x80;",
      "&#xD800;",
      "&#x110000;",
      "&#1;",
      "&#;",
      "&#x;",
      "x\u0000y<b>",
    ]
  ) {
    assert.equal(isSafeMarkup(text), false, JSON.stringify(text));
  }
});

Deno.test("isSafeMarkup refuses every DOMPurify corpus payload whose output differs from it", async () => {
  const corpus = JSON.parse(
    await Deno.readTextFile(new URL("xss/dompurify.json", CORPORA)),
  ) as { payload: string; expected: string | string[] }[];
  assert.equal(corpus.length, 223);
  let differ = 0;
  let refused = 0;
  for (const { payload, expected } of corpus) {
    const outputs = Array.isArray(expected) ? expected : [expected];
    if (outputs.includes(payload)) continue;
    differ++;
    if (!isSafeMarkup(payload)) refused++;
    else assert.fail(`accepted: ${payload}`);
  }
  assert.equal(differ, 210);
  assert.equal(refused, differ);
});

Deno.test("isSafeMarkup leaves nothing outside the allowlist in any PayloadsAllTheThings line, per htmlparser2", async () => {
  const folder = new URL("xss/payloadsallthethings/", CORPORA);
  let lines = 0;
  const acceptedTags: string[] = [];
  for await (const entry of Deno.readDir(folder)) {
    const text = await Deno.readTextFile(
      new URL(encodeURIComponent(entry.name), folder),
    );
    for (const line of text.split("\n")) {
      lines++;
      if (!isSafeMarkup(line)) continue;
      assert.ok(secondParserSeesOnlyAllowed(line), line);
      assert.deepEqual(treeEvents(line), secondParserEvents(line), line);
      if (line.includes("<")) acceptedTags.push(line);
    }
  }
  assert.equal(lines, 2723);
  // What passes is text (entities, script-looking words): the one line
  // holding a tag is a lone, harmless `<br>`.
  assert.deepEqual(acceptedTags, ["<br>"]);
});

Deno.test("isSafeMarkup refuses every SVG XSS file of the corpus", async () => {
  const folder = new URL("xss/svg_xss/", CORPORA);
  let files = 0;
  for await (const entry of Deno.readDir(folder)) {
    files++;
    const text = await Deno.readTextFile(
      new URL(encodeURIComponent(entry.name), folder),
    );
    assert.equal(isSafeMarkup(text), false, entry.name);
  }
  assert.equal(files, 9);
});

Deno.test("isSafeMarkup accepts generated rich text, which parse5's tree builder keeps as written", () => {
  fc.assert(
    fc.property(markup, (text) => {
      assert.equal(markupFailure(text), undefined, text);
      const written = secondParserEvents(text);
      assert.deepEqual(treeEvents(text), written);
      assert.ok(secondParserSeesOnlyAllowed(text));
    }),
    { numRuns: 1000 },
  );
});

Deno.test("isSafeMarkup accepts an edited string only when both parsers agree on allowed tags", () => {
  fc.assert(
    fc.property(
      markup,
      fc.array(hostileEdit, { minLength: 1, maxLength: 3 }),
      (text, edits) => {
        const edited = edits.reduce(applyEdit, text);
        if (!isSafeMarkup(edited)) return;
        assert.ok(secondParserSeesOnlyAllowed(edited), edited);
        assert.deepEqual(
          treeEvents(edited),
          secondParserEvents(edited),
          edited,
        );
      },
    ),
    { numRuns: 3000 },
  );
});

Deno.test("isSafeMarkup accepts a string of random tag pieces only when both parsers agree", () => {
  const piece = fc.constantFrom(
    "<b>",
    "</b>",
    "<i>",
    "</i>",
    '<a href="/x">',
    '<a title="t">',
    "<a",
    ' href="/y"',
    " title=x",
    "</a>",
    "<br>",
    "<p>",
    "</p>",
    "<ul>",
    "<li>",
    "</li>",
    "</ul>",
    "x",
    "&amp;",
    "&",
    " ",
    "<",
    ">",
    '"',
    "'",
    "/",
    "=",
    "<!--",
    "-->",
  );
  let accepted = 0;
  fc.assert(
    fc.property(fc.array(piece, { maxLength: 12 }), (pieces) => {
      const text = pieces.join("");
      if (!isSafeMarkup(text)) return;
      if (text.includes("<")) accepted++;
      assert.ok(secondParserSeesOnlyAllowed(text), text);
      assert.deepEqual(treeEvents(text), secondParserEvents(text), text);
    }),
    { numRuns: 10_000 },
  );
  assert.ok(accepted > 20, `only ${accepted} strings with tags accepted`);
});

Deno.test("isSafeMarkup shows the same text as a browser would when it accepts", () => {
  fc.assert(
    fc.property(markup, (text) => {
      let shown = "";
      const parser = new Parser({
        ontext(data) {
          shown += data;
        },
      }, { decodeEntities: true });
      parser.write(text);
      parser.end();
      assert.equal(treeText(text), shown);
    }),
    { numRuns: 300 },
  );
});

Deno.test("isSafeMarkup skips the tokenizer only for strings without < or &", () => {
  fc.assert(
    fc.property(fc.string({ unit: "binary", maxLength: 60 }), (text) => {
      if (text.includes("<") || text.includes("&")) return;
      assert.equal(isSafeMarkup(text), true);
    }),
  );
});

Deno.test("isPlainText accepts text without tags or character references", () => {
  for (const text of ["", "A bowl", "Tom & Jerry", "AT&T", "l'été", "100 %"]) {
    assert.equal(isPlainText(text), true, text);
  }
  for (
    const text of [
      "<b>x</b>",
      "a < b",
      "a > b",
      "&amp;",
      "&copy 2024",
      "&#106;",
      "x&lt;",
    ]
  ) {
    assert.equal(isPlainText(text), false, text);
  }
});
