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

/** Who a commit is authored by: a name and an email, already checked. */
export interface CommitAuthor {
  /** The name, one line without `<` or `>`. */
  name: string;
  /** The email address. */
  email: string;
}

/** One commit in a file's history, newest first. */
export interface HistoryEntry {
  /** The commit's id (40 hex digits). */
  commit: string;
  /** The file's version (blob SHA-1) at that commit; `""` if it was removed. */
  version: string;
  /** The author's date, ISO 8601. */
  date: string;
  /** The author's name. */
  author: string;
  /** The commit message's first line. */
  message: string;
}

/** A page of a file's history. */
export interface HistoryOptions {
  /** Only commits older than this one (it excluded); default from the branch's tip. */
  before?: string | undefined;
  /** At most this many entries. */
  limit: number;
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
   * @param author who the commit is authored by (an implementation that
   *   does not record authors may ignore it)
   * @returns the new version
   * @throws {ConflictError} when the current version is not `expected`
   * @throws {RepositoryError} when the repository refuses or does not answer
   */
  write(
    path: string,
    content: Uint8Array,
    expected: string,
    message: string,
    author?: CommitAuthor,
  ): Promise<string>;
  /**
   * The commits that changed a file, newest first (optional: without it,
   * `/api/history` answers 502 `unavailable`).
   *
   * @param path repository path, already whitelisted
   * @param options where to start and how many
   * @returns the entries, at most `options.limit`, or `null` when `before`
   *   names no commit
   * @throws {RepositoryError} when the repository refuses or does not answer
   */
  history?(
    path: string,
    options: HistoryOptions,
  ): Promise<HistoryEntry[] | null>;
  /**
   * Reads a file as it was at a commit (optional: without it,
   * `/api/content?commit=` answers 502 `unavailable`).
   *
   * @param path repository path, already whitelisted
   * @param commit 40 lowercase hex digits
   * @returns the file, or `null` when no commit has that id or that commit
   *   had no such file
   * @throws {RepositoryError} when the repository refuses or does not answer
   */
  readAt?(path: string, commit: string): Promise<RepositoryFile | null>;
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
