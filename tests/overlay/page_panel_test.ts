/**
 * The Page panel's choices, without a browser: which fields it offers (those
 * named by `data-inpage-fields`, else the top-level scalars no region shows,
 * except `id`) and the input each value gets.
 */
import assert from "node:assert/strict";
import { inputKind, panelFields } from "../../overlay/state/page_fields.ts";

Deno.test("the Page panel offers the named fields, or the top-level scalars no region, list or link shows, except id", () => {
  const page = {
    id: "home",
    title: "Home",
    description: "A page",
    draft: false,
    order: 3,
    "a/b": "escaped",
    sections: [{ heading: "One" }],
    image: { src: "a.webp" },
    nav: [{ text: "About", link: { href: "/about/" } }],
  };
  const shown = ["/title", "/sections", "/sections/0/heading", "/nav/0/link"];
  assert.deepEqual(panelFields(null, page, shown), [
    "/description",
    "/draft",
    "/order",
    "/a~1b",
  ]);
  assert.deepEqual(panelFields("/description  /seo/title ", page, shown), [
    "/description",
    "/seo/title",
  ]);
  assert.deepEqual(panelFields("", page, shown), []);
});

Deno.test("each value gets the input fitting it: switch, number, date, long text, text", () => {
  assert.equal(inputKind(true), "switch");
  assert.equal(inputKind(false), "switch");
  assert.equal(inputKind(0), "number");
  assert.equal(inputKind(2.5), "number");
  assert.equal(inputKind("2026-11-25"), "date");
  assert.equal(inputKind("2026-11-25T10:00"), "text");
  assert.equal(inputKind("x".repeat(80)), "text");
  assert.equal(inputKind("x".repeat(81)), "long");
  assert.equal(inputKind("two\nlines"), "long");
  assert.equal(inputKind("Short"), "text");
  assert.equal(inputKind(undefined), "text");
});
