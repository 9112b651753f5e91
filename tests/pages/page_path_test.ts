import assert from "node:assert/strict";
import { isPagePath } from "../../lib/pages/page_path.ts";
import { corpusLines } from "../support/corpora.ts";
import { PAGE_PATH_MAX } from "../../lib/limits.ts";

const LOCALES = ["en", "fr"] as const;

function page(rest: string, lang = "en"): string {
  return `src/content/pages/${lang}/${rest}.json`;
}

Deno.test("isPagePath accepts a page of one to four segments in a declared locale", () => {
  for (
    const path of [
      page("index"),
      page("about", "fr"),
      page("blog/2024/spring-sale"),
      page("a/b/c/d"),
      page("x9-y8-z7"),
    ]
  ) {
    assert.equal(isPagePath(path, LOCALES), true, path);
  }
});

Deno.test("isPagePath refuses a locale the site does not declare", () => {
  assert.equal(isPagePath(page("index", "de"), LOCALES), false);
  assert.equal(isPagePath(page("index", "EN"), LOCALES), false);
  assert.equal(isPagePath(page("index", "en-us"), LOCALES), false);
  assert.equal(isPagePath(page("index", ""), LOCALES), false);
  assert.equal(isPagePath(page("index"), []), false);
});

Deno.test("isPagePath refuses five segments", () => {
  assert.equal(isPagePath(page("a/b/c/d/e"), LOCALES), false);
});

Deno.test("isPagePath refuses segments outside lower-case words joined by single hyphens", () => {
  for (
    const rest of [
      "",
      "About",
      "-about",
      "about-",
      "a--b",
      "a_b",
      "a.b",
      "a b",
      " about",
      "about ",
      "a//b",
      "a/",
      "/a",
      "é",
      "ａbout",
      "about\u0000",
      "about\n",
    ]
  ) {
    assert.equal(isPagePath(page(rest), LOCALES), false, JSON.stringify(rest));
  }
});

Deno.test("isPagePath refuses anything but the exact prefix and suffix", () => {
  for (
    const path of [
      "/src/content/pages/en/index.json",
      "./src/content/pages/en/index.json",
      "src/content/pages/en/index.JSON",
      "src/content/pages/en/index.json ",
      "src/content/pages/en/index.json/",
      "src/content/pages/en/index.json?x=1",
      "src/content/pages/en/index.jsonx",
      "src/content/pages/en/index",
      "src/content/pages/en.json",
      "src/content/pages/index.json",
      "src/content/Pages/en/index.json",
      "src\\content\\pages\\en\\index.json",
      "src/content/pages//en/index.json",
      "src/content/pages/en//index.json",
      "",
    ]
  ) {
    assert.equal(isPagePath(path, LOCALES), false, JSON.stringify(path));
  }
});

Deno.test("isPagePath refuses traversal, raw or percent-encoded", () => {
  for (
    const path of [
      "src/content/pages/en/../../../deno.json",
      "src/content/pages/en/../fr/index.json",
      "src/content/pages/en/./index.json",
      "src/content/pages/en/%2e%2e/index.json",
      "src/content/pages/en/%2E%2E%2Findex.json",
      "src/content/pages/en/..%2findex.json",
      "src/content/pages/en/..\\index.json",
      "src/content/pages/../../.git/config/x.json",
    ]
  ) {
    assert.equal(isPagePath(path, LOCALES), false, path);
  }
});

Deno.test("isPagePath refuses every traversal corpus line in the page part unless it is a literal slug", async () => {
  let lines = 0;
  const accepted: string[] = [];
  for await (const line of corpusLines("traversal/payloadsallthethings/")) {
    if (line === "") continue;
    lines++;
    for (const payload of [line, line.replaceAll("{FILE}", "etc/passwd")]) {
      if (isPagePath(page(payload), LOCALES)) accepted.push(payload);
      assert.equal(
        isPagePath(`src/content/pages/en/${payload}`, LOCALES),
        false,
        payload,
      );
    }
  }
  assert.ok(lines > 20_000, `only ${lines} lines read`);
  // What passes names a file literally: no dot, percent, backslash or space.
  for (const payload of accepted) {
    assert.match(payload, /^[a-z0-9]+(?:[-/][a-z0-9]+)*$/);
  }
});

Deno.test("isPagePath accepts 120 characters and refuses 121", () => {
  assert.equal(PAGE_PATH_MAX, 120);
  const base = page("").length; // the path with an empty page part
  const longest = page("a".repeat(PAGE_PATH_MAX - base));
  assert.equal(longest.length, 120);
  assert.equal(isPagePath(longest, LOCALES), true);
  const tooLong = page("a".repeat(PAGE_PATH_MAX - base + 1));
  assert.equal(isPagePath(tooLong, LOCALES), false);
});

Deno.test("isPagePath matches a locale exactly, not as a prefix of another", () => {
  assert.equal(isPagePath(page("index", "en-gb"), ["en"]), false);
  assert.equal(isPagePath(page("index", "en-gb"), ["en-gb"]), true);
  assert.equal(isPagePath("src/content/pages/en/gb/index.json", ["en"]), true);
  assert.equal(isPagePath("src/content/pages/engb/index.json", ["en"]), false);
});
