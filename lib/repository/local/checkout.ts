/**
 * The local checkout's implementation: reading, the compare-and-swap write,
 * the locks and the git commands.
 *
 * A write is a compare-and-swap under a lock: an in-process queue per
 * repository, and across processes an advisory lock on
 * `.git/inpage-editor.lock` (on the folder itself when it is not committed).
 * The bytes go to a temporary file in the same folder, flushed, then renamed
 * over the target; when committing, `git add` and `git commit --only` record
 * that path and nothing else, and a failed commit puts the previous bytes
 * back.
 *
 * @module
 */

import { basename, dirname, join, sep } from "node:path";
import {
  ConflictError,
  gitBlobSha,
  type Repository,
  RepositoryError,
  type RepositoryFile,
} from "../repository.ts";
import { concatBytes } from "../../bytes.ts";
import { oneLine } from "../../text.ts";

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
}

/** How long one git command may run before it is stopped. */
const GIT_TIMEOUT_MS = 60_000;
/** How long a write waits for another process to release the lock. */
const LOCK_TIMEOUT_MS = 30_000;
/** How often a waiting write tries the lock again. */
const LOCK_POLL_MS = 20;
/** The lock file's name inside the git folder. */
const LOCK_FILE = "inpage-editor.lock";
/** The identity used when git has none configured. */
const FALLBACK_NAME = "inpage editor";
const FALLBACK_EMAIL = "editor@localhost";

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
  return new LocalCheckoutRepository(root, git, faults);
}

/** What git said about the work tree around the root. */
interface WorkTree {
  /** The absolute git folder (holds the lock file). */
  gitDir: string;
  /** The work tree's top folder. */
  topLevel: string;
  /** The root relative to the top folder, `""` or ending with `/`. */
  prefix: string;
  /** The all-zero object name in this repository's hash. */
  zeroId: string;
  /** Identity variables to set because git has none configured. */
  identity: Record<string, string>;
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
    const absolute = join(this.root, ...checkedSegments(path));
    // Fast path: one realPath; equal to the joined path means no symbolic
    // link anywhere on the way (the root is a real path), so the file can
    // be read as is. Anything else takes the segment by segment walk.
    const real = await Deno.realPath(absolute).catch(() => undefined);
    const target = real === absolute
      ? { state: "file" as const, absolute }
      : await this.#resolve(path);
    if (target.state === "absent" || target.state === "blocked") return null;
    if (target.state === "symlink") {
      // A link planted in the checkout could serve `.env` or `.git/config`
      // as a page: a file that is itself a link is never read (nor written).
      throw new RepositoryError(
        "unauthorized",
        `Refusing to read a symbolic link: ${path}`,
      );
    }
    let content: Uint8Array;
    try {
      content = await Deno.readFile(target.absolute);
    } catch (error) {
      if (isAbsence(error)) return null;
      throw failure(error, `Cannot read ${path}`);
    }
    return { content, version: gitBlobSha(content) };
  }

  write(
    path: string,
    content: Uint8Array,
    expected: string,
    message: string,
  ): Promise<string> {
    const key = this.#git?.gitDir ?? this.root;
    const lockFile = this.#git ? join(this.#git.gitDir, LOCK_FILE) : null;
    return serialise(
      key,
      () =>
        withProcessLock(
          lockFile,
          this.root,
          () => this.#write(path, content, expected, message),
        ),
    );
  }

  /** The write itself, once this process and this caller hold the lock. */
  async #write(
    path: string,
    content: Uint8Array,
    expected: string,
    message: string,
  ): Promise<string> {
    const target = await this.#resolve(path);
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
      throw failure(error, `Cannot write ${path}`);
    }
    if (this.#git === null) return version;

    try {
      await commitPath(this.root, this.#git, path, message);
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
      throw new RepositoryError(
        "unavailable",
        [`Cannot commit ${path}: ${reason}`, ...problems].join("; "),
      );
    }
    return version;
  }

  /**
   * Checks a repository path and finds what is at it, refusing anything that
   * leaves the root: absolute paths, `.`, `..`, empty segments, `.git`, and
   * symbolic links that resolve outside.
   */
  async #resolve(path: string): Promise<Target> {
    const segments = checkedSegments(path);
    let folder = this.root;
    const missing: string[] = [];
    for (const segment of segments.slice(0, -1)) {
      folder = join(folder, segment);
      if (missing.length > 0) {
        missing.push(folder);
        continue;
      }
      const info = await lstatOrNull(folder, path);
      if (info === null) missing.push(folder);
      else if (info.isSymlink) await this.#checkLink(folder, path);
      else if (!info.isDirectory) {
        return { state: "blocked", absolute: folder, missing: [] };
      }
    }
    const absolute = join(this.root, ...segments);
    if (missing.length > 0) return { state: "absent", absolute, missing };
    const info = await lstatOrNull(absolute, path);
    if (info === null) return { state: "absent", absolute, missing };
    if (info.isSymlink) {
      await this.#checkLink(absolute, path);
      return { state: "symlink", absolute, missing };
    }
    if (info.isDirectory) {
      throw new RepositoryError("unavailable", `A folder is at ${path}`);
    }
    return { state: "file", absolute, missing, mode: info.mode };
  }

  /** Refuses a symbolic link that is dangling or resolves outside the root. */
  async #checkLink(link: string, path: string): Promise<void> {
    let real: string;
    try {
      real = await Deno.realPath(link);
    } catch (error) {
      if (isAbsence(error)) {
        throw new RepositoryError(
          "unauthorized",
          `A dangling symbolic link is on the way to ${path}`,
        );
      }
      throw failure(error, `Cannot resolve ${path}`);
    }
    const inside = this.root.endsWith(sep) ? this.root : this.root + sep;
    if (real !== this.root && !real.startsWith(inside)) {
      throw new RepositoryError(
        "unauthorized",
        `${path} leads outside the repository`,
      );
    }
  }
}

/** What a repository path leads to. */
type Target =
  | {
    /** Nothing there; a symbolic link inside the root; a file as a folder. */
    state: "absent" | "symlink" | "blocked";
    /** The path on disk. */
    absolute: string;
    /** Folders to create for a write, outermost first. */
    missing: string[];
  }
  | { state: "file"; absolute: string; missing: string[]; mode: number | null };

/**
 * The segments of a repository path, or a refusal.
 *
 * @param path a repository-relative path with `/` separators
 * @returns its segments, none empty, `.`, `..` or `.git`
 */
function checkedSegments(path: string): string[] {
  const refuse = (why: string) =>
    new RepositoryError("unauthorized", `Refused path (${why}): ${path}`);
  if (typeof path !== "string" || path === "") throw refuse("empty");
  if (path.startsWith("/") || /^[A-Za-z]:/.test(path)) {
    throw refuse("absolute");
  }
  // deno-lint-ignore no-control-regex
  if (/[\\\u0000-\u001f\u007f]/.test(path)) {
    throw refuse("backslash or control character");
  }
  const segments = path.split("/");
  for (const segment of segments) {
    if (segment === "" || segment === "." || segment === "..") {
      throw refuse("empty, `.` or `..` segment");
    }
    if (segment.toLowerCase() === ".git") throw refuse("inside `.git`");
  }
  return segments;
}

/** `Deno.lstat`, or `null` when nothing is there. */
async function lstatOrNull(
  absolute: string,
  path: string,
): Promise<Deno.FileInfo | null> {
  try {
    return await Deno.lstat(absolute);
  } catch (error) {
    if (isAbsence(error)) return null;
    throw failure(error, `Cannot inspect ${path}`);
  }
}

/**
 * Writes bytes to a new temporary file beside the target, flushes it, then
 * renames it over the target. The temporary file is removed on every failure.
 */
async function replaceFile(
  target: string,
  content: Uint8Array,
  mode: number | null,
  afterTempWrite: (() => void | Promise<void>) | undefined,
): Promise<void> {
  const temp = join(
    dirname(target),
    `.${basename(target)}.${randomHex(6)}.inpage-tmp`,
  );
  let file: Deno.FsFile | null = await Deno.open(temp, {
    write: true,
    createNew: true,
  });
  try {
    if (mode !== null && Deno.build.os !== "windows") {
      await Deno.chmod(temp, mode & 0o7777);
    }
    for (let offset = 0; offset < content.byteLength;) {
      offset += await file.write(content.subarray(offset));
    }
    await file.sync();
    file.close();
    file = null;
    await afterTempWrite?.();
    await Deno.rename(temp, target);
  } catch (error) {
    try {
      file?.close();
    } catch {
      // already closed
    }
    await Deno.remove(temp).catch(() => {});
    throw error;
  }
}

/** Removes folders made for a failed write, deepest first, when empty. */
async function removeEmptyFolders(folders: readonly string[]): Promise<void> {
  for (const folder of [...folders].reverse()) {
    try {
      await Deno.remove(folder);
    } catch {
      return;
    }
  }
}

/** Runs tasks for one key one at a time, in call order. */
const queues = new Map<string, Promise<void>>();

/**
 * Runs a task after every earlier task queued under the same key.
 *
 * @param key what the tasks share (a git folder or a root)
 * @param task the work
 * @returns the task's result
 */
function serialise<T>(key: string, task: () => Promise<T>): Promise<T> {
  const previous = queues.get(key) ?? Promise.resolve();
  const run = previous.then(task);
  const tail = run.then(() => {}, () => {});
  queues.set(key, tail);
  void tail.then(() => {
    if (queues.get(key) === tail) queues.delete(key);
  });
  return run;
}

/**
 * Runs a task holding an exclusive advisory lock shared with other processes:
 * on `lockFile` when given, else on the root folder itself where the platform
 * allows locking a folder (elsewhere only the in-process queue protects it).
 */
async function withProcessLock<T>(
  lockFile: string | null,
  root: string,
  task: () => Promise<T>,
): Promise<T> {
  let file: Deno.FsFile | null = null;
  try {
    file = lockFile === null
      ? await Deno.open(root, { read: true })
      : await Deno.open(lockFile, { read: true, write: true, create: true });
  } catch (error) {
    if (lockFile !== null) throw failure(error, "Cannot open the lock file");
  }
  if (file === null) return await task();
  try {
    const deadline = Date.now() + LOCK_TIMEOUT_MS;
    for (;;) {
      let locked: boolean;
      try {
        locked = await file.tryLock(true);
      } catch (error) {
        if (lockFile !== null) {
          throw failure(error, "Cannot lock the lock file");
        }
        return await task(); // folders cannot be locked here
      }
      if (locked) break;
      if (Date.now() >= deadline) {
        throw new RepositoryError(
          "unavailable",
          `Another process holds the lock on ${lockFile ?? root}`,
        );
      }
      await new Promise((resolve) => setTimeout(resolve, LOCK_POLL_MS));
    }
    return await task();
  } finally {
    file.close();
  }
}

/**
 * Asks git whether the root is inside a work tree, and about its identity.
 *
 * @param root the real path of the folder
 * @returns the work tree, or `null` outside one or without git
 */
async function findWorkTree(root: string): Promise<WorkTree | null> {
  let inside: GitResult;
  try {
    inside = await runGit(root, ["rev-parse", "--is-inside-work-tree"]);
  } catch (error) {
    if (error instanceof Deno.errors.NotFound) return null; // git not installed
    throw failure(error, "Cannot run git");
  }
  if (inside.code !== 0) {
    if (/not a git repository/i.test(inside.stderr)) return null;
    throw new RepositoryError(
      "unavailable",
      `git cannot read ${root}: ${inside.stderr}`,
    );
  }
  if (decode(inside.stdout).trim() !== "true") return null;
  const where = await mustRunGit(root, [
    "rev-parse",
    "--absolute-git-dir",
    "--show-toplevel",
    "--show-prefix",
    "--show-object-format",
  ]);
  const [gitDir = "", topLevel = "", prefix = "", format = "sha1"] = decode(
    where.stdout,
  ).split("\n");
  const identity: Record<string, string> = {};
  for (const role of ["AUTHOR", "COMMITTER"]) {
    const known = await runGit(root, ["var", `GIT_${role}_IDENT`]);
    if (known.code !== 0) {
      identity[`GIT_${role}_NAME`] = FALLBACK_NAME;
      identity[`GIT_${role}_EMAIL`] = FALLBACK_EMAIL;
    }
  }
  return {
    gitDir,
    topLevel,
    prefix,
    zeroId: "0".repeat(format === "sha256" ? 64 : 40),
    identity,
  };
}

/**
 * Commits one path alone. Other staged changes stay staged and out of the
 * commit. When the path already matches `HEAD` nothing is committed. On
 * failure the path's index entry is put back as it was.
 */
async function commitPath(
  root: string,
  git: WorkTree,
  path: string,
  message: string,
): Promise<void> {
  const before = await mustRunGit(root, [
    "ls-files",
    "--stage",
    "-z",
    "--full-name",
    "--",
    path,
  ]);
  await mustRunGit(root, ["add", "--", path]);
  try {
    const diff = await runGit(root, [
      "diff",
      "--cached",
      "--quiet",
      "--no-ext-diff",
      "--no-textconv",
      "--",
      path,
    ]);
    if (diff.code === 0) return; // the new bytes are those of HEAD
    if (diff.code !== 1) throw new Error(diff.stderr || "git diff failed");
    const line = oneLine(message) || `Update ${path}`;
    await mustRunGit(root, [
      "commit",
      "--only",
      "--no-verify",
      "--quiet",
      "--cleanup=verbatim",
      `--message=${line}`,
      "--",
      path,
    ], git.identity);
  } catch (error) {
    // A mode-0 entry removes the path; the old entries, if any, follow.
    const entries = concatBytes(
      new TextEncoder().encode(`0 ${git.zeroId}\t${git.prefix}${path}\0`),
      before.stdout,
    );
    const reset = await runGit(
      git.topLevel,
      ["update-index", "-z", "--index-info"],
      {},
      entries,
    ).catch((resetError) => ({ code: -1, stderr: describe(resetError) }));
    if (reset.code !== 0 && error instanceof Error) {
      error.message += `; restoring the index failed: ${reset.stderr}`;
    }
    throw error;
  }
}

/** A finished git command. */
interface GitResult {
  code: number;
  stdout: Uint8Array;
  stderr: string;
}

/**
 * Runs git in a folder with a cleaned environment and a time limit.
 *
 * @param folder where git runs (`-C`)
 * @param args the arguments after `-C folder`
 * @param extraEnv variables to add (the fallback identity)
 * @param input bytes for standard input
 * @returns the exit code, output and error text
 */
async function runGit(
  folder: string,
  args: string[],
  extraEnv: Record<string, string> = {},
  input?: Uint8Array,
): Promise<GitResult> {
  const child = new Deno.Command("git", {
    args: ["-C", folder, ...args],
    env: { ...gitEnvironment(), ...extraEnv },
    clearEnv: true,
    stdin: input === undefined ? "null" : "piped",
    stdout: "piped",
    stderr: "piped",
    signal: AbortSignal.timeout(GIT_TIMEOUT_MS),
  }).spawn();
  if (input !== undefined) {
    const writer = child.stdin.getWriter();
    await writer.write(input);
    await writer.close();
  }
  const output = await child.output();
  let stderr = decode(output.stderr).trim();
  if (output.signal !== null) {
    stderr = `git ${args[0]} stopped by ${output.signal} ${stderr}`.trim();
  }
  return { code: output.code, stdout: output.stdout, stderr };
}

/** {@linkcode runGit}, throwing an `Error` holding git's message on failure. */
async function mustRunGit(
  folder: string,
  args: string[],
  extraEnv: Record<string, string> = {},
): Promise<GitResult> {
  const result = await runGit(folder, args, extraEnv);
  if (result.code !== 0) {
    throw new Error(
      `git ${args[0]} exited with ${result.code}: ${result.stderr}`,
    );
  }
  return result;
}

/**
 * Variables that point git at another repository, index or object store, or
 * change how pathspecs are read: never inherited.
 */
const DROPPED = new Set([
  "GIT_DIR",
  "GIT_WORK_TREE",
  "GIT_INDEX_FILE",
  "GIT_OBJECT_DIRECTORY",
  "GIT_ALTERNATE_OBJECT_DIRECTORIES",
  "GIT_COMMON_DIR",
  "GIT_NAMESPACE",
  "GIT_PREFIX",
  "GIT_SHALLOW_FILE",
  "GIT_GRAFT_FILE",
  "GIT_QUARANTINE_PATH",
  "GIT_INTERNAL_SUPER_PREFIX",
  "GIT_GLOB_PATHSPECS",
  "GIT_NOGLOB_PATHSPECS",
  "GIT_ICASE_PATHSPECS",
]);

/** The process environment without {@linkcode DROPPED}, plus fixed settings. */
function gitEnvironment(): Record<string, string> {
  let inherited: Record<string, string> = {};
  try {
    inherited = Deno.env.toObject();
  } catch {
    // no permission to read the environment: run git with the fixed settings
  }
  const env: Record<string, string> = {};
  for (const [name, value] of Object.entries(inherited)) {
    if (!DROPPED.has(name.toUpperCase())) env[name] = value;
  }
  env.GIT_LITERAL_PATHSPECS = "1";
  env.GIT_TERMINAL_PROMPT = "0";
  env.LC_ALL = "C";
  return env;
}

/**
 * Turns a thrown value into a repository error: permission problems become
 * `unauthorized`, the rest `unavailable`. Repository errors pass through.
 */
function failure(error: unknown, action: string): Error {
  if (error instanceof RepositoryError || error instanceof ConflictError) {
    return error;
  }
  const code = error instanceof Deno.errors.PermissionDenied ||
      error instanceof Deno.errors.NotCapable
    ? "unauthorized"
    : "unavailable";
  return new RepositoryError(code, `${action}: ${describe(error)}`);
}

/** Whether a file-system error means nothing is at the path. */
function isAbsence(error: unknown): boolean {
  return error instanceof Deno.errors.NotFound ||
    error instanceof Deno.errors.NotADirectory;
}

/** A thrown value's message. */
function describe(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

/** Whether two byte arrays hold the same bytes. */
function equalBytes(a: Uint8Array, b: Uint8Array): boolean {
  if (a.byteLength !== b.byteLength) return false;
  for (let i = 0; i < a.byteLength; i++) if (a[i] !== b[i]) return false;
  return true;
}

/** UTF-8 bytes as text. */
function decode(bytes: Uint8Array): string {
  return new TextDecoder().decode(bytes);
}

/** Random lowercase hex, two digits per byte. */
function randomHex(bytes: number): string {
  return Array.from(
    crypto.getRandomValues(new Uint8Array(bytes)),
    (byte) => byte.toString(16).padStart(2, "0"),
  ).join("");
}
