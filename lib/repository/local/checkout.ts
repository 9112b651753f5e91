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
 * the previous bytes back. A write is a commit of one file: a commit of
 * several checks them all first, writes them all, then commits those paths
 * together, or puts them all back.
 *
 * @module
 */

import { dirname, join } from "node:path";
import {
  type CommitAuthor,
  type CommitFile,
  type CommitOptions,
  type CommitResult,
  ConflictError,
  gitBlobSha,
  type HistoryEntry,
  type HistoryOptions,
  isStaged,
  type Repository,
  RepositoryError,
  type RepositoryFile,
  type StagedBlob,
} from "../repository.ts";
import { fileAt, fileHistory } from "./history.ts";
import {
  checkedSegments,
  removeEmptyFolders,
  replaceFile,
  type Target,
  writeSynced,
} from "./files.ts";
import { readCheckoutFile, resolveTarget } from "./checkout_file.ts";
import {
  checkedAuthor,
  commitPaths,
  findWorkTree,
  runGit,
  type WorkTree,
} from "./git.ts";
import {
  type BranchFile,
  commitOf,
  commitOnBranch,
  deleteOwnBranch,
  ownBranchRef,
} from "./branch_commit.ts";
import { stageBytes, stagedBytes } from "./staging.ts";
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
  /** A file as it was at a commit of any branch (a review's). */
  readAtCommit(path: string, commit: string): Promise<RepositoryFile | null>;
  /**
   * Keeps bytes aside: in git's object store (`git hash-object -w`), or,
   * outside git, in a folder of the system's temporary directory; never in
   * the work tree.
   */
  stage(content: Uint8Array): Promise<StagedBlob>;
  /**
   * Commits several files together. On the checked-out branch (the
   * default): a compare-and-swap of every file under the lock, the files
   * written in place, then one `git commit --only` of those paths. On an
   * `inpage/…` branch that is not checked out: a temporary index,
   * `git commit-tree` and `git update-ref` with the old value, the work
   * tree untouched (`RepositoryError("unavailable")` when the checkout does
   * not commit).
   */
  commit(
    files: readonly CommitFile[],
    options: CommitOptions,
  ): Promise<CommitResult>;
  /** Deletes an `inpage/…` branch that is not checked out. */
  deleteBranch(branch: string): Promise<boolean>;
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

  async readAtCommit(
    path: string,
    commit: string,
  ): Promise<RepositoryFile | null> {
    return await fileAt(this.root, this.#needGit(), path, commit, true).catch(
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
    if (typeof expected !== "string") {
      return Promise.reject(
        new ConflictError(`Version for ${path} is not a string`, path),
      );
    }
    return this.commit([{ path, content, expected }], { message, author })
      .then((result) => result.versions[path] ?? gitBlobSha(content));
  }

  stage(content: Uint8Array): Promise<StagedBlob> {
    if (!(content instanceof Uint8Array)) {
      return Promise.reject(new TypeError("Staged content must be bytes"));
    }
    return stageBytes(this.root, this.#git, content);
  }

  async commit(
    files: readonly CommitFile[],
    options: CommitOptions,
  ): Promise<CommitResult> {
    checkFiles(files);
    // Checked before anything changes: a name git cannot record refuses
    // the commit rather than leaving a file uncommitted.
    const author = options.author === undefined
      ? undefined
      : checkedAuthor(options.author);
    const message = options.message;
    const branch = options.branch;
    const elsewhere = branch !== undefined &&
      !(this.#git !== null && await this.#checkedOut(branch));
    if (elsewhere) {
      const git = this.#needGit();
      ownBranchRef(branch);
      return await this.#locked(async () => {
        const blobs: BranchFile[] = [];
        for (const file of files) {
          checkedSegments(file.path);
          const staged = isStaged(file.content);
          const bytes = staged
            ? await stagedBytes(this.root, git, file.content as StagedBlob)
            : file.content as Uint8Array;
          const object = staged
            ? (file.content as StagedBlob).staged
            : (await stageBytes(this.root, git, bytes)).staged;
          const version = gitBlobSha(bytes);
          blobs.push({
            path: file.path,
            object,
            version,
            expected: file.expected,
          });
        }
        return await commitOnBranch(
          this.root,
          git,
          branch,
          blobs,
          message,
          author,
          options.create === true,
        );
      });
    }
    return await this.#locked(() =>
      this.#commitInWorkTree(files, message, author)
    );
  }

  deleteBranch(branch: string): Promise<boolean> {
    let git: WorkTree;
    try {
      git = this.#needGit();
      ownBranchRef(branch);
    } catch (error) {
      return Promise.reject(error);
    }
    return this.#locked(() => deleteOwnBranch(git.topLevel, branch));
  }

  /** Runs a task holding this process's queue and the lock file. */
  #locked<T>(task: () => Promise<T>): Promise<T> {
    const key = this.#git?.gitDir ?? this.root;
    const lockFile = this.#git ? join(this.#git.gitDir, LOCK_FILE) : null;
    return serialise(key, () => withProcessLock(lockFile, this.root, task));
  }

  /** Whether a branch is the one checked out (the site branch). */
  async #checkedOut(branch: string): Promise<boolean> {
    const head = await runGit(this.root, ["symbolic-ref", "--quiet", "HEAD"]);
    return head.code === 0 &&
      new TextDecoder().decode(head.stdout).trim() === `refs/heads/${branch}`;
  }

  /** `HEAD`'s commit, or `""` outside git or before the first commit. */
  async #head(): Promise<string> {
    if (this.#git === null) return "";
    return await commitOf(this.root, "HEAD");
  }

  /**
   * The commit on the checked-out branch, once this process and this caller
   * hold the lock: every condition checked before anything changes, the
   * changed files written in place (a flushed temporary file renamed over
   * each), then committed together; any failure puts every file back.
   */
  async #commitInWorkTree(
    files: readonly CommitFile[],
    message: string,
    author: CommitAuthor | undefined,
  ): Promise<CommitResult> {
    const planned: Planned[] = [];
    for (const file of files) {
      const target = await this.#target(file.path);
      const current = await currentBytes(target, file.path);
      const currentVersion = current === null ? "" : gitBlobSha(current);
      if (file.expected !== null && file.expected !== currentVersion) {
        throw new ConflictError(
          `${file.path} is ${currentVersion || "absent"}, expected ${
            file.expected || "absent"
          }`,
          file.path,
        );
      }
      planned.push({ path: file.path, target, current, content: file.content });
    }
    const versions: Record<string, string> = {};
    const changed: Planned[] = [];
    for (const plan of planned) {
      const bytes = isStaged(plan.content)
        ? await stagedBytes(this.root, this.#git, plan.content)
        : plan.content;
      plan.content = bytes;
      versions[plan.path] = gitBlobSha(bytes);
      if (plan.current === null || !equalBytes(plan.current, bytes)) {
        changed.push(plan);
      }
    }
    if (changed.length === 0) return { commit: await this.#head(), versions };
    const paths = changed.map((plan) => plan.path);
    // Noted, and flushed to disk, before the files change; cleared once
    // committed or restored: a process killed (or a machine stopped) in
    // between has its publish finished when the checkout is next opened
    // (`recover.ts`). A note cut short was cut before the files changed.
    const pending = this.#git ? join(this.#git.gitDir, PENDING_FILE) : null;
    if (pending !== null) {
      await writeSynced(
        pending,
        JSON.stringify(
          author ? { paths, message, author } : { paths, message },
        ),
      ).catch((error) => {
        throw failure(error, "Cannot note the publish under way");
      });
    }
    const written: Planned[] = [];
    try {
      for (const plan of changed) {
        await placeFile(plan, this.#faults.afterTempWrite);
        written.push(plan);
      }
    } catch (error) {
      await putBack(written, changed);
      if (pending !== null) await Deno.remove(pending).catch(() => {});
      throw failure(error, `Cannot write ${paths.join(", ")}`);
    }
    if (this.#git === null) return { commit: "", versions };
    try {
      await commitPaths(this.root, this.#git, paths, message, author);
    } catch (error) {
      const reason = error instanceof Error ? error.message : String(error);
      const problems = await putBack(changed, changed);
      if (pending !== null) await Deno.remove(pending).catch(() => {});
      throw new RepositoryError(
        "unavailable",
        [`Cannot commit ${paths.join(", ")}: ${reason}`, ...problems].join(
          "; ",
        ),
      );
    }
    if (pending !== null) await Deno.remove(pending).catch(() => {});
    return { commit: await this.#head(), versions };
  }

  /** What is at a path, refusing what a write must not replace. */
  async #target(path: string): Promise<Target> {
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
    return target;
  }
}

/** A file of a commit in the work tree, as planned under the lock. */
interface Planned {
  path: string;
  target: Target;
  /** Its bytes before, `null` when absent. */
  current: Uint8Array | null;
  /** Its new bytes (staged ones once read). */
  content: Uint8Array | StagedBlob;
}

/** Refuses a malformed list of commit files before anything is read. */
function checkFiles(files: readonly CommitFile[]): void {
  if (!Array.isArray(files) || files.length === 0) {
    throw new TypeError("A commit needs at least one file");
  }
  const seen = new Set<string>();
  for (const file of files) {
    if (
      typeof file?.path !== "string" || seen.has(file.path) ||
      !(file.content instanceof Uint8Array || isStaged(file.content)) ||
      !(file.expected === null || typeof file.expected === "string")
    ) {
      throw new TypeError(
        "Each commit file needs its own path, bytes or a staged blob, and a version or null",
      );
    }
    seen.add(file.path);
  }
}

/** The bytes at a target, `null` when absent. */
async function currentBytes(
  target: Target,
  path: string,
): Promise<Uint8Array | null> {
  if (target.state !== "file") return null;
  try {
    return await Deno.readFile(target.absolute);
  } catch (error) {
    if (isAbsence(error)) return null;
    throw failure(error, `Cannot read ${path}`);
  }
}

/** Writes a planned file in place, making the folders it needs. */
async function placeFile(
  plan: Planned,
  afterTempWrite: (() => void | Promise<void>) | undefined,
): Promise<void> {
  const { target } = plan;
  if (target.missing.length > 0) {
    await Deno.mkdir(dirname(target.absolute), { recursive: true });
  }
  const mode = target.state === "file" && plan.current !== null
    ? target.mode
    : null;
  await replaceFile(
    target.absolute,
    plan.content as Uint8Array,
    mode,
    afterTempWrite,
  );
}

/**
 * Puts the files written back as they were and removes the folders made
 * for all of them; answers what could not be put back.
 */
async function putBack(
  written: readonly Planned[],
  all: readonly Planned[],
): Promise<string[]> {
  const problems: string[] = [];
  for (const plan of written) {
    const { target, current } = plan;
    try {
      if (current === null) await Deno.remove(target.absolute);
      else {
        const mode = target.state === "file" ? target.mode : null;
        await replaceFile(target.absolute, current, mode, undefined);
      }
    } catch (error) {
      problems.push(`restoring ${plan.path} failed: ${describe(error)}`);
    }
  }
  const folders = [...new Set(all.flatMap((plan) => plan.target.missing))]
    .sort((a, b) => a.length - b.length);
  await removeEmptyFolders(folders);
  return problems;
}

/** Whether two byte arrays hold the same bytes. */
function equalBytes(a: Uint8Array, b: Uint8Array): boolean {
  if (a.byteLength !== b.byteLength) return false;
  for (let i = 0; i < a.byteLength; i++) if (a[i] !== b[i]) return false;
  return true;
}
