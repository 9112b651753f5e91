import assert from "node:assert/strict";
import fc from "fast-check";
import { type TokenHandler, Tokenizer, TokenizerMode } from "parse5";
import {
  decodeHtmlAttribute,
  decodeHtmlText,
  isSafeLink,
} from "../../lib/pages/link_rule.ts";
import { testRefusals } from "../support/cases.ts";

/** Links isSafeLink refuses, by what is wrong with them. */
const REFUSED: Record<string, string[]> = {
  "scheme-relative paths, written with slashes or backslashes": [
    "//evil.example",
    "///evil.example",
    "/\\evil.example",
    "\\\\evil.example",
    "\\/evil.example",
    "/\t/evil.example",
    "/\n/evil.example",
    "/&#47;evil.example",
    "/&#x2F;evil.example",
    "/&sol;evil.example",
    "&#47;&#47;evil.example",
    "/&bsol;evil.example",
    "/&#92;evil.example",
  ],
  "other schemes whatever the case, entities or white space": [
    "javascript:alert(1)",
    "JaVaScRiPt:alert(1)",
    " javascript:alert(1)",
    "javascript :alert(1)",
    "java\tscript:alert(1)",
    "java\nscript:alert(1)",
    "\u2028javascript:alert(1)",
    "\u00a0javascript:alert(1)",
    "\ufeffjavascript:alert(1)",
    "\u0001javascript:alert(1)",
    "&#106;avascript:alert(1)",
    "&#x6A;avascript:alert(1)",
    "&#0000106avascript:alert(1)",
    "javascript&colon;alert(1)",
    "java&Tab;script:alert(1)",
    "java&NewLine;script:alert(1)",
    "&#x20;javascript:alert(1)",
    "vbscript:msgbox(1)",
    "data:text/html,<script>alert(1)</script>",
    "data:image/png;base64,AAAA",
    "file:///etc/passwd",
    "blob:https://example.org/1",
    "ftp://example.org",
    "about:blank",
  ],
  "web links without a host, without slashes or with credentials": [
    "https:",
    "https://",
    "http:///path",
    "https:example.org",
    "https:/example.org",
    "https://user@example.org",
    "https://user:secret@example.org",
    "https://example.org@evil.example",
    "https://exa mple.org",
    "https://[::1",
  ],
  "relative links, empty links and characters no URL holds": [
    "",
    " ",
    "about",
    "./about",
    "../about",
    "?q=1",
    "example.org",
    "/about ",
    "/a b",
    '/a"onmouseover="alert(1)',
    "/a&quot;onmouseover=&quot;alert(1)",
    "/a<script>",
    "/a&lt;script&gt;",
    "/a`b",
    "/a\\b",
    "#a b",
    "#a\u200bb",
    "mailto:a@b.c\r\nbcc:x@y.z",
    "/\ud800",
  ],
};

Deno.test("isSafeLink accepts site paths, fragments and web, mail and phone links", () => {
  for (
    const href of [
      "/",
      "/about",
      "/blog/2024/spring-sale?utm=x&page=2#top",
      "/a/../b",
      "/%5Cnot-a-backslash",
      "#",
      "#contact",
      "https://example.org",
      "https://example.org/a?b=1&c=2#d",
      "http://example.org:8080/",
      "HTTPS://EXAMPLE.ORG/",
      "Http://example.org/",
      "mailto:hello@example.org",
      "MAILTO:hello@example.org?subject=Hi",
      "tel:+33123456789",
      "/search?q=a&amp;b",
    ]
  ) {
    assert.equal(isSafeLink(href), true, href);
  }
});

testRefusals("isSafeLink", isSafeLink, REFUSED);

Deno.test("isSafeLink refuses the javascript links of the DOMPurify corpus", async () => {
  const corpus = JSON.parse(
    await Deno.readTextFile(
      new URL("../../../shared/corpora/xss/dompurify.json", import.meta.url),
    ),
  ) as { payload: string }[];
  let links = 0;
  for (const { payload } of corpus) {
    for (const [, href = ""] of payload.matchAll(/href=["']([^"']*)["']/g)) {
      if (!/script|data:/i.test(decodeHtmlText(href))) continue;
      links++;
      assert.equal(isSafeLink(href), false, href);
      assert.equal(isSafeLink(decodeHtmlAttribute(href)), false, href);
    }
  }
  assert.ok(links >= 10, `only ${links} links found`);
});

Deno.test("decodeHtmlAttribute decodes like a browser reads an attribute value", () => {
  assert.equal(decodeHtmlAttribute("a&amp;b"), "a&b");
  assert.equal(decodeHtmlAttribute("&#106;&#x61;"), "ja");
  assert.equal(decodeHtmlAttribute("&quot;x&quot;"), '"x"');
  assert.equal(decodeHtmlAttribute('say "hi"'), 'say "hi"');
  // A legacy reference followed by "=" or a letter stays as written.
  assert.equal(decodeHtmlAttribute("?a=1&copy=2"), "?a=1&copy=2");
  assert.equal(decodeHtmlAttribute("&copy;"), "\u00a9");
  assert.equal(decodeHtmlAttribute("no reference"), "no reference");
});

Deno.test("decodeHtmlText decodes like a browser reads text, leaving < as written", () => {
  assert.equal(decodeHtmlText("a &lt;b&gt; &amp; c"), "a <b> & c");
  assert.equal(decodeHtmlText("&copy 2024"), "\u00a9 2024");
  assert.equal(decodeHtmlText("<b>x</b>"), "<b>x</b>");
  assert.equal(decodeHtmlText("Tom & Jerry"), "Tom & Jerry");
});

Deno.test("isSafeLink accepts nothing that holds white space or a control character", () => {
  fc.assert(
    fc.property(fc.string({ unit: "binary", maxLength: 40 }), (href) => {
      if (!isSafeLink(href)) return;
      assert.doesNotMatch(href, /[\p{Cc}\p{Cf}\p{Z}\s]/u);
      assert.match(href, /^(?:#|\/(?![/\\])|https?:\/\/|mailto:|tel:)/i);
    }),
    { numRuns: 2000 },
  );
});

Deno.test("isSafeLink refuses javascript: whatever its case, padding and encoding", () => {
  const padding = fc.constantFrom(
    "",
    " ",
    "\t",
    "\n",
    "\u0000",
    "\u000b",
    "\u00a0",
    "\u2028",
    "&#9;",
    "&#x0A;",
    "&Tab;",
    "&NewLine;",
  );
  const letter = (char: string) =>
    fc.constantFrom(
      char,
      char.toUpperCase(),
      `&#${char.charCodeAt(0)};`,
      `&#x${char.charCodeAt(0).toString(16)};`,
    );
  const scheme = fc.tuple(...[..."javascript"].map(letter)).map((parts) =>
    parts.join("")
  );
  fc.assert(
    fc.property(
      padding,
      scheme,
      padding,
      fc.constantFrom(":", "&colon;", "&#58;", "&#x3a;"),
      (before, name, inside, colon) => {
        assert.equal(
          isSafeLink(`${before}${name}${inside}${colon}alert(1)`),
          false,
        );
      },
    ),
    { numRuns: 3000 },
  );
});

Deno.test("isSafeLink keeps its answer for every accepted web link that new URL reads with a host", () => {
  fc.assert(
    fc.property(
      fc.webUrl({ withQueryParameters: true, withFragments: true }),
      (url) => {
        if (!isSafeLink(url)) return;
        const parsed = new URL(url);
        assert.ok(parsed.hostname !== "");
        assert.ok(parsed.protocol === "https:" || parsed.protocol === "http:");
      },
    ),
    { numRuns: 500 },
  );
});

Deno.test("isSafeLink accepts nothing that decoded as text would be hostile", () => {
  const piece = fc.constantFrom(
    "/",
    "#",
    "https://",
    "mailto:",
    "a",
    "&amp",
    "&amp;",
    "&lt",
    "&gt;",
    "&quot",
    "&nbsp",
    "&shy",
    "&not",
    "&#47;",
    "&sol;",
    "&colon;",
    "&#x3a;",
    "&Tab;",
    "javascript",
    ":",
    "=",
    "?",
    "&",
    ";",
    "x",
  );
  fc.assert(
    fc.property(fc.array(piece, { maxLength: 8 }), (pieces) => {
      const href = pieces.join("");
      if (!isSafeLink(href)) return;
      const text = decodeHtmlText(href);
      assert.doesNotMatch(text, /[\p{Cc}\p{Cf}\p{Z}\s"<>`\\]/u, href);
      assert.match(
        text,
        /^(?:#|\/(?![/\\])|https?:\/\/(?![/\\])|mailto:|tel:)/i,
        href,
      );
    }),
    { numRuns: 5000 },
  );
});

// The oracle: the rule as it was written, with whole-string parse5 decoding
// and `new URL` for every web link, kept to check that the faster version
// (references read one at a time, plain hosts without `new URL`) answers the
// same.

const FORBIDDEN = /[\p{Cc}\p{Cf}\p{Cs}\p{Z}\s"<>`\\]/u;
const SCHEME = /^([a-zA-Z][a-zA-Z0-9+.-]*):/;

/**
 * Whether a string is an acceptable link target (see the module doc).
 *
 * @param href the candidate, as written in the page
 * @returns true when the raw string and its entity-decoded forms all pass
 */
function oracleIsSafeLink(href: string): boolean {
  if (!oracleIsSafeLinkForm(href)) return false;
  if (!href.includes("&")) return true;
  return oracleIsSafeLinkForm(oracleDecodeAttribute(href)) &&
    oracleIsSafeLinkForm(oracleDecodeText(href));
}

function oracleIsSafeLinkForm(href: string): boolean {
  if (href.length === 0 || FORBIDDEN.test(href)) return false;
  const first = href.charCodeAt(0);
  if (first === 0x23) return true; // "#"
  if (first === 0x2f) return isSitePath(href); // "/"
  const scheme = SCHEME.exec(href)?.[1]?.toLowerCase();
  switch (scheme) {
    case "mailto":
    case "tel":
      return true;
    case "http":
    case "https":
      return isWebUrl(href, scheme);
    default:
      return false;
  }
}

/**
 * A path-absolute reference keeps the site's origin unless its second
 * character is `/` or `\` (the URL parser's "relative slash" state); the tab,
 * line feed and carriage return the parser would skip are already refused.
 */
function isSitePath(href: string): boolean {
  const second = href.charCodeAt(1);
  return second !== 0x2f && second !== 0x5c;
}

function isWebUrl(href: string, scheme: string): boolean {
  const slashes = scheme.length + 1;
  if (href.slice(slashes, slashes + 2) !== "//") return false;
  const host = href.charCodeAt(slashes + 2);
  if (host === 0x2f || host === 0x5c) return false; // a third slash
  try {
    const url = new URL(href);
    return url.protocol === `${scheme}:` && url.hostname !== "" &&
      url.username === "" && url.password === "";
  } catch {
    return false;
  }
}

/**
 * Decodes the character references of a string the way a browser decodes a
 * double-quoted attribute value (a legacy reference without `;` followed by
 * `=` or an alphanumeric is kept as written).
 *
 * @param value the raw attribute value
 * @returns the value the browser would see
 */
function oracleDecodeAttribute(value: string): string {
  if (!value.includes("&")) return value;
  let decoded: string | undefined;
  const tokenizer = new Tokenizer(
    {},
    collector({
      onStartTag(token) {
        decoded = token.attrs[0]?.value ?? "";
      },
    }),
  );
  tokenizer.write(`<a x="${value.replaceAll('"', "&quot;")}">`, true);
  return decoded ?? "";
}

/**
 * Decodes the character references of a string the way a browser decodes
 * text (as in a `textarea`, so that `<` stays literal).
 *
 * @param text the raw text
 * @returns the text the browser would show
 */
function oracleDecodeText(text: string): string {
  if (!text.includes("&")) return text;
  let decoded = "";
  const append = (token: { chars: string }): void => {
    decoded += token.chars;
  };
  const tokenizer = new Tokenizer(
    {},
    collector({
      onCharacter: append,
      onWhitespaceCharacter: append,
      onNullCharacter: append,
    }),
  );
  tokenizer.state = TokenizerMode.RCDATA;
  tokenizer.write(text, true);
  return decoded;
}

function collector(handlers: Partial<TokenHandler>): TokenHandler {
  const ignore = (): void => {};
  return {
    onComment: ignore,
    onDoctype: ignore,
    onStartTag: ignore,
    onEndTag: ignore,
    onEof: ignore,
    onCharacter: ignore,
    onNullCharacter: ignore,
    onWhitespaceCharacter: ignore,
    ...handlers,
  };
}

/** Asserts that both decoders read a string as the parse5 oracles do. */
function assertDecodesAsParse5(text: string): void {
  assert.equal(
    decodeHtmlAttribute(text),
    oracleDecodeAttribute(text),
    JSON.stringify(text),
  );
  assert.equal(
    decodeHtmlText(text),
    oracleDecodeText(text),
    JSON.stringify(text),
  );
}

/** Pieces of links that references, schemes and hosts are made of. */
const linkPiece = fc.constantFrom(
  "/",
  "#",
  "https://",
  "http://",
  "HTTPS://",
  "mailto:",
  "tel:",
  "javascript:",
  "a",
  "x",
  "1",
  "0x1",
  "xn--",
  "xn--nxasmq6b",
  "-",
  ".",
  "ex-ample",
  "example",
  "org",
  "42",
  "192.168.0.1",
  "999",
  "[::1]",
  ":8080",
  ":99999",
  "@",
  "%41",
  "%2e",
  "?q=1",
  "=",
  ";",
  "é",
  "ß",
  "Ä",
  "\u00ad",
  "\u200b",
  " ",
  "\t",
  "\r",
  "\u0000",
  '"',
  "<",
  "\\",
  "&",
  "&amp;",
  "&amp",
  "&#47;",
  "&sol;",
  "&colon;",
  "&#x3a;",
  "&#0;",
  "&#x110000;",
  "&quot;",
  "&lt;",
  "&copy",
  "&copy=",
  "&notin;",
  "&foo;",
  "&#",
);

const generatedLink = fc.oneof(
  fc.array(linkPiece, { maxLength: 8 }).map((pieces) => pieces.join("")),
  fc.tuple(
    fc.constantFrom("https://", "http://", "HTTP://"),
    fc.array(linkPiece, { maxLength: 6 }),
  ).map(([scheme, pieces]) => scheme + pieces.join("")),
  fc.webUrl({ withQueryParameters: true, withFragments: true }),
  fc.domain().map((domain) => `https://${domain}/`),
  fc.string({ unit: "binary", maxLength: 30 }),
);

Deno.test("isSafeLink answers as the rule with whole-string decoding and new URL for every link", () => {
  fc.assert(
    fc.property(generatedLink, (href) => {
      assert.equal(
        isSafeLink(href),
        oracleIsSafeLink(href),
        JSON.stringify(href),
      );
    }),
    { numRuns: 20_000 },
  );
});

Deno.test("decodeHtmlAttribute and decodeHtmlText decode as parse5 does over the whole string", () => {
  fc.assert(
    fc.property(
      fc.oneof(
        generatedLink,
        fc.array(linkPiece, { maxLength: 16 }).map((pieces) => pieces.join("")),
      ),
      assertDecodesAsParse5,
    ),
    { numRuns: 20_000 },
  );
});

Deno.test("decodeHtmlAttribute and decodeHtmlText decode each reference as parse5 does, however far from the end", () => {
  const references = [
    "&amp;",
    "&amp",
    "&ampx;",
    "&amp=",
    "&copy",
    "&copy=",
    "&copyx;",
    "&notin;",
    "&notit;",
    "&foo;",
    "&#",
    "&#x;",
    "&#65",
    "&#x110000;",
    "&CounterClockwiseContourIntegral;",
    "&CounterClockwiseContourIntegra;",
    "&NotNestedGreaterGreater",
    "&aacute",
    "&",
  ];
  for (const reference of references) {
    for (let length = 0; length <= 40; length++) {
      for (const filler of ["z", " ", "=", ";", "&"]) {
        const text = `/a${reference}${filler.repeat(length)}`;
        assertDecodesAsParse5(text);
        assert.equal(isSafeLink(text), oracleIsSafeLink(text), text);
      }
    }
  }
});
