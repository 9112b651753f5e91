/**
 * The one place where failures become responses: the refusals of `access/`
 * and the domain errors of `pages/`, `images/`, `repository/` and the form
 * parser become their HTTP answer here and nowhere else, the French 429
 * messages included.
 *
 * @module
 */

import {
  forbidden,
  HttpError,
  serviceUnavailable,
  unauthorized,
} from "./http_error.ts";
import { jsonResponse } from "./json_response.ts";
import { BodyIdleError, FormError } from "./body_errors.ts";
import { PageRuleError } from "../pages/page_rule_error.ts";
import { ImageFormatError } from "../images/image_format_error.ts";
import { ImageNameError } from "../images/image_name.ts";
import {
  ConflictError,
  RepositoryError,
} from "../repository/repository_errors.ts";
import { AccessError } from "../access/access_error.ts";
import { ReviewError } from "../review/review_error.ts";

/** A failure turned into its response, with what the log line needs. */
export interface MappedError {
  /** The response to send. */
  response: Response;
  /** The error code, for the log. */
  code: string;
  /** The internal detail, for the log only. */
  detail: string;
}

/**
 * The HTTP answer of a thrown value: an `HttpError` as it is; an access
 * refusal 429 (a spent budget, busy key checks, with `retry-after`), 401
 * `unauthorized` (no session), 403 `forbidden` (an author publishing) or
 * 503 `unavailable` (no KV); a page that
 * breaks the page rules 422 `invalid_content` with `at` and `reason` (the
 * first problem) and `problems` (every problem found, up to 50, each `at`
 * and `reason`: the details stay in the log); bytes
 * that are not an accepted image 415 `unsupported_format` with `kind`; an
 * upload name that cannot be stored 400; an upload form over its cap 413 or
 * unreadable 400; a body that stopped arriving 408; a review flow's
 * refusal by its code (404, 409 with `fields` or `path`, 422 with `pages`,
 * 403, 401, 503); a repository conflict 409; a repository failure 502 with
 * its code; anything else a generic 500 whose detail stays in the log.
 *
 * @param error what was thrown
 * @returns the error to answer with
 * @example
 * ```ts
 * import { toHttpError } from "./error_response.ts";
 * import { PageRuleError } from "../pages/page_rules.ts";
 * import assert from "node:assert/strict";
 *
 * const answer = toHttpError(new PageRuleError("/a", "key", "reserved key"));
 * assert.equal(answer.status, 422);
 * assert.deepEqual(answer.body, {
 *   error: "invalid_content",
 *   at: "/a",
 *   reason: "key",
 *   problems: [{ at: "/a", reason: "key" }],
 * });
 * ```
 */
export function toHttpError(error: unknown): HttpError {
  if (error instanceof HttpError) return error;
  if (error instanceof AccessError) return accessAnswer(error);
  if (error instanceof PageRuleError) {
    return new HttpError(
      422,
      {
        error: "invalid_content",
        at: error.at,
        reason: error.code,
        problems: error.problems.map(({ at, code }) => ({ at, reason: code })),
      },
      { detail: error.message },
    );
  }
  if (error instanceof ImageFormatError) {
    return new HttpError(
      415,
      { error: "unsupported_format", kind: error.code },
      { detail: error.message },
    );
  }
  if (error instanceof ImageNameError) {
    return new HttpError(400, { error: "bad_request" }, {
      detail: error.message,
    });
  }
  if (error instanceof FormError) {
    return error.code === "too_large"
      ? new HttpError(413, { error: "too_large" }, { detail: error.message })
      : new HttpError(400, { error: "bad_request" }, { detail: error.message });
  }
  if (error instanceof BodyIdleError) {
    return new HttpError(408, { error: "request_timeout" }, {
      detail: error.message,
    });
  }
  if (error instanceof ReviewError) return reviewAnswer(error);
  if (error instanceof ConflictError) {
    return new HttpError(409, { error: "conflict" }, { detail: error.message });
  }
  if (error instanceof RepositoryError) {
    const wait = error.retryAfterSeconds;
    return new HttpError(502, { error: error.code }, {
      detail: error.message,
      ...(wait === undefined
        ? {}
        : { headers: { "retry-after": String(wait) } }),
    });
  }
  let detail: string;
  try {
    detail = error instanceof Error
      ? (error.stack ?? error.message)
      : String(error);
  } catch {
    detail = "a thrown value that cannot be printed";
  }
  return new HttpError(500, { error: "internal" }, { detail });
}

/** The answer of a review flow's refusal, by its code. */
function reviewAnswer(error: ReviewError): HttpError {
  const detail = error.message;
  switch (error.code) {
    case "not_found":
      return new HttpError(404, { error: "not_found" }, { detail });
    case "conflict":
      return new HttpError(409, {
        error: "conflict",
        ...(error.fields === undefined ? {} : { fields: error.fields }),
        ...(error.path === undefined ? {} : { path: error.path }),
      }, { detail });
    case "busy":
      return new HttpError(409, { error: "conflict" }, {
        detail,
        code: "busy",
      });
    case "invalid_content":
      return new HttpError(422, {
        error: "invalid_content",
        pages: error.pages ?? [],
      }, { detail });
    case "unchanged":
      return new HttpError(400, { error: "bad_request" }, {
        detail,
        code: "unchanged",
      });
    case "too_many_reviews":
      return new HttpError(409, { error: "too_many_reviews" }, { detail });
    case "not_the_author":
      return forbidden(detail);
    case "no_preview_secret":
      return serviceUnavailable(detail);
    case "bad_token":
      return unauthorized(detail);
  }
}

/** The answer of an access refusal, by its code. */
function accessAnswer(error: AccessError): HttpError {
  const detail = error.message;
  switch (error.code) {
    case "rate_limited": {
      const seconds = error.retryAfterSeconds ?? 60;
      const minutes = Math.max(1, Math.ceil(seconds / 60));
      const lead = error.budget === "auth"
        ? "Trop de tentatives"
        : "Trop de requêtes";
      return new HttpError(
        429,
        { error: `${lead}. Réessayez dans ${minutes} min.` },
        {
          detail,
          headers: { "retry-after": String(seconds) },
          code: "rate_limited",
        },
      );
    }
    case "key_checks_busy":
      return new HttpError(
        429,
        { error: "Trop de tentatives. Réessayez dans 1 min." },
        {
          detail,
          headers: { "retry-after": String(error.retryAfterSeconds ?? 10) },
          code: "key_checks_busy",
        },
      );
    case "no_session":
      return unauthorized(detail);
    case "kv_unavailable":
      return serviceUnavailable(detail);
    case "forbidden":
      return forbidden(detail);
  }
}

/**
 * Maps a thrown value to its response (see {@linkcode toHttpError}).
 *
 * @param error what was thrown
 * @returns the response and the log fields
 */
export function errorResponse(error: unknown): MappedError {
  const answer = toHttpError(error);
  return {
    response: jsonResponse(answer.status, answer.body, answer.headers),
    code: answer.code,
    detail: answer.message,
  };
}
