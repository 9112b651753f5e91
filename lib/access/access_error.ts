/**
 * The refusals of the access concern, as values with one `code` each. Access
 * code knows nothing of HTTP: the one error mapping
 * (`lib/http/error_response.ts`) writes their statuses, headers and
 * messages.
 *
 * @module
 */

import type { BudgetName } from "../wire/names.ts";

/**
 * Why access was refused:
 *
 * - `rate_limited`: the route's budget for the client is spent;
 * - `no_session`: the request carries no open session;
 * - `key_checks_busy`: too many key checks run and wait already;
 * - `kv_unavailable`: the KV store is missing or failing;
 * - `forbidden`: the session's editor may not do this (an author publishing).
 */
export type AccessErrorCode =
  | "rate_limited"
  | "no_session"
  | "key_checks_busy"
  | "kv_unavailable"
  | "forbidden";

/** What an {@linkcode AccessError} may carry besides its code. */
export interface AccessErrorOptions {
  /** When to try again, in whole seconds (`rate_limited`, `key_checks_busy`). */
  readonly retryAfterSeconds?: number;
  /** The budget that is spent (`rate_limited`). */
  readonly budget?: BudgetName;
}

/**
 * A refusal of the access concern.
 *
 * @example
 * ```ts
 * import { AccessError } from "./access_error.ts";
 * import assert from "node:assert/strict";
 *
 * const error = new AccessError("rate_limited", "save budget spent", {
 *   retryAfterSeconds: 30,
 *   budget: "save",
 * });
 * assert.equal(error.code, "rate_limited");
 * assert.ok(error instanceof Error);
 * ```
 */
export class AccessError {
  /** Always `"AccessError"`. */
  readonly name = "AccessError";
  /** Why access was refused. */
  readonly code: AccessErrorCode;
  /** What happened, for the server log only. */
  readonly message: string;
  /** When to try again, in whole seconds, when the code has a delay. */
  readonly retryAfterSeconds: number | undefined;
  /** The budget that is spent, for `rate_limited`. */
  readonly budget: BudgetName | undefined;

  /**
   * Creates the error.
   *
   * @param code why access was refused
   * @param message what happened, for the log
   * @param options the delay and the budget, when the code has them
   */
  constructor(
    code: AccessErrorCode,
    message: string,
    options: AccessErrorOptions = {},
  ) {
    this.code = code;
    this.message = message;
    this.retryAfterSeconds = options.retryAfterSeconds;
    this.budget = options.budget;
  }
}

// An `AccessError` is an `Error` (`instanceof Error`, with its name and
// message) that does not run the `Error` constructor: a refusal is thrown
// for every request of a flood, and nothing reads a stack trace (the log
// writes the message). The same holds for `HttpError`.
Object.setPrototypeOf(AccessError.prototype, Error.prototype);
