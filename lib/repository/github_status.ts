/**
 * What a GitHub answer that is not a success means for a repository call: a
 * pure table from the status (and whether the call writes, and whether the
 * answer says a rate limit was hit) to the repository error code.
 *
 * @module
 */

/** What a failed GitHub answer becomes. */
export type GitHubFailure =
  | "unavailable"
  | "unauthorized"
  | "conflict"
  | "not_found";

/** What the table looks at in a failed answer. */
export interface GitHubAnswer {
  /** The HTTP status. */
  status: number;
  /** GitHub's `message`, or `""`. */
  message: string;
  /**
   * Whether the answer says a rate limit was hit (`x-ratelimit-remaining:
   * 0`, `retry-after`, or a rate-limit message).
   */
  rateLimited: boolean;
  /** Whether the call was a write. */
  writing: boolean;
}

/**
 * The repository error of a failed GitHub answer: a rate limit (429, or 403
 * with a rate-limit sign) is `unavailable`; 401 and 403 `unauthorized`; on
 * a write, 409 and a 422 about the `sha` are a `conflict` and 404 is
 * `not_found`; anything else `unavailable`.
 *
 * @param answer the status, message and signs of the answer
 * @returns the failure kind
 * @example
 * ```ts
 * import { failureOf } from "./github_status.ts";
 * import assert from "node:assert/strict";
 *
 * assert.equal(
 *   failureOf({ status: 409, message: "", rateLimited: false, writing: true }),
 *   "conflict",
 * );
 * ```
 */
export function failureOf(answer: GitHubAnswer): GitHubFailure {
  const { status, message, rateLimited, writing } = answer;
  if (status === 429 || (status === 403 && rateLimited)) return "unavailable";
  if (status === 401 || status === 403) return "unauthorized";
  if (writing) {
    if (status === 409) return "conflict";
    if (status === 422 && /\bsha\b/i.test(message)) return "conflict";
    if (status === 404) return "not_found";
  }
  return "unavailable";
}
