import assert from "node:assert/strict";
import fc from "fast-check";
import {
  Parser,
  QuoteType,
  Tokenizer as Htmlparser2Tokenizer,
} from "htmlparser2";
import {
  type DefaultTreeAdapterTypes,
  parseFragment,
  Token,
  type TokenHandler,
  Tokenizer,
} from "parse5";
import { isSafeLink } from "../../lib/pages/link_rule.ts";
import {
  isPlainText,
  isSafeMarkup,
  MARKUP_ATTRIBUTES,
  MARKUP_TAGS,
  markupFailure,
} from "../../lib/pages/markup_rule.ts";
import {
  ALLOWED_TAGS,
  FLOW_TAGS,
  PHRASING_TAGS,
} from "../support/allowlist.ts";
import { CORPORA, corpusFiles, corpusLines } from "../support/corpora.ts";
import { testRefusals } from "../support/cases.ts";

/** Strings isSafeMarkup refuses, by what is wrong with them. */
const REFUSED: Record<string, string[]> = {
  "tags and attributes outside the allowlist": [
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
  ],
  "comments, doctypes, CDATA and processing instructions": [
    "<!-- x -->",
    "a<!---->b",
    "<!doctype html>",
    "<![CDATA[x]]>",
    "<?xml version='1.0'?>",
    "<!x>",
    "</ x>",
  ],
  "tags not written in their serialised form": [
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
  ],
  "misnested, unclosed and stray tags": [
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
  ],
  "a < that does not open a complete tag": [
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
  ],
  "character references a browser would repair": [
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
  ],
};

// The oracle: the rule as it was written with parse5's tokenizer alone (its
// character references and attribute values decoded by parse5 over the whole
// string), kept to check that the htmlparser2 version answers the same.

type TagToken = Token.TagToken;
const TokenType = Token.TokenType;
type ParseError = Parameters<NonNullable<TokenHandler["onParseError"]>>[0];

const ORACLE_FLOW = FLOW_TAGS;
const ORACLE_INLINE: ReadonlySet<string> = new Set([...PHRASING_TAGS, "br"]);
const ORACLE_LI: ReadonlySet<string> = new Set(["li"]);

/** Tokenizer notes about raw characters, which the sanitiser deals with. */
const CHARACTER_NOTES: ReadonlySet<string> = new Set([
  "control-character-in-input-stream",
  "noncharacter-in-input-stream",
  "surrogate-in-input-stream",
]);

function oracleFailure(text: string): string | undefined {
  if (!text.includes("<") && !text.includes("&")) return undefined;
  const check = new OracleCheck();
  const tokenizer = new Tokenizer({}, check);
  check.tokenizer = tokenizer;
  tokenizer.write(text, true);
  if (check.failure !== undefined) return check.failure;
  if (!check.ended) return "Markup ends inside a tag";
  return shapeFailure(text, check.tags);
}

/** Follows the tokens of one string and records the first failure. */
class OracleCheck implements TokenHandler {
  readonly #open: string[] = [];
  /** The tags read, in order, for the check of their written form. */
  readonly tags: TagToken[] = [];
  #anchors = 0;
  tokenizer: Tokenizer | undefined;
  failure: string | undefined;
  ended = false;

  #fail(reason: string): void {
    if (this.failure === undefined) this.failure = reason;
    this.tokenizer?.pause();
  }

  onParseError(error: ParseError): void {
    if (!CHARACTER_NOTES.has(error.code)) {
      this.#fail(`Markup error ${error.code} at ${error.startOffset}`);
    }
  }

  onComment(): void {
    this.#fail("Markup holds a comment, CDATA or processing instruction");
  }

  onDoctype(): void {
    this.#fail("Markup holds a doctype");
  }

  onNullCharacter(): void {
    this.#fail("Markup holds a NUL character");
  }

  onWhitespaceCharacter(): void {}

  onCharacter(): void {
    const parent = this.#open.at(-1);
    if (parent === "ul" || parent === "ol") {
      this.#fail(`Text directly inside <${parent}>`);
    }
  }

  onStartTag(token: TagToken): void {
    const name = token.tagName;
    if (!ORACLE_FLOW.has(name) && name !== "li") {
      return this.#fail("A tag outside the allowlist");
    }
    const parent = this.#open.at(-1);
    if (!allowedChildren(parent).has(name)) {
      return this.#fail(
        `Tag <${name}> is not allowed inside ${
          parent ? `<${parent}>` : "the top level"
        }`,
      );
    }
    if (name === "a" && this.#anchors > 0) {
      return this.#fail("Tag <a> inside <a>");
    }
    if (token.selfClosing) {
      return this.#fail(`Tag <${name}> has a self-closing slash`);
    }
    for (const attr of token.attrs) {
      if (name !== "a" || (attr.name !== "href" && attr.name !== "title")) {
        return this.#fail(`An attribute outside the allowlist on <${name}>`);
      }
      if (attr.name === "href" && !isSafeLink(attr.value)) {
        return this.#fail("Attribute href is not a safe link");
      }
    }
    this.tags.push(token);
    if (name === "br") return;
    if (name === "a") this.#anchors++;
    this.#open.push(name);
  }

  onEndTag(token: TagToken): void {
    const name = token.tagName;
    const open = this.#open.pop();
    if (open !== name) {
      return this.#fail(
        ORACLE_FLOW.has(name) || name === "li"
          ? `End tag </${name}> does not close the open element`
          : "An end tag outside the allowlist",
      );
    }
    this.tags.push(token);
    if (name === "a") this.#anchors--;
  }

  onEof(): void {
    const open = this.#open.at(-1);
    if (open !== undefined) return this.#fail(`Tag <${open}> is not closed`);
    this.ended = true;
  }
}

function allowedChildren(parent: string | undefined): ReadonlySet<string> {
  if (parent === undefined || parent === "li") return ORACLE_FLOW;
  if (parent === "ul" || parent === "ol") return ORACLE_LI;
  return ORACLE_INLINE;
}

/**
 * Why the tags of a string are not written in their serialised form:
 * `<name attr="value"…>` exactly, with no `<` or `>` inside a value, and
 * `</name>`.
 *
 * The tokenizer found no error, so every `<` of the string opens one of the
 * tags read, unless it sits inside an attribute value: the `n`-th tag is
 * written from the `n`-th `<` to the next `>`, a `>` inside a value cuts the
 * tag short of its closing quote, and a `<` inside a value is refused.
 */
function shapeFailure(
  text: string,
  tags: readonly TagToken[],
): string | undefined {
  let from = 0;
  for (const tag of tags) {
    const start = text.indexOf("<", from);
    const end = text.indexOf(">", start);
    if (start < 0 || end < 0) return "Markup has a tag written oddly";
    const raw = text.slice(start, end + 1);
    const fits = tag.type === TokenType.END_TAG
      ? raw === `</${tag.tagName}>`
      : isCanonicalStartTag(raw, tag);
    if (!fits) {
      return `Tag <${tag.tagName}> is not written in its serialised form`;
    }
    from = end + 1;
  }
  if (text.includes("<", from)) return "Markup has a tag written oddly";
  return undefined;
}

/** Whether the source of a start tag is `<name attr="value"…>` exactly. */
function isCanonicalStartTag(raw: string, token: TagToken): boolean {
  // The source runs to the first `>`, so a value holding one cannot close;
  // a value holding a `<` is refused here.
  if (raw.includes("<", 1) || !raw.startsWith(token.tagName, 1)) return false;
  let position = 1 + token.tagName.length;
  for (const attr of token.attrs) {
    const head = ` ${attr.name}="`;
    if (!raw.startsWith(head, position)) return false;
    const close = raw.indexOf('"', position + head.length);
    if (close < 0) return false;
    position = close + 1;
  }
  return position === raw.length - 1;
}

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
  ...[...PHRASING_TAGS].filter((name) => name !== "a"),
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

testRefusals("isSafeMarkup", isSafeMarkup, REFUSED);

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
  let lines = 0;
  const acceptedTags: string[] = [];
  for await (const line of corpusLines("xss/payloadsallthethings/")) {
    lines++;
    if (!isSafeMarkup(line)) continue;
    assert.ok(secondParserSeesOnlyAllowed(line), line);
    assert.deepEqual(treeEvents(line), secondParserEvents(line), line);
    if (line.includes("<")) acceptedTags.push(line);
  }
  assert.equal(lines, 2723);
  // What passes is text (entities, script-looking words): the one line
  // holding a tag is a lone, harmless `<br>`.
  assert.deepEqual(acceptedTags, ["<br>"]);
});

Deno.test("isSafeMarkup refuses every SVG XSS file of the corpus", async () => {
  let files = 0;
  for await (const { name, text } of corpusFiles("xss/svg_xss/")) {
    files++;
    assert.equal(isSafeMarkup(text), false, name);
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

// The htmlparser2 version against the parse5-only oracle.

/** References that parse5 reads in every way it can, and some it refuses. */
const REFERENCES = [
  "&amp;",
  "&amp",
  "&ampx;",
  "&amp=",
  "&AMP;",
  "&copy",
  "&copy;",
  "&copy=",
  "&copyx",
  "&copyx;",
  "&not",
  "&notin;",
  "&notit;",
  "&noti",
  "&foo;",
  "&foo",
  "&;",
  "&",
  "&&amp;",
  "&#",
  "&#;",
  "&#x;",
  "&#X41;",
  "&#xg;",
  "&#65",
  "&#65;",
  "&#0;",
  "&#9;",
  "&#10;",
  "&#12;",
  "&#13;",
  "&#32;",
  "&#x80;",
  "&#x9F;",
  "&#xD800;",
  "&#xFFFE;",
  "&#x1F600;",
  "&#x110000;",
  "&#99999999999999999999;",
  "&#0000000000000000000000000000000000065;",
  "&nbsp;",
  "&Tab;",
  "&NewLine;",
  "&quot;",
  "&lt;",
  "&gt",
  "&CounterClockwiseContourIntegral;",
  "&CounterClockwiseContourIntegra;",
  "&CounterClockwiseContourIntegralx;",
  "&NotNestedGreaterGreater;",
  "&NotNestedGreaterGreater",
  "&aacute",
  "&aacutex",
  "&Aacute;",
  "&b.;",
];

const referenceText = fc.array(
  fc.oneof(
    fc.constantFrom(...REFERENCES),
    fc.constantFrom("a", "x", "1", ";", "=", "#", " ", "&", "<b>", "</b>", "é"),
  ),
  { maxLength: 8 },
).map((parts) => parts.join(""));

/** The tags parse5 reads in a string, with their place in it. */
function parse5Tags(text: string): string[] {
  const events: string[] = [];
  const ignore = (): void => {};
  const tokenizer = new Tokenizer({ sourceCodeLocationInfo: true }, {
    onCharacter: ignore,
    onWhitespaceCharacter: ignore,
    onNullCharacter: ignore,
    onEof: ignore,
    onComment() {
      events.push("comment");
    },
    onDoctype() {
      events.push("doctype");
    },
    onStartTag(token) {
      const attrs = token.attrs.map(({ name }) => {
        const at = token.location?.attrs?.[name];
        return ` ${name}@${at?.startOffset}-${at?.endOffset}`;
      }).join("");
      const { startOffset, endOffset } = token.location ?? {};
      events.push(
        `<${token.tagName}${attrs}${token.selfClosing ? "/" : ""}>` +
          `@${startOffset}-${endOffset}`,
      );
    },
    onEndTag(token) {
      const { startOffset, endOffset } = token.location ?? {};
      events.push(`</${token.tagName}>@${startOffset}-${endOffset}`);
    },
  });
  tokenizer.write(text, true);
  return events;
}

/** The tags htmlparser2's tokenizer (entities off) reads, with their place. */
function htmlparser2Tags(text: string): string[] {
  const events: string[] = [];
  let tag = "";
  let attribute = 0;
  const ignore = (): void => {};
  const tokenizer = new Htmlparser2Tokenizer({ decodeEntities: false }, {
    onattribdata: ignore,
    onattribentity: ignore,
    ontext: ignore,
    ontextentity: ignore,
    onend: ignore,
    oncdata() {
      events.push("comment");
    },
    oncomment() {
      events.push("comment");
    },
    onprocessinginstruction() {
      events.push("comment");
    },
    ondeclaration() {
      events.push("doctype");
    },
    onopentagname(start, end) {
      tag = `<${text.slice(start, end).toLowerCase()}`;
      attribute = start - 1;
      events.push("");
    },
    onattribname(start, end) {
      tag += ` ${text.slice(start, end)}@${start}`;
    },
    onattribend(quote, end) {
      tag += `-${quote === QuoteType.NoValue ? "" : end}`;
    },
    onopentagend(end) {
      events[events.length - 1] = `${tag}>@${attribute}-${end + 1}`;
    },
    onselfclosingtag(end) {
      events[events.length - 1] = `${tag}/>@${attribute}-${end + 1}`;
    },
    onclosetag(start, end) {
      const close = text.indexOf(">", end) + 1;
      events.push(
        `</${text.slice(start, end).toLowerCase()}>@${start - 2}-${close}`,
      );
    },
  });
  tokenizer.write(text);
  tokenizer.end();
  return events.filter((event) => event !== "");
}

/** Asserts that isSafeMarkup answers as the parse5-only oracle. */
function assertAsOracle(text: string): void {
  assert.equal(
    isSafeMarkup(text),
    oracleFailure(text) === undefined,
    JSON.stringify(text),
  );
}

const nearlyAccepted = fc.tuple(
  markup,
  fc.array(hostileEdit, { minLength: 1, maxLength: 2 }),
).map(([text, edits]) => edits.reduce(applyEdit, text));

Deno.test("isSafeMarkup answers as the parse5-only rule on generated and edited rich text", () => {
  fc.assert(
    fc.property(
      fc.oneof(markup, nearlyAccepted, referenceText),
      (text) => {
        assertAsOracle(text);
      },
    ),
    { numRuns: 5000 },
  );
});

Deno.test("isSafeMarkup answers as the parse5-only rule on strings of random tag pieces", () => {
  const piece = fc.constantFrom(
    "<b>",
    "</b>",
    "<p>",
    "</p>",
    "<ul>",
    "</ul>",
    "<li>",
    "</li>",
    "<a",
    ' href="/y"',
    ' href="/&amp;',
    ' title="t"',
    ' title="&copy"',
    '"',
    ">",
    "/>",
    "<",
    "</",
    "<!--",
    "-->",
    "<script>",
    "</script>",
    "<title>",
    "<textarea>",
    "<plaintext>",
    "<svg>",
    "x",
    " ",
    "\n",
    "\r",
    "\t",
    "\f",
    "=",
    "'",
    "&amp;",
    "&amp",
    "&#32;",
    "&",
    "\u0000",
    "\u0001",
  );
  fc.assert(
    fc.property(fc.array(piece, { maxLength: 14 }), (pieces) => {
      const text = pieces.join("");
      assertAsOracle(text);
    }),
    { numRuns: 10_000 },
  );
});

Deno.test("isSafeMarkup reads each character reference as parse5 does, in text and values, however far from the end", () => {
  const tails = ["", "x", " ", "<b>y</b>", "y".repeat(40)];
  for (const reference of REFERENCES) {
    for (let length = 0; length <= 40; length++) {
      for (const tail of tails) {
        const filler = "z".repeat(length);
        for (
          const text of [
            `${reference}${filler}`,
            `${reference}${tail}${filler}`,
            `<p>${reference}</p>${filler}`,
            `<ul>${reference}<li>x</li></ul>${filler}`,
            `<a title="${reference}">x</a>${filler}`,
            `<a title="${reference}${tail.replace(/[<>]/g, "")}">x</a>`,
            `<a href="/p${reference}">x</a>${filler}`,
            `<a href="https://example.org/?a${reference}b">x</a>${filler}`,
          ]
        ) {
          assertAsOracle(text);
        }
      }
    }
  }
});

Deno.test("htmlparser2's tokenizer reads the same tags as parse5's in every accepted string", () => {
  let compared = 0;
  fc.assert(
    fc.property(fc.oneof(markup, nearlyAccepted), (text) => {
      if (!isSafeMarkup(text)) return;
      compared++;
      assert.deepEqual(htmlparser2Tags(text), parse5Tags(text), text);
    }),
    { numRuns: 3000 },
  );
  assert.ok(compared > 1000, `only ${compared} accepted strings compared`);
});

Deno.test("isSafeMarkup takes linear time on long strings", () => {
  const cases = [
    "<ul>" + "\n<li>x</li>".repeat(8_000) + "</ul>&amp;",
    "<p>" + '<a title="t">y</a> '.repeat(5_000) + "</p>&amp;",
    "<p>" + '<a href="/x&amp;y" title="t&amp;">y</a>'.repeat(2_500) + "</p>",
    Array.from({ length: 12_000 }, (_, index) => `&a${index};`).join(""),
    Array.from({ length: 12_000 }, (_, index) => `&#${index}`).join(" "),
    "&amp;" + "x".repeat(99_990) + "<",
    "&" + "a".repeat(99_990) + ";",
    "<b>&#" + "0".repeat(99_980) + "65;</b>",
    ("&" + "b".repeat(60) + ";").repeat(1_500),
  ];
  for (const text of cases) {
    const start = performance.now();
    isSafeMarkup(text);
    const elapsed = performance.now() - start;
    assert.ok(elapsed < 1000, `${text.slice(0, 40)}… took ${elapsed} ms`);
    assert.equal(isSafeMarkup(text), oracleFailure(text) === undefined);
  }
});

Deno.test("the allowlist the rule exports for the browser (MARKUP_TAGS, MARKUP_ATTRIBUTES) is the one it reads", () => {
  assert.deepEqual(new Set(MARKUP_TAGS), ALLOWED_TAGS);
  assert.deepEqual(MARKUP_ATTRIBUTES, { a: ["href", "title"] });
  const written = (tag: string) =>
    tag === "br"
      ? "<br>"
      : tag === "li"
      ? "<ul><li>x</li></ul>"
      : tag === "ul" || tag === "ol"
      ? `<${tag}><li>x</li></${tag}>`
      : `<${tag}>x</${tag}>`;
  for (const tag of MARKUP_TAGS) assert.ok(isSafeMarkup(written(tag)), tag);
  for (const tag of ["img", "span", "div", "script", "h1", "abbr", "bdo"]) {
    assert.ok(!isSafeMarkup(written(tag)), tag);
  }
  assert.ok(isSafeMarkup('<a href="/x" title="t">x</a>'));
  assert.ok(!isSafeMarkup('<b title="t">x</b>'));
});
