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

// The errors have a module of their own: mapping an error to its answer
// needs them, not the digests of this one.
export {
  BranchExistsError,
  ConflictError,
  RepositoryError,
  type RepositoryErrorCode,
} from "./repository_errors.ts";

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
 * Bytes kept aside by {@linkcode Repository.stage}: in the repository's
 * object store (GitHub: a blob of the Git Data API; a local checkout: git's
 * object store), in no tree and on no branch until a commit names them.
 */
export interface StagedBlob {
  /** What `stage` answered: the blob's id in that store. */
  readonly staged: string;
}

/** One file of a many-file commit ({@linkcode Repository.commit}). */
export interface CommitFile {
  /** Repository path, already whitelisted. */
  path: string;
  /** The new bytes, or bytes kept aside by `stage`. */
  content: Uint8Array | StagedBlob;
  /**
   * What the file must be on the branch before the commit: its version, or
   * `""` when it must not exist; a mismatch is a `ConflictError` naming the
   * path, and nothing is committed. `null`: no condition, the file is
   * written whatever is there (a content-addressed image, whose name is the
   * hash of its bytes: the same name is the same image).
   */
  expected: string | null;
}

/** Where a many-file commit goes and who it is by. */
export interface CommitOptions {
  /** One clean line, at most 120 characters. */
  message: string;
  /** Who the commit is authored by; default the repository's own identity. */
  author?: CommitAuthor | undefined;
  /**
   * The branch committed to. Default: the site branch, the one `read` and
   * `write` use (a local checkout's work tree is updated too). Any other
   * branch must be named `inpage/…` (e.g. `inpage/review/{id}`); when it
   * does not exist it is made from the site branch's head, without a
   * checkout, and the work tree is never touched.
   */
  branch?: string | undefined;
  /**
   * The branch must not exist yet (a review's branch, whose name must never
   * gather the commits of two reviews): when it does, a
   * {@linkcode BranchExistsError} and nothing is committed.
   */
  create?: boolean | undefined;
}

/** What a many-file commit made. */
export interface CommitResult {
  /**
   * The branch's head after the commit (40 hex digits): the new commit, or
   * the head as it was when no file changed; `""` in a folder that records
   * no commits.
   */
  commit: string;
  /** Each file's version after the commit, by path. */
  versions: Record<string, string>;
  /**
   * The commit the new one was made on (its parent), for a commit made on
   * an `inpage/…` branch; absent otherwise, or when no commit was made.
   */
  parent?: string | undefined;
}

/** A pull request to open ({@linkcode Repository.openPullRequest}). */
export interface PullRequestInit {
  /** The branch holding the changes (`inpage/…`). */
  branch: string;
  /** Its title: one line. */
  title: string;
  /** Its description, in Markdown. */
  body: string;
}

/**
 * Where pages and images are stored. A version is the git blob SHA-1 of the
 * bytes, so a local checkout and GitHub agree.
 *
 * Beside the one-file `write`, a repository may keep bytes aside (`stage`)
 * and commit several files at once (`commit`): `/api/upload?staged=1` and
 * `/api/save` use them to publish a page and its new images in one commit.
 * A review (a branch `inpage/review/{id}` holding pages and images, made
 * from the site branch without a checkout, deleted once applied) is the
 * same `commit` with `branch`, then `deleteBranch`.
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
  /**
   * Reads a file as it was at a commit of any branch, the site branch or
   * another (a review's branch): for the commits the package recorded
   * itself, never one a request names (`readAt` keeps those to the site
   * branch's history). Optional: without it, reviews answer 502
   * `unavailable`.
   *
   * @param path repository path, already whitelisted
   * @param commit 40 lowercase hex digits
   * @returns the file, or `null` when no commit has that id or that commit
   *   had no such file
   * @throws {RepositoryError} when the repository refuses or does not answer
   */
  readAtCommit?(path: string, commit: string): Promise<RepositoryFile | null>;
  /**
   * Keeps bytes aside for a later {@linkcode Repository.commit}, outside
   * every tree and branch: nothing a site builds from changes (optional:
   * without it, `/api/upload?staged=1` stores the image as a plain upload
   * does). Bytes no commit names are never published; the store drops them
   * in its own time (GitHub's and git's garbage collection).
   *
   * @param content the bytes
   * @returns what a `CommitFile` names them by
   * @throws {RepositoryError} when the repository refuses or does not answer
   */
  stage?(content: Uint8Array): Promise<StagedBlob>;
  /**
   * Commits several files at once on one branch, each under its condition:
   * all of them in one commit, or none (optional: without it, staged
   * uploads are stored as plain uploads).
   *
   * @param files the files, each path once
   * @param options the message, the author and the branch
   * @returns the head after the commit and each file's new version
   * @throws {ConflictError} naming the path whose condition failed
   * @throws {RepositoryError} when the repository refuses or does not
   *   answer, a staged blob is no longer kept, or the branch is refused
   */
  commit?(
    files: readonly CommitFile[],
    options: CommitOptions,
  ): Promise<CommitResult>;
  /**
   * Deletes a branch made by `commit` (named `inpage/…`; never the site
   * branch).
   *
   * @param branch the branch's name
   * @returns `true` when it was deleted, `false` when there was none
   * @throws {RepositoryError} `unauthorized` for the site branch or a name
   *   outside `inpage/`; otherwise when the repository refuses
   */
  deleteBranch?(branch: string): Promise<boolean>;
  /**
   * Opens a pull request from an `inpage/…` branch into the site branch
   * (optional: GitHub has them; a local checkout has none, and a review
   * there is its branch alone).
   *
   * @param pull the branch, the title and the description
   * @returns the pull request's number
   * @throws {RepositoryError} when the repository refuses or does not answer
   */
  openPullRequest?(pull: PullRequestInit): Promise<number>;
  /**
   * Closes a pull request without merging it, after a comment saying why
   * (the commit that published its changes, or that it was closed).
   *
   * @param number the pull request's number
   * @param comment the comment, in Markdown
   * @throws {RepositoryError} when the repository refuses or does not answer
   */
  closePullRequest?(number: number, comment: string): Promise<void>;
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

/** The prefix of every branch a repository's `commit` may make besides the site branch. */
export const OWN_BRANCH_PREFIX = "inpage/";

/**
 * Whether a branch name is one `commit` may make and `deleteBranch` may
 * delete: `inpage/` then segments of letters, digits, `.`, `_` and `-`
 * (none starting with `.` or ending with `.lock`), at most 200 characters.
 *
 * @param branch the candidate
 * @returns true when it is such a name
 * @example
 * ```ts
 * import { isOwnBranch } from "./repository.ts";
 * import assert from "node:assert/strict";
 *
 * assert.ok(isOwnBranch("inpage/review/2f6c"));
 * assert.ok(!isOwnBranch("main"));
 * assert.ok(!isOwnBranch("inpage/../main"));
 * ```
 */
export function isOwnBranch(branch: unknown): branch is string {
  if (typeof branch !== "string" || branch.length > 200) return false;
  if (!branch.startsWith(OWN_BRANCH_PREFIX)) return false;
  const segments = branch.slice(OWN_BRANCH_PREFIX.length).split("/");
  return segments.every((segment) =>
    /^[A-Za-z0-9_-][A-Za-z0-9._-]{0,99}$/.test(segment) &&
    !segment.endsWith(".lock") && !segment.endsWith(".") &&
    !segment.includes("..")
  );
}

/**
 * Whether a commit file's content was kept aside by `stage`.
 *
 * @param content a `CommitFile`'s content
 * @returns true for a `StagedBlob`
 */
export function isStaged(
  content: Uint8Array | StagedBlob,
): content is StagedBlob {
  return !(content instanceof Uint8Array) &&
    typeof (content as StagedBlob)?.staged === "string";
}
