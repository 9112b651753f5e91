/**
 * The overlay's own checks against the server's rules: the link check in
 * the link dialog and on paste never accepts a link the server's link rule
 * refuses (over the XSS corpora and random strings), and accepts the
 * ordinary ones; tag-like text and refused links in a page are found.
 */
import assert from "node:assert/strict";
import fc from "fast-check";
import { isSafeLink } from "../../lib/pages/link_rule.ts";
import {
  linkProblem,
  linksIn,
  looksLikeMarkup,
  refusedHrefs,
} from "../../overlay/state/checks.ts";
import { corpusLines } from "../support/corpora.ts";

Deno.test("the overlay's link check accepts the ordinary links", () => {
  for (
    const href of [
      "/en/about/",
      "/",
      "#team",
      "https://example.com/docs?q=1#top",
      "http://example.com",
      "HTTPS://Example.com/",
      "mailto:team@example.com",
      "tel:+33123456789",
    ]
  ) assert.equal(linkProblem(href), undefined, href);
  for (
    const href of [
      "javascript:alert(1)",
      "//evil.example",
      "/\\evil.example",
      "&#106;avascript:alert(1)",
      "data:text/html,x",
      "https:///x",
      "https://user:pw@example.com/",
      " /en/",
      "",
    ]
  ) assert.equal(linkProblem(href), "link", href);
});

Deno.test("the overlay's link check never accepts what the server's link rule refuses (XSS corpora)", async () => {
  let checked = 0;
  const candidates: string[] = [];
  for await (const line of corpusLines("xss/payloadsallthethings/")) {
    candidates.push(line, line.trim());
    for (const [, href = ""] of line.matchAll(/href=["']([^"']*)["']/g)) {
      candidates.push(href);
    }
  }
  for (const href of candidates) {
    if (linkProblem(href) === undefined) {
      assert.ok(isSafeLink(href), `accepted by the overlay only: ${href}`);
    }
    checked++;
  }
  assert.ok(checked > 1000, `only ${checked} candidates`);
});

Deno.test("the overlay's link check never accepts what the server's link rule refuses (random strings)", () => {
  const piece = fc.constantFrom(
    "/",
    "\\",
    "#",
    ":",
    "&",
    "#47;",
    "&#x2F;",
    "javascript",
    "http",
    "https",
    "mailto",
    "tel",
    "//",
    "@",
    " ",
    "\t",
    "\u2028",
    "a",
    "example.com",
    ".",
    "xn--",
    "%2F",
    "?",
  );
  fc.assert(
    fc.property(fc.array(piece, { maxLength: 8 }), (parts) => {
      const href = parts.join("");
      return linkProblem(href) !== undefined || isSafeLink(href);
    }),
    { numRuns: 20_000 },
  );
});

Deno.test("tag-like text, links in rich text and refused hrefs in a page are found", () => {
  assert.ok(looksLikeMarkup("A <tricks> heading"));
  assert.ok(looksLikeMarkup("</p>"));
  assert.ok(looksLikeMarkup("<!-- x"));
  assert.ok(!looksLikeMarkup("1 < 2 and 3 > 2"));
  assert.deepEqual(
    linksIn(
      '<p><a href="/a?x=1&amp;y=2">a</a> <a title="t" href="javascript:x">b</a></p>',
    ),
    ["/a?x=1&y=2", "javascript:x"],
  );
  assert.deepEqual(
    refusedHrefs({
      cta: { link: { href: "javascript:x" } },
      nav: [{ HREF: "//evil" }, { href: "/ok" }],
      "a/b": { href: 1 },
    }),
    ["/a~1b/href", "/cta/link/href", "/nav/0/HREF"],
  );
});
