/**
 * HTTP failures: the status and body a failure is answered with. Route code
 * throws them; the domain folders throw their own errors, which only
 * `error_response.ts` turns into these and into responses.
 *
 * @module
 */

/** What an {@linkcode HttpError} carries beside its status and body. */
export interface HttpErrorOptions {
  /** What went wrong, for the server log only. */
  detail: string;
  /** Extra response headers (`retry-after`, `allow`, `set-cookie`). */
  headers?: Readonly<Record<string, string>>;
  /**
   * The code written in the log when the body's `error` is a sentence (429,
   * the auth route's 401).
   */
  code?: string;
}

/**
 * An expected failure with the status and JSON body it is answered with.
 *
 * @example
 * ```ts
 * import { HttpError } from "./http_error.ts";
 * import assert from "node:assert/strict";
 *
 * const error = new HttpError(429, { error: "Trop de requêtes." }, {
 *   detail: "budget spent",
 *   headers: { "retry-after": "60" },
 *   code: "rate_limited",
 * });
 * assert.equal(error.code, "rate_limited");
 * assert.ok(error instanceof Error);
 * assert.equal(error.message, "budget spent");
 * ```
 */
export class HttpError {
  /** Always `"HttpError"`. */
  readonly name = "HttpError";
  /** What went wrong, for the server log only. */
  readonly message: string;
  /** HTTP status of the answer. */
  readonly status: number;
  /** JSON body of the answer: never carries technical detail. */
  readonly body: Readonly<Record<string, unknown>>;
  /** Extra response headers (`retry-after`, `allow`, `set-cookie`). */
  readonly headers: Readonly<Record<string, string>>;
  readonly #code: string | undefined;

  /**
   * Creates the error.
   *
   * @param status HTTP status
   * @param body JSON body sent to the client
   * @param options the log detail, extra headers and log code
   */
  constructor(
    status: number,
    body: Readonly<Record<string, unknown>>,
    options: HttpErrorOptions,
  ) {
    this.message = options.detail;
    this.status = status;
    this.body = body;
    this.headers = options.headers ?? {};
    this.#code = options.code;
  }

  /** The error code for the log line: the given code, else the body's. */
  get code(): string {
    if (this.#code !== undefined) return this.#code;
    return typeof this.body.error === "string"
      ? this.body.error
      : String(this.status);
  }
}

// An `HttpError` is an `Error` (`instanceof Error`, with its name and
// message) that does not run the `Error` constructor: it is an expected
// answer, thrown for every refused request of a flood, and the stack trace
// that constructor captures costs about 2 µs here against 50 ns without;
// nothing reads it (the log writes the message).
Object.setPrototypeOf(HttpError.prototype, Error.prototype);

/** 400 `bad_request`: unreadable body, path outside the whitelist, missing field. */
export function badRequest(detail: string): HttpError {
  return new HttpError(400, { error: "bad_request" }, { detail });
}

/** 401 `unauthorized`: no valid session. */
export function unauthorized(detail: string): HttpError {
  return new HttpError(401, { error: "unauthorized" }, { detail });
}

/** 403 `forbidden`: the session's editor may not do this. */
export function forbidden(detail: string): HttpError {
  return new HttpError(403, { error: "forbidden" }, { detail });
}

/** 404 `not_found`. */
export function notFound(detail: string): HttpError {
  return new HttpError(404, { error: "not_found" }, { detail });
}

/** 413 `too_large`: a declared or received size over its cap. */
export function tooLarge(detail: string): HttpError {
  return new HttpError(413, { error: "too_large" }, { detail });
}

/** 408 `request_timeout`: a body that stopped arriving. */
export function requestTimeout(detail: string): HttpError {
  return new HttpError(408, { error: "request_timeout" }, { detail });
}

/** 503 `unavailable`: the server itself is not configured (no `RATE_LIMIT`). */
export function serviceUnavailable(detail: string): HttpError {
  return new HttpError(503, { error: "unavailable" }, { detail });
}
