/**
 * The shape of the review routes' input: the query of `GET` and `DELETE
 * /api/reviews`, and the JSON bodies of `POST /api/reviews` and of its
 * `publish`, `schedule` and `link`, each checked against its wire schema
 * (`lib/wire/review.ts`).
 *
 * @module
 */

import { badRequest, tooLarge } from "./http_error.ts";
import { isJsonRequest, parseJsonBytes } from "./json_body.ts";
import { utf8Length } from "./page_request.ts";
import { isPagePath } from "../pages/page_path.ts";
import { loadReviewWire } from "../wire/load.ts";
import type {
  ReviewBody,
  ReviewLinkBody,
  ReviewPublishBody,
  ReviewScheduleBody,
} from "../wire/review.ts";
import { REVIEW_ID } from "../wire/names.ts";
import { CONTENT_MAX } from "../limits.ts";

/** What a `GET /api/reviews` asks: the list, one review, or a preview. */
export type ReviewQuery =
  | { kind: "list" }
  | { kind: "id"; id: string }
  | { kind: "token"; token: string };

/** Longest preview token read from a query, in characters. */
const TOKEN_MAX = 200;

/**
 * The query of `GET /api/reviews`: nothing (the list), `id`, or `token`.
 *
 * @example
 * ```ts
 * import { reviewQuery } from "./review_request.ts";
 * import assert from "node:assert/strict";
 *
 * const id = "0123456789abcdef0123456789abcdef";
 * assert.deepEqual(
 *   reviewQuery(new Request(`https://site.example/api/reviews?id=${id}`)),
 *   { kind: "id", id },
 * );
 * ```
 *
 * @param request the incoming request
 * @returns what it asks
 * @throws {HttpError} 400 when `id` or `token` is repeated, both are given,
 *   or `id` is not 32 lowercase hex digits
 */
export function reviewQuery(request: Request): ReviewQuery {
  const query = new URL(request.url).searchParams;
  const ids = query.getAll("id");
  const tokens = query.getAll("token");
  if (ids.length + tokens.length > 1) {
    throw badRequest("expected at most one of id and token");
  }
  const [token] = tokens;
  if (token !== undefined) {
    // Its form is the token check's (401), past a length no token has.
    if (token.length > TOKEN_MAX) throw badRequest("token too long");
    return { kind: "token", token };
  }
  const [id] = ids;
  if (id === undefined) return { kind: "list" };
  return { kind: "id", id: checkedId(id) };
}

/**
 * The `id` query parameter of `DELETE /api/reviews`.
 *
 * @param request the incoming request
 * @returns the review's id
 * @throws {HttpError} 400 when missing, repeated or malformed
 */
export function reviewIdParameter(request: Request): string {
  const ids = new URL(request.url).searchParams.getAll("id");
  const [id] = ids;
  if (ids.length !== 1 || id === undefined) {
    throw badRequest(`expected one id parameter, got ${ids.length}`);
  }
  return checkedId(id);
}

function checkedId(id: string): string {
  if (!REVIEW_ID.test(id)) {
    throw badRequest("id is not 32 lowercase hex digits");
  }
  return id;
}

/** A JSON body, as an object, or 400. */
function jsonObject(request: Request, bytes: Uint8Array): object {
  if (!isJsonRequest(request)) throw badRequest("body is not application/json");
  const body = parseJsonBytes(bytes);
  if (typeof body !== "object" || body === null || Array.isArray(body)) {
    throw badRequest("body is not a JSON object");
  }
  return body;
}

/** A body checked against a schema, or 400 naming the first issue. */
function shaped<T>(
  body: unknown,
  schema: {
    safeParse(value: unknown): {
      success: boolean;
      data?: T;
      error?: { issues: { path: PropertyKey[]; message: string }[] };
    };
  },
  what: string,
): T {
  const shape = schema.safeParse(body);
  if (!shape.success || shape.data === undefined) {
    const [issue] = shape.error?.issues ?? [];
    throw badRequest(
      `body is not ${what}: ${issue?.path.join(".") || "body"}: ${
        issue?.message ?? "invalid"
      }`,
    );
  }
  return shape.data;
}

/**
 * The body of `POST /api/reviews`, received within its cap: each page's
 * content cap first (a size check), then the shape, the paths' whitelist,
 * and each path once.
 *
 * @param request the incoming request, for its media type
 * @param bytes the body
 * @param locales the site's locales
 * @returns the message and the pages
 * @throws {HttpError} 413 when a page's content is over 100,000 bytes; 400
 *   for an unreadable body, a missing field, 0 or over 20 pages, a path
 *   off the whitelist or given twice
 */
export async function reviewCreateRequest(
  request: Request,
  bytes: Uint8Array,
  locales: readonly string[],
): Promise<ReviewBody> {
  const body = jsonObject(request, bytes) as { pages?: unknown };
  if (Array.isArray(body.pages)) {
    for (const page of body.pages) {
      const content = (page as { content?: unknown } | null)?.content;
      if (typeof content === "string" && utf8Length(content) > CONTENT_MAX) {
        throw tooLarge(`a page's content is over ${CONTENT_MAX} bytes`);
      }
    }
  }
  const { reviewBody } = await loadReviewWire();
  const checked = shaped(body, reviewBody, "a review");
  const seen = new Set<string>();
  for (const { path } of checked.pages) {
    if (!isPagePath(path, locales)) {
      throw badRequest("a page path is outside the whitelist");
    }
    if (seen.has(path)) throw badRequest("a page path is given twice");
    seen.add(path);
  }
  return checked;
}

/**
 * The body of `POST /api/reviews/publish`: `{ id }`, and `settle` after a
 * clash.
 *
 * @param request the incoming request
 * @param bytes the body
 * @returns the id, and how its clashes are settled
 * @throws {HttpError} 400 for anything else
 */
export async function reviewPublishRequest(
  request: Request,
  bytes: Uint8Array,
): Promise<ReviewPublishBody> {
  const { reviewPublishBody } = await loadReviewWire();
  return shaped(
    jsonObject(request, bytes),
    reviewPublishBody,
    "{ id, settle? }",
  );
}

/**
 * The body of `POST /api/reviews/schedule`: `{ id, at }`.
 *
 * @param request the incoming request
 * @param bytes the body
 * @returns the id and the time as sent (or `null`)
 * @throws {HttpError} 400 for anything else
 */
export async function reviewScheduleRequest(
  request: Request,
  bytes: Uint8Array,
): Promise<ReviewScheduleBody> {
  const { reviewScheduleBody } = await loadReviewWire();
  return shaped(jsonObject(request, bytes), reviewScheduleBody, "{ id, at }");
}

/**
 * The body of `POST /api/reviews/link`: `{ id, hours, page? }`.
 *
 * @param request the incoming request
 * @param bytes the body
 * @returns the id, the hours and the page
 * @throws {HttpError} 400 for anything else
 */
export async function reviewLinkRequest(
  request: Request,
  bytes: Uint8Array,
): Promise<ReviewLinkBody> {
  const { reviewLinkBody } = await loadReviewWire();
  return shaped(jsonObject(request, bytes), reviewLinkBody, "{ id, hours }");
}
