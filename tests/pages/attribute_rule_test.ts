import assert from "node:assert/strict";
import {
  attributeKind,
  FORBIDDEN,
  PLAIN,
  URL_VALUED,
} from "../../lib/pages/attribute_rule.ts";
import { pageRules } from "../../lib/pages/page_rules.ts";
import { HttpError } from "../../lib/http/http_error.ts";
import { answered } from "../support/helpers.ts";

function refusal(page: unknown): { at?: string; detail: string } | undefined {
  try {
    pageRules(JSON.stringify(page));
    return undefined;
  } catch (thrown) {
    const error = answered(thrown);
    assert.ok(error instanceof HttpError);
    assert.equal(error.status, 422);
    const body = error.body as { at?: string };
    return {
      ...body.at === undefined ? {} : { at: body.at },
      detail: error.message,
    };
  }
}

Deno.test("attribute rule: keys as HTML reads attribute names", () => {
  for (
    const key of [
      "title",
      "text",
      "heading",
      "id",
      "lang",
      "hreflang",
      "on",
      "data-x",
      "One",
    ]
  ) {
    assert.equal(attributeKind(key), key === "One" ? FORBIDDEN : PLAIN, key);
  }
  for (
    const key of [
      "style",
      "STYLE",
      "onclick",
      "OnClick",
      "onerror",
      "onpointerdown",
      "onanimationend",
      "x onclick",
      "title/onload",
      "a=onfocus",
      "class\tonmouseover",
    ]
  ) {
    assert.equal(attributeKind(key), FORBIDDEN, key);
  }
  for (
    const key of [
      "href",
      "HREF",
      "Src",
      "srcset",
      "formaction",
      "FormAction",
      "xlink:href",
      "XLINK:HREF",
      "poster",
      "data",
      "ping",
      "x href",
    ]
  ) {
    assert.equal(attributeKind(key), URL_VALUED, key);
  }
});

Deno.test("page rules: hostile link objects are refused at their key, whatever the case", () => {
  const cases: [Record<string, unknown>, string][] = [
    [{ HREF: "javascript:alert(1)" }, "/link/HREF"],
    [{ Href: "JavaScript:alert(1)" }, "/link/Href"],
    [{ href: "/en/", onclick: "alert(1)" }, "/link/onclick"],
    [{ href: "/en/", ONCLICK: "alert(1)" }, "/link/ONCLICK"],
    [{ href: "/en/", onmouseover: "alert(1)" }, "/link/onmouseover"],
    [{ href: "/en/", onfocus: "alert(1)", autofocus: true }, "/link/onfocus"],
    [{ href: "/en/", style: "position:fixed;inset:0" }, "/link/style"],
    [{ href: "/en/", srcset: "javascript:alert(1)" }, "/link/srcset"],
    [{ href: "/en/", formaction: "javascript:alert(1)" }, "/link/formaction"],
    [{ "xlink:href": "javascript:alert(1)" }, "/link/xlink:href"],
    [{ href: "/en/", ping: "javascript:alert(1)" }, "/link/ping"],
    [{ href: "/en/", "x onclick": "alert(1)" }, "/link/x onclick"],
    [{ SRC: "javascript:alert(1)" }, "/link/SRC"],
  ];
  for (const [link, at] of cases) {
    assert.equal(
      refusal({ nav: { text: "x", link } })?.at,
      "/nav" + at,
      JSON.stringify(link),
    );
  }
});

Deno.test("page rules: ordinary link objects and keys still pass", () => {
  for (
    const link of [
      { href: "/en/about/", title: "About" },
      { href: "https://astro.build/", hreflang: "en", rel: "noopener" },
      { HREF: "/en/" },
      { href: "/fr/", target: "_blank", "aria-label": "Français" },
      { poster: "https://example.com/a.png", cite: "/en/" },
      { data: { nested: true } },
    ]
  ) {
    assert.equal(refusal({ link }), undefined, JSON.stringify(link));
  }
});
