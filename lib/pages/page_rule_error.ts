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
 *   allowed; `markup`: markup outside the allowlist; `number`: a number too
 *   large to write.
 */
export type PageRuleReason =
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
  | "number";

/**
 * A page that breaks the page rules: where (`at`, a JSON Pointer into the
 * page as submitted, `""` for the whole page) and why (`reason`). The
 * message says it in words, for logs.
 *
 * @example
 * ```ts
 * import { PageRuleError, pageRules } from "./page_rules.ts";
 * import assert from "node:assert/strict";
 *
 * assert.throws(
 *   () => pageRules('{"a":{"onclick":"x"}}'),
 *   (error) =>
 *     error instanceof PageRuleError && error.at === "/a/onclick" &&
 *     error.reason === "key",
 * );
 * ```
 */
export class PageRuleError extends Error {
  /** A JSON Pointer (RFC 6901) to the first failing place. */
  readonly at: string;
  /** The stable reason code. */
  readonly reason: PageRuleReason;

  /**
   * Creates the error.
   *
   * @param at a JSON Pointer into the page as submitted
   * @param reason the stable reason code
   * @param message what went wrong, in words
   */
  constructor(at: string, reason: PageRuleReason, message: string) {
    super(message);
    this.name = "PageRuleError";
    this.at = at;
    this.reason = reason;
  }
}
