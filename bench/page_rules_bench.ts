/**
 * Publishing a realistic 100 KB page: `pageRules` against the least any
 * publish must do with the same text, `JSON.parse` then
 * `JSON.stringify(…, null, 2)`.
 *
 * `pageRules` keeps no verdict from one call to the next: the only thing it
 * remembers across pages is how parse5 reads a character reference such as
 * `&amp;` (`lib/pages/character_reference.ts`), a bounded cache of readings of
 * references, not of strings. So that no memory of a page can flatter it,
 * the second group publishes a different page at every iteration (every id,
 * heading, image, alt and rich-text string differs from the other pages');
 * its figures are the headline, the first group's (the same page every time)
 * are there to compare.
 *
 * Collecting every problem against stopping at the first, in one run, on the
 * same page that passes: `pageRules(content)` (collecting, up to 50),
 * `pageRules(content, 1)` (the walk stops at its first problem) and the rules
 * as they were before collecting (`page_rules_before.ts`, a copy of commit
 * `10d1b2e`'s, without the link check of values under any key and the
 * markdown rule) as the baseline. The aim: collecting costs at most 10% over
 * the first-failure path. A last group measures a page whose rich text is
 * markdown (links and images through the markdown tokenizer).
 *
 * @module
 */

import { pageRules } from "../lib/pages/page_rules.ts";
import { pageRulesBefore } from "./page_rules_before.ts";
import { realisticPage } from "./realistic_page.ts";

const content = realisticPage();
/** Pages whose strings all differ from one another, published in turn. */
const variants = Array.from(
  { length: 8 },
  (_, index) => realisticPage(1_000 * (index + 1)),
);
let next = 0;
let nextBaseline = 0;

Deno.bench({
  name: "JSON.parse + JSON.stringify (baseline)",
  group: "publish-100kb",
  baseline: true,
  fn() {
    JSON.stringify(JSON.parse(content), null, 2);
  },
});

Deno.bench({
  name: "pageRules",
  group: "publish-100kb",
  fn() {
    pageRules(content);
  },
});

Deno.bench({
  name: "JSON.parse + JSON.stringify (baseline), a different page each time",
  group: "publish-100kb-different-pages",
  baseline: true,
  fn() {
    const page = variants[nextBaseline++ % variants.length] as string;
    JSON.stringify(JSON.parse(page), null, 2);
  },
});

Deno.bench({
  name: "pageRules, a different page each time",
  group: "publish-100kb-different-pages",
  fn() {
    pageRules(variants[next++ % variants.length] as string);
  },
});

Deno.bench({
  name: "rules before collecting (10d1b2e), first failure (baseline)",
  group: "collect-vs-first-100kb",
  baseline: true,
  fn() {
    pageRulesBefore(content);
  },
});

Deno.bench({
  name: "pageRules, stopping at the first problem",
  group: "collect-vs-first-100kb",
  fn() {
    pageRules(content, 1);
  },
});

Deno.bench({
  name: "pageRules, collecting every problem",
  group: "collect-vs-first-100kb",
  fn() {
    pageRules(content);
  },
});

const markdownPage = realisticPage(0, true);

Deno.bench({
  name: "JSON.parse + JSON.stringify (baseline), markdown page",
  group: "publish-100kb-markdown",
  baseline: true,
  fn() {
    JSON.stringify(JSON.parse(markdownPage), null, 2);
  },
});

Deno.bench({
  name: "rules before collecting (10d1b2e), markdown page",
  group: "publish-100kb-markdown",
  fn() {
    pageRulesBefore(markdownPage);
  },
});

Deno.bench({
  name: "pageRules, markdown page (every link through the tokenizer)",
  group: "publish-100kb-markdown",
  fn() {
    pageRules(markdownPage);
  },
});
