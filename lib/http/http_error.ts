/**
 * Typed errors carried through the check pipeline. Route code throws them;
 * only `errorResponse` (in `error_response.ts`) turns them into responses.
 *
 * @module
 */

/** An expected failure with the status and JSON body it is answered with. */
export class HttpError extends Error {
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
   * @param detail what went wrong, for the server log only
   * @param headers extra response headers
   * @param code the code written in the log when the body's `error` is a
   *   sentence (429, the auth route's 401)
   */
  constructor(
    status: number,
    body: Readonly<Record<string, unknown>>,
    detail: string,
    headers: Readonly<Record<string, string>> = {},
    code?: string,
  ) {
    super(detail);
    this.name = "HttpError";
    this.status = status;
    this.body = body;
    this.headers = headers;
    this.#code = code;
  }

  /** The error code for the log line: the given code, else the body's. */
  get code(): string {
    if (this.#code !== undefined) return this.#code;
    return typeof this.body.error === "string"
      ? this.body.error
      : String(this.status);
  }
}

/** 400 `bad_request`: unreadable body, path outside the whitelist, missing field. */
export function badRequest(detail: string): HttpError {
  return new HttpError(400, { error: "bad_request" }, detail);
}

/** 401 `unauthorized`: no valid session. */
export function unauthorized(detail: string): HttpError {
  return new HttpError(401, { error: "unauthorized" }, detail);
}

/** 404 `not_found`. */
export function notFound(detail: string): HttpError {
  return new HttpError(404, { error: "not_found" }, detail);
}

/** 409 `conflict`: the version no longer matches. */
export function conflict(detail: string): HttpError {
  return new HttpError(409, { error: "conflict" }, detail);
}

/** 413 `too_large`: a declared or received size over its cap. */
export function tooLarge(detail: string): HttpError {
  return new HttpError(413, { error: "too_large" }, detail);
}

/** 415 `unsupported_format` with the `kind` recognised from the bytes. */
export function unsupportedFormat(kind: string, detail: string): HttpError {
  return new HttpError(415, { error: "unsupported_format", kind }, detail);
}

/**
 * 422 `invalid_content`, with `at` (a JSON Pointer into the submitted page)
 * when the failure has a place.
 */
export function invalidContent(
  at: string | undefined,
  detail: string,
): HttpError {
  const body = at === undefined
    ? { error: "invalid_content" }
    : { error: "invalid_content", at };
  return new HttpError(422, body, detail);
}

/** 503 `unavailable`: the server itself is not configured (no `RATE_LIMIT`). */
export function serviceUnavailable(detail: string): HttpError {
  return new HttpError(503, { error: "unavailable" }, detail);
}
