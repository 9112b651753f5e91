/**
 * `lib/repository/`, the storage concern: the `Repository` interface and
 * its errors, implemented over GitHub (`github.ts`) and over a local
 * checkout (`local/`). It knows nothing of HTTP: failures are
 * `RepositoryError` and `ConflictError`.
 *
 * The storage behind pages and images: a git repository, local or on GitHub.
 *
 * @module
 */

import { sha1Hex } from "../digest.ts";

/** A file read from the repository: its bytes and its version (git blob SHA-1). */
export interface RepositoryFile {
  /** The whole file. */
  content: Uint8Array;
  /** The git blob SHA-1 of `content`, as GitHub's `sha`. */
  version: string;
}

/**
 * Where pages and images are stored. A version is the git blob SHA-1 of the
 * bytes, so a local checkout and GitHub agree.
 */
export interface Repository {
  /**
   * Reads a file.
   *
   * @param path repository path, already whitelisted
   * @returns the file, or `null` when it does not exist
   * @throws {RepositoryError} when the repository cannot be read
   */
  read(path: string): Promise<RepositoryFile | null>;
  /**
   * Writes a whole file if its current version is `expected`.
   *
   * @param path repository path, already whitelisted
   * @param content the new bytes
   * @param expected the current version, or `""` when the file must not exist
   * @param message one clean line, at most 120 characters
   * @returns the new version
   * @throws {ConflictError} when the current version is not `expected`
   * @throws {RepositoryError} when the repository refuses or does not answer
   */
  write(
    path: string,
    content: Uint8Array,
    expected: string,
    message: string,
  ): Promise<string>;
}

/** Thrown by `Repository.write` when the file's version is not the expected one. */
export class ConflictError extends Error {
  /**
   * Creates the error.
   *
   * @param detail what happened, for the server log
   */
  constructor(detail: string) {
    super(detail);
    this.name = "ConflictError";
  }
}

/** The codes a repository failure is answered with (502). */
export type RepositoryErrorCode = "not_found" | "unauthorized" | "unavailable";

/** Thrown by a `Repository` when it refuses access or does not answer. */
export class RepositoryError extends Error {
  /** The code sent to the client in a 502 body. */
  readonly code: RepositoryErrorCode;

  /**
   * Creates the error.
   *
   * @param code the client-facing code
   * @param detail what happened, for the server log (never a secret)
   */
  constructor(code: RepositoryErrorCode, detail: string) {
    super(detail);
    this.name = "RepositoryError";
    this.code = code;
  }
}

/**
 * The git blob SHA-1 of some bytes, as `git hash-object` prints it.
 *
 * @param content the file's bytes
 * @returns 40 lowercase hex digits
 */
export function gitBlobSha(content: Uint8Array): string {
  const header = new TextEncoder().encode(`blob ${content.byteLength}\0`);
  return sha1Hex(header, content);
}
