/**
 * A repository's two failures: `ConflictError` (a version that no longer
 * matches: 409) and `RepositoryError` (refused or not answering: 502). Kept
 * apart from `repository.ts`, so that mapping an error to its answer loads
 * no digest.
 *
 * @example
 * ```ts
 * import { ConflictError, RepositoryError } from "./repository_errors.ts";
 * import assert from "node:assert/strict";
 *
 * const refused = new RepositoryError("unavailable", "GitHub answered 503", 30);
 * assert.equal(refused.retryAfterSeconds, 30);
 * assert.equal(new ConflictError("changed", "a.json").path, "a.json");
 * ```
 *
 * @module
 */

/** Thrown by `Repository.write` when the file's version is not the expected one. */
export class ConflictError extends Error {
  /** The file whose version did not match, when the repository says. */
  readonly path: string | undefined;

  /**
   * Creates the error.
   *
   * @param detail what happened, for the server log
   * @param path the file whose version did not match
   */
  constructor(detail: string, path?: string) {
    super(detail);
    this.name = "ConflictError";
    this.path = path;
  }
}

/**
 * Thrown by `Repository.commit` with `create` when the branch exists
 * already: nothing was committed, and the branch keeps what it held.
 */
export class BranchExistsError extends ConflictError {
  /** The branch that exists. */
  readonly branch: string;

  /**
   * Creates the error.
   *
   * @param branch the branch that exists
   */
  constructor(branch: string) {
    super(`The branch ${branch} exists already`);
    this.name = "BranchExistsError";
    this.branch = branch;
  }
}

/** The codes a repository failure is answered with (502). */
export type RepositoryErrorCode = "not_found" | "unauthorized" | "unavailable";

/** Thrown by a `Repository` when it refuses access or does not answer. */
export class RepositoryError extends Error {
  /** The code sent to the client in a 502 body. */
  readonly code: RepositoryErrorCode;
  /** Seconds to wait, when the repository said (a rate limit). */
  readonly retryAfterSeconds: number | undefined;

  /**
   * Creates the error.
   *
   * @param code the client-facing code
   * @param detail what happened, for the server log (never a secret)
   * @param retryAfterSeconds seconds to wait, when the repository said
   */
  constructor(
    code: RepositoryErrorCode,
    detail: string,
    retryAfterSeconds?: number,
  ) {
    super(detail);
    this.name = "RepositoryError";
    this.code = code;
    this.retryAfterSeconds = retryAfterSeconds;
  }
}
