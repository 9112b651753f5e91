/**
 * The markup allowlist as the tests expect it, written here apart from the
 * rule in `lib/pages/markup_rule.ts` so that a change to the rule shows.
 *
 * @module
 */

/** The phrasing tags a page string may hold, `br` aside. */
export const PHRASING_TAGS: ReadonlySet<string> = new Set([
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
]);

/** The tags that may stand at the top level or in a `li`. */
export const FLOW_TAGS: ReadonlySet<string> = new Set([
  ...PHRASING_TAGS,
  "br",
  "p",
  "ul",
  "ol",
]);

/** The tags a page string may hold; `a` alone may carry `href` and `title`. */
export const ALLOWED_TAGS: ReadonlySet<string> = new Set([...FLOW_TAGS, "li"]);
