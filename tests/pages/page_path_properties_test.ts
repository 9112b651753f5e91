/**
 * The page path rule on any string: refused, or a whitelisted path that
 * stays under `src/content/pages/{locale}/` however it is resolved, both as
 * received and once decoded by `URLSearchParams` (as `/api/content` reads
 * its query).
 */
import assert from "node:assert/strict";
import { posix } from "node:path";
import fc from "fast-check";
import { isPagePath } from "../../lib/pages/page_path.ts";
import { propertyRuns } from "../support/runs.ts";
import { PAGE_PATH_MAX } from "../../lib/limits.ts";

const LOCALES = ["en", "fr", "pt-br"];
const WHITELIST =
  /^src\/content\/pages\/(?:en|fr|pt-br)\/[a-z0-9]+(?:-[a-z0-9]+)*(?:\/[a-z0-9]+(?:-[a-z0-9]+)*){0,3}\.json$/;

/** Strings made of the pieces paths and attacks are made of. */
const candidates = fc.oneof(
  fc.string({ unit: "binary", maxLength: 140 }),
  fc.array(
    fc.constantFrom(
      "src/content/pages/",
      "en",
      "fr",
      "pt-br",
      "EN",
      "/",
      "//",
      "\\",
      ".",
      "..",
      "%2e",
      "%2E",
      "%2f",
      "%5c",
      "%00",
      "\u0000",
      "home",
      "a",
      "-",
      "about-us",
      ".json",
      ".JSON",
      " ",
      "\u2215",
      "\uff0e",
      "é",
      "e\u0301",
      "~",
      "?",
      "#",
      "+",
    ),
    { maxLength: 14 },
  ).map((pieces) => pieces.join("")),
);

/** Paths built like real ones, each piece sometimes replaced by an attack. */
const piece = (valid: string[], hostile: string[]) =>
  fc.oneof(
    { weight: 4, arbitrary: fc.constantFrom(...valid) },
    { weight: 1, arbitrary: fc.constantFrom(...hostile) },
  );
const shaped = fc.tuple(
  piece(["src/content/pages/"], [
    "src/content/pages//",
    "src/content/../",
    "./src/content/pages/",
    "/src/content/pages/",
  ]),
  piece(["en", "fr", "pt-br"], ["..", "EN", "e%6e", "de", "", "en/.."]),
  fc.array(
    piece(["home", "about-us", "a1", "x"], [
      "..",
      ".",
      "",
      "a--b",
      "-a",
      "A",
      "%2e%2e",
      "a b",
      "a\\b",
    ]),
    { minLength: 1, maxLength: 5 },
  ),
  piece([".json"], [".json/", ".JSON", ".json%00", ".json.", ""]),
).map(([prefix, locale, segments, suffix]) =>
  `${prefix}${locale}/${segments.join("/")}${suffix}`
);
const paths = fc.oneof(candidates, shaped);

function check(path: string): boolean {
  if (!isPagePath(path, LOCALES)) return false;
  assert.ok(path.length <= PAGE_PATH_MAX, path);
  assert.match(path, WHITELIST);
  // However a file system or URL resolver reads it, it stays in its folder.
  assert.equal(posix.normalize(path), path);
  const resolved = posix.resolve("/site", path);
  assert.ok(resolved.startsWith("/site/src/content/pages/"), resolved);
  assert.equal(
    new URL(path, "https://site.example/").pathname,
    `/${path}`,
  );
  return true;
}

Deno.test("the page path rule refuses any string or keeps it under its locale folder", () => {
  let accepted = 0;
  fc.assert(
    fc.property(paths, (path) => {
      if (check(path)) accepted++;
      // Decoded once, as the content route's query is.
      const decoded = new URLSearchParams(`path=${path}`).get("path") ?? "";
      if (check(decoded)) accepted++;
    }),
    { numRuns: propertyRuns(2_000) },
  );
  assert.ok(accepted > 100, `${accepted} paths accepted`);
});
