/**
 * The errors of reading a request body that the one error mapping
 * (`error_response.ts`) answers, apart from the readers that throw them
 * (`multipart.ts`, `read_capped.ts`, which re-export them): mapping an error
 * does not load the readers.
 *
 * @module
 */

/**
 * An upload form refused: `too_large` when the body or the file is over its
 * cap, `malformed` when the form cannot be read.
 *
 * @example
 * ```ts
 * import { FormError } from "./body_errors.ts";
 * import assert from "node:assert/strict";
 *
 * const error = new FormError("too_large", "File part over 10 bytes");
 * assert.equal(error.code, "too_large");
 * ```
 */
export class FormError extends Error {
  /** What is wrong with the form. */
  readonly code: "too_large" | "malformed";

  /**
   * Creates the error.
   *
   * @param code what is wrong with the form
   * @param message the detail, for logs
   */
  constructor(code: "too_large" | "malformed", message: string) {
    super(message);
    this.name = "FormError";
    this.code = code;
  }
}

/**
 * Thrown by `readCapped` (and the upload form's reader) when no byte of the
 * body has arrived for `idleMs`: a client that stops sending midway is cut
 * off instead of holding its request open.
 */
export class BodyIdleError extends Error {
  /** How long the body was silent, in milliseconds. */
  readonly idleMs: number;

  /**
   * Creates the error.
   *
   * @param idleMs how long nothing arrived, in milliseconds
   */
  constructor(idleMs: number) {
    super(`No byte of the body for ${idleMs} ms`);
    this.name = "BodyIdleError";
    this.idleMs = idleMs;
  }
}
