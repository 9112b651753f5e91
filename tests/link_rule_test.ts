import assert from "node:assert/strict";
import fc from "fast-check";
import {
  decodeHtmlAttribute,
  decodeHtmlText,
  isSafeLink,
} from "../lib/link_rule.ts";

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

Deno.test("isSafeLink refuses scheme-relative paths, written with slashes or backslashes", () => {
  for (
    const href of [
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
    ]
  ) {
    assert.equal(isSafeLink(href), false, JSON.stringify(href));
  }
});

Deno.test("isSafeLink refuses other schemes whatever the case, entities or white space", () => {
  for (
    const href of [
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
    ]
  ) {
    assert.equal(isSafeLink(href), false, JSON.stringify(href));
  }
});

Deno.test("isSafeLink refuses web links without a host, without slashes or with credentials", () => {
  for (
    const href of [
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
    ]
  ) {
    assert.equal(isSafeLink(href), false, href);
  }
});

Deno.test("isSafeLink refuses relative links, empty links and characters no URL holds", () => {
  for (
    const href of [
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
    ]
  ) {
    assert.equal(isSafeLink(href), false, JSON.stringify(href));
  }
});

Deno.test("isSafeLink refuses the javascript links of the DOMPurify corpus", async () => {
  const corpus = JSON.parse(
    await Deno.readTextFile(
      new URL("../../shared/corpora/xss/dompurify.json", import.meta.url),
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
