/**
 * The markup allowlist as the tests expect it, written here apart from the
 * rule in `lib/pages/markup_rule.ts` so that a change to the rule shows.
 *
 * @module
 */

/** The tags a page string may hold; `a` alone may carry `href` and `title`. */
export const ALLOWED_TAGS: ReadonlySet<string> = new Set([
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
