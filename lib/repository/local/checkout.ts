/**
 * The local checkout's implementation: reading, the compare-and-swap write,
 * the locks and the git commands.
 *
 * A write is a compare-and-swap under a lock: an in-process queue per
 * repository, and across processes an advisory lock on
 * `.git/inpage-editor.lock` (on the folder itself when it is not committed).
 * The bytes go to a temporary file in the same folder, flushed, then renamed
 * over the target; when committing, `git commit --only` records that path
 * and nothing else (after `git add` for a new file), and a failed commit puts
 * the previous bytes back.
 *
 * @module
 */

import { dirname, join } from "node:path";
import {
  type CommitAuthor,
  ConflictError,
  gitBlobSha,
  type HistoryEntry,
  type HistoryOptions,
  type Repository,
  RepositoryError,
  type RepositoryFile,
} from "../repository.ts";
import { fileAt, fileHistory } from "./history.ts";
import { removeEmptyFolders, replaceFile, writeSynced } from "./files.ts";
import { readCheckoutFile, resolveTarget } from "./checkout_file.ts";
import {
  checkedAuthor,
  commitPath,
  findWorkTree,
  type WorkTree,
} from "./git.ts";
import { LOCK_FILE, serialise, withProcessLock } from "./lock.ts";
import { PENDING_FILE, recover } from "./recover.ts";
import { describe, failure, isAbsence } from "./support.ts";

/**
 * Hooks that make a write fail at a chosen step, for the tests of the
 * checkout's failure paths; not part of the published options.
 */
export interface LocalCheckoutFaults {
  /**
   * Called once the temporary file is written and flushed, before it replaces
   * the target. Throwing (or rejecting) aborts the write.
   */
  afterTempWrite?: () => void | Promise<void>;
}

/** Options of {@linkcode openLocalCheckout}. */
export interface LocalCheckoutOptions {
  /** The folder that repository paths are relative to. */
  root: string;
  /**
   * Whether to commit each write when `root` is inside a git work tree
   * (default `true`). Outside a work tree nothing is ever committed.
   */
  commit?: boolean;
}

/** A {@linkcode Repository} over a folder on disk. */
export interface LocalCheckout extends Repository {
  /** The real absolute path of the folder (symbolic links resolved). */
  readonly root: string;
  /** Whether each write is committed with git. */
  readonly commits: boolean;
  /**
   * The commits that changed a file, newest first (`git log --follow`);
   * `RepositoryError("unavailable")` when the checkout does not commit.
   */
  history(
    path: string,
    options: HistoryOptions,
  ): Promise<HistoryEntry[] | null>;
  /**
   * A file as it was at a commit; `RepositoryError("unavailable")` when the
   * checkout does not commit.
   */
  readAt(path: string, commit: string): Promise<RepositoryFile | null>;
}

/**
 * Opens a folder as a repository, with fault hooks (see
 * `openLocalCheckout` in `mod.ts` for the published function).
 *
 * @param options the folder and whether to commit
 * @param faults hooks that make a write fail at a chosen step
 * @returns the checkout, ready to read and write
 */
export async function openCheckout(
  options: LocalCheckoutOptions,
  faults: LocalCheckoutFaults = {},
): Promise<LocalCheckout> {
  if (typeof options?.root !== "string" || options.root === "") {
    throw new TypeError("The root must be a non-empty path");
  }
  let root: string;
  try {
    root = await Deno.realPath(options.root);
    if (!(await Deno.stat(root)).isDirectory) {
      throw new RepositoryError("not_found", `Not a folder: ${root}`);
    }
  } catch (error) {
    if (error instanceof Deno.errors.NotFound) {
      throw new RepositoryError("not_found", `No folder at ${options.root}`);
    }
    throw failure(error, `Cannot open ${options.root}`);
  }
  const git = options.commit === false ? null : await findWorkTree(root);
  if (git !== null) await recover(root, git);
  return new LocalCheckoutRepository(root, git, faults);
}

/** The repository behind {@linkcode openLocalCheckout}. */
class LocalCheckoutRepository implements LocalCheckout {
  readonly root: string;
  readonly commits: boolean;
  readonly #git: WorkTree | null;
  readonly #faults: LocalCheckoutFaults;

  constructor(root: string, git: WorkTree | null, faults: LocalCheckoutFaults) {
    this.root = root;
    this.commits = git !== null;
    this.#git = git;
    this.#faults = faults;
  }

  async read(path: string): Promise<RepositoryFile | null> {
    const file = await readCheckoutFile(this.root, path);
    switch (file.kind) {
      case "file":
        return { content: file.content, version: gitBlobSha(file.content) };
      case "absent":
        return null;
      case "symlink":
        // A link planted in the checkout could serve `.env` or `.git/config`
        // as a page: a file that is itself a link is never read (nor written).
        throw new RepositoryError(
          "unauthorized",
          `Refusing to read a symbolic link: ${path}`,
        );
      case "outside":
        throw new RepositoryError("unauthorized", file.detail);
      default:
        // A FIFO is never opened: opening one waits for a writer.
        throw new RepositoryError("unavailable", file.detail);
    }
  }

  async history(
    path: string,
    options: HistoryOptions,
  ): Promise<HistoryEntry[] | null> {
    return await fileHistory(
      this.root,
      this.#needGit(),
      path,
      options.before,
      options.limit,
    ).catch((error) => {
      throw failure(error, `Cannot read the history of ${path}`);
    });
  }

  async readAt(
    path: string,
    commit: string,
  ): Promise<RepositoryFile | null> {
    return await fileAt(this.root, this.#needGit(), path, commit).catch(
      (error) => {
        throw failure(error, `Cannot read ${path} at ${commit}`);
      },
    );
  }

  #needGit(): WorkTree {
    if (this.#git === null) {
      throw new RepositoryError(
        "unavailable",
        `${this.root} is not committed (not in a git work tree, or --no-commit): it has no history`,
      );
    }
    return this.#git;
  }

  write(
    path: string,
    content: Uint8Array,
    expected: string,
    message: string,
    author?: CommitAuthor,
  ): Promise<string> {
    // Checked before anything changes: a name git cannot record refuses
    // the write rather than leaving a file uncommitted.
    let checked: CommitAuthor | undefined;
    try {
      checked = author === undefined ? undefined : checkedAuthor(author);
    } catch (error) {
      return Promise.reject(error);
    }
    const key = this.#git?.gitDir ?? this.root;
    const lockFile = this.#git ? join(this.#git.gitDir, LOCK_FILE) : null;
    return serialise(
      key,
      () =>
        withProcessLock(
          lockFile,
          this.root,
          () => this.#write(path, content, expected, message, checked),
        ),
    );
  }

  /** The write itself, once this process and this caller hold the lock. */
  async #write(
    path: string,
    content: Uint8Array,
    expected: string,
    message: string,
    author: CommitAuthor | undefined,
  ): Promise<string> {
    const target = await resolveTarget(this.root, path);
    if (target.state === "not_regular") {
      throw new RepositoryError(
        "unavailable",
        `Not a regular file (a FIFO, socket, device or folder): ${path}`,
      );
    }
    if (target.state === "blocked") {
      throw new RepositoryError(
        "unavailable",
        `A file is where a folder of ${path} should be`,
      );
    }
    if (target.state === "symlink") {
      throw new RepositoryError(
        "unauthorized",
        `Refusing to replace a symbolic link: ${path}`,
      );
    }
    let current: Uint8Array | null = null;
    if (target.state === "file") {
      try {
        current = await Deno.readFile(target.absolute);
      } catch (error) {
        if (!isAbsence(error)) throw failure(error, `Cannot read ${path}`);
      }
    }
    const currentVersion = current === null ? "" : gitBlobSha(current);
    if (expected !== currentVersion) {
      throw new ConflictError(
        `${path} is ${currentVersion || "absent"}, expected ${
          expected || "absent"
        }`,
      );
    }
    if (current !== null && equalBytes(current, content)) return currentVersion;
    const version = gitBlobSha(content);
    const mode = target.state === "file" && current !== null
      ? target.mode
      : null;

    const created = target.missing;
    // Noted, and flushed to disk, before the file changes; cleared once
    // committed or restored: a process killed (or a machine stopped) in
    // between has its publish finished when the checkout is next opened
    // (`recover.ts`). A note cut short was cut before the file changed.
    const pending = this.#git ? join(this.#git.gitDir, PENDING_FILE) : null;
    if (pending !== null) {
      await writeSynced(
        pending,
        JSON.stringify(author ? { path, message, author } : { path, message }),
      ).catch(
        (error) => {
          throw failure(error, "Cannot note the publish under way");
        },
      );
    }
    try {
      if (created.length > 0) {
        await Deno.mkdir(dirname(target.absolute), { recursive: true });
      }
      await replaceFile(
        target.absolute,
        content,
        mode,
        this.#faults.afterTempWrite,
      );
    } catch (error) {
      await removeEmptyFolders(created);
      if (pending !== null) await Deno.remove(pending).catch(() => {});
      throw failure(error, `Cannot write ${path}`);
    }
    if (this.#git === null) return version;

    try {
      await commitPath(this.root, this.#git, path, message, author);
    } catch (error) {
      const reason = error instanceof Error ? error.message : String(error);
      const problems: string[] = [];
      try {
        if (current === null) await Deno.remove(target.absolute);
        else await replaceFile(target.absolute, current, mode, undefined);
      } catch (restoreError) {
        problems.push(`restoring the file failed: ${describe(restoreError)}`);
      }
      await removeEmptyFolders(created);
      if (pending !== null) await Deno.remove(pending).catch(() => {});
      throw new RepositoryError(
        "unavailable",
        [`Cannot commit ${path}: ${reason}`, ...problems].join("; "),
      );
    }
    if (pending !== null) await Deno.remove(pending).catch(() => {});
    return version;
  }
}

/** Whether two byte arrays hold the same bytes. */
function equalBytes(a: Uint8Array, b: Uint8Array): boolean {
  if (a.byteLength !== b.byteLength) return false;
  for (let i = 0; i < a.byteLength; i++) if (a[i] !== b[i]) return false;
  return true;
}
