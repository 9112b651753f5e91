/**
 * The refusals of the review concern, as values with one `code` each. The
 * review flows know nothing of HTTP: the one error mapping
 * (`lib/http/error_response.ts`) writes their statuses and bodies.
 *
 * @module
 */

import type { ReviewField } from "../wire/review.ts";

/** One page refused by the page rules, in a review's 422. */
export interface ReviewPageProblems {
  /** The page's path. */
  path: string;
  /** The first problem's JSON Pointer. */
  at: string;
  /** The first problem's reason. */
  reason: string;
  /** Every problem found, up to 50, in document order. */
  problems: { at: string; reason: string }[];
}

/**
 * A page refused by the page rules, as a review's 422 lists it: the first
 * problem, then every one.
 *
 * @param path the page's path
 * @param error the page rules' refusal (a `PageRuleError`)
 * @returns the page's entry
 * @example
 * ```ts
 * import { refusedPage } from "./review_error.ts";
 * import assert from "node:assert/strict";
 *
 * const problem = { at: "/title", code: "markup" };
 * const page = refusedPage("src/content/pages/en/home.json", {
 *   ...problem,
 *   problems: [problem],
 * });
 * assert.deepEqual(page.problems, [{ at: "/title", reason: "markup" }]);
 * ```
 */
export function refusedPage(
  path: string,
  error: {
    at: string;
    code: string;
    problems: readonly { at: string; code: string }[];
  },
): ReviewPageProblems {
  return {
    path,
    at: error.at,
    reason: error.code,
    problems: error.problems.map(({ at, code }) => ({ at, reason: code })),
  };
}

/**
 * Why a review flow refused:
 *
 * - `not_found`: no open review has that id (or the token's review is
 *   closed);
 * - `conflict`: fields changed on both sides (`fields`), or a page's
 *   version is not the current one (`path`);
 * - `busy`: another publish or close of it is under way;
 * - `invalid_content`: pages that break the page rules (`pages`);
 * - `unchanged`: no page of the review changes anything;
 * - `too_many_reviews`: the site has as many open reviews as it keeps;
 * - `not_the_author`: closing another editor's review without being a
 *   publisher;
 * - `no_preview_secret`: preview links cannot be made on this host;
 * - `bad_token`: a preview token altered, expired or signed under another
 *   secret.
 */
export type ReviewErrorCode =
  | "not_found"
  | "conflict"
  | "busy"
  | "invalid_content"
  | "unchanged"
  | "too_many_reviews"
  | "not_the_author"
  | "no_preview_secret"
  | "bad_token";

/** What a {@linkcode ReviewError} may carry besides its code. */
export interface ReviewErrorOptions {
  /** The fields changed on both sides (`conflict` at publish). */
  readonly fields?: readonly ReviewField[] | undefined;
  /** The page whose version is not the current one (`conflict` at send). */
  readonly path?: string | undefined;
  /** The pages refused (`invalid_content`). */
  readonly pages?: readonly ReviewPageProblems[] | undefined;
}

/**
 * A refusal of the review concern.
 *
 * @example
 * ```ts
 * import { ReviewError } from "./review_error.ts";
 * import assert from "node:assert/strict";
 *
 * const error = new ReviewError("conflict", "both changed /title", {
 *   fields: [{ path: "src/content/pages/en/home.json", pointer: "/title" }],
 * });
 * assert.equal(error.fields?.length, 1);
 * assert.ok(error instanceof Error);
 * ```
 */
export class ReviewError extends Error {
  /** Why the flow refused. */
  readonly code: ReviewErrorCode;
  /** The fields changed on both sides, for a conflict at publish. */
  readonly fields: readonly ReviewField[] | undefined;
  /** The page whose version is stale, for a conflict at send. */
  readonly path: string | undefined;
  /** The pages refused by the page rules. */
  readonly pages: readonly ReviewPageProblems[] | undefined;

  /**
   * Creates the error.
   *
   * @param code why the flow refused
   * @param message what happened, for the log
   * @param options the fields, the path or the pages, when the code has them
   */
  constructor(
    code: ReviewErrorCode,
    message: string,
    options: ReviewErrorOptions = {},
  ) {
    super(message);
    this.name = "ReviewError";
    this.code = code;
    this.fields = options.fields;
    this.path = options.path;
    this.pages = options.pages;
  }
}
