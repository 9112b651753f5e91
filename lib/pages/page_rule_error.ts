/**
 * The error of the page rules, in a module of its own so that the one
 * error mapping can know it without loading the rules (and their HTML
 * tokenizers) before a page is first published.
 *
 * @module
 */

/**
 * Why a page was refused: a stable code beside the place.
 *
 * - `json`: not JSON; `shape`: a value of the wrong type (the top level not
 *   an object, an image side not an integer, a value JSON has not);
 * - `depth`: nested too deep; `size`: too many values;
 * - `key`: a key empty, too long, reserved, holding markup, or read by HTML
 *   as an event handler or `style`; `duplicate_key`: a key written twice or
 *   equal to another after sanitising;
 * - `id`: an id that is not valid; `duplicate_id`: an id used twice;
 * - `media`: an image name, side or alt not allowed; `link`: a link not
 *   allowed (under a link key, in rich text, in a markdown target, or a
 *   string that is itself a `javascript:` URL under any key); `markup`:
 *   markup outside the allowlist; `number`: a number too large to write;
 * - `template`: template syntax (`{{`, `{%`, `{#`) in a key or string, when
 *   the site refuses it (`templateSyntax: "refuse"`).
 */
export type PageRuleCode =
  | "json"
  | "shape"
  | "depth"
  | "size"
  | "key"
  | "duplicate_key"
  | "id"
  | "duplicate_id"
  | "media"
  | "link"
  | "markup"
  | "number"
  | "template";

/** The former name of {@linkcode PageRuleCode}. */
export type PageRuleReason = PageRuleCode;

/** One problem of a page: where, its code, and in words what is wrong. */
export interface PageProblem {
  /** A JSON Pointer (RFC 6901) into the page as submitted, `""` for all of it. */
  readonly at: string;
  /** The stable code. */
  readonly code: PageRuleCode;
  /**
   * What is wrong, naming it (the tag, attribute, character, pattern or
   * number), for `editor check` and logs; never sent in an HTTP answer.
   */
  readonly detail: string;
}

/**
 * A page that breaks the page rules: every problem found, in document order
 * (at most `PAGE_PROBLEMS_MAX` of `lib/limits.ts`), the first one's place as `at` and
 * its code as `code`. The message says it in words, for logs.
 *
 * @example
 * ```ts
 * import { PageRuleError, pageRules } from "./page_rules.ts";
 * import assert from "node:assert/strict";
 *
 * assert.throws(
 *   () => pageRules('{"a":{"onclick":"x"},"b":"<h3>Hi</h3>"}'),
 *   (error) =>
 *     error instanceof PageRuleError && error.at === "/a/onclick" &&
 *     error.code === "key" && error.problems.length === 2 &&
 *     error.problems[1]?.detail.includes("<h3>") === true,
 * );
 * ```
 */
export class PageRuleError extends Error {
  /** A JSON Pointer (RFC 6901) to the first failing place. */
  readonly at: string;
  /** The stable code of the first problem. */
  readonly code: PageRuleCode;
  /** Every problem found, in document order, the first one included. */
  readonly problems: readonly PageProblem[];

  /**
   * Creates the error, from one problem or from the problems found.
   *
   * @param at a JSON Pointer into the page as submitted (of the first problem)
   * @param code the stable code (of the first problem)
   * @param message what went wrong, in words
   * @param problems every problem, in document order; default the one named
   */
  constructor(
    at: string,
    code: PageRuleCode,
    message: string,
    problems?: readonly PageProblem[],
  ) {
    super(message);
    this.name = "PageRuleError";
    this.at = at;
    this.code = code;
    this.problems = problems !== undefined && problems.length > 0
      ? problems
      : [{ at, code, detail: message }];
  }
}
