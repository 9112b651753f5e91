/**
 * The shape of the history requests' input: the `commit` query parameter
 * of `/api/content` and the `before` one of `/api/history`, each a commit
 * id of 40 lowercase hex digits, at most once.
 *
 * @module
 */

import { badRequest } from "./http_error.ts";

/** A commit id: 40 lowercase hex digits. */
export const COMMIT_ID = /^[0-9a-f]{40}$/;

/**
 * An optional commit-id query parameter.
 *
 * @param request the incoming request
 * @param name the parameter's name
 * @returns the commit id, or `undefined` when absent
 * @throws {HttpError} 400 when repeated or not 40 lowercase hex digits
 * @example
 * ```ts
 * import { commitParameter } from "./history_request.ts";
 * import assert from "node:assert/strict";
 *
 * const id = "0123456789abcdef0123456789abcdef01234567";
 * const request = new Request(`https://site.example/api/content?commit=${id}`);
 * assert.equal(commitParameter(request), id);
 * ```
 */
export function commitParameter(
  request: Request,
  name: "commit" | "before" = "commit",
): string | undefined {
  const values = new URL(request.url).searchParams.getAll(name);
  if (values.length === 0) return undefined;
  const [value] = values;
  if (values.length !== 1 || value === undefined || !COMMIT_ID.test(value)) {
    throw badRequest(`${name} is not one commit id of 40 lowercase hex digits`);
  }
  return value;
}
