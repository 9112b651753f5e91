/**
 * The local checkout's git driver: the work tree around a folder, and the
 * commit of some paths, with git run in a clean environment and a time limit.
 *
 * @module
 */

import { type CommitAuthor, RepositoryError } from "../repository.ts";
import { concatBytes } from "../../encoding/bytes.ts";
import { oneLine } from "../../encoding/text.ts";
import { decode, describe, failure } from "./support.ts";

/** How long one git command may run before it is stopped. */
const GIT_TIMEOUT_MS = 60_000;
/** The identity used when git has none configured. */
const FALLBACK_NAME = "inpage editor";
const FALLBACK_EMAIL = "editor@localhost";

/** What git said about the work tree around the root. */
export interface WorkTree {
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

/**
 * Asks git whether the root is inside a work tree, and about its identity.
 *
 * @param root the real path of the folder
 * @returns the work tree, or `null` outside one or without git
 */
export async function findWorkTree(root: string): Promise<WorkTree | null> {
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

// Control characters, and what would break a git ident line.
// deno-lint-ignore no-control-regex
const IDENT_REFUSED = /[\x00-\x1f\x7f<>]/;

/**
 * An author git can record as given: a name with a letter or digit and an
 * email, neither holding control characters, `<` or `>`, at most 254
 * characters each.
 *
 * @param author the author
 * @returns the author, its name trimmed
 * @throws {RepositoryError} `unavailable` when git could not record it
 */
export function checkedAuthor(author: CommitAuthor): CommitAuthor {
  const name = typeof author?.name === "string" ? author.name.trim() : "";
  const email = typeof author?.email === "string" ? author.email.trim() : "";
  if (
    !/[\p{L}\p{N}]/u.test(name) || name.length > 254 ||
    IDENT_REFUSED.test(name) || email === "" || email.length > 254 ||
    IDENT_REFUSED.test(email)
  ) {
    throw new RepositoryError(
      "unavailable",
      "The commit author is not a name and an email git can record",
    );
  }
  return { name, email };
}

/**
 * Commits some paths together and nothing else, authored by `author` when
 * given (else git's configured identity). Other staged changes stay staged
 * and out of the commit. When every path already matches `HEAD` nothing is
 * committed. On failure the paths' index entries are put back as they were.
 */
export async function commitPaths(
  root: string,
  git: WorkTree,
  paths: readonly string[],
  message: string,
  author?: CommitAuthor,
): Promise<void> {
  const before = await mustRunGit(root, [
    "ls-files",
    "--stage",
    "-z",
    "--full-name",
    "--",
    ...paths,
  ]);
  // `commit --only` takes a known path's content from the work tree; a new
  // file must first be made known. Each git run costs a process, which a
  // busy machine delays: a publish over known files runs two.
  const known = new Set(
    new TextDecoder().decode(before.stdout).split("\0").map((entry) =>
      entry.slice(entry.indexOf("\t") + 1)
    ),
  );
  const added = paths.filter((path) => !known.has(`${git.prefix}${path}`));
  if (added.length > 0) await mustRunGit(root, ["add", "--", ...added]);
  try {
    const line = oneLine(message) || `Update ${paths[0]}`;
    const commit = await runGit(root, [
      "commit",
      "--only",
      "--no-verify",
      "--quiet",
      "--cleanup=verbatim",
      `--message=${line}`,
      ...(author ? [`--author=${author.name} <${author.email}>`] : []),
      "--",
      ...paths,
    ], git.identity);
    if (commit.code === 0) return;
    // Refused: nothing to commit when the bytes are those of HEAD; the index
    // then takes them too (it may hold other bytes the user had staged).
    const diff = await runGit(root, [
      "diff",
      "--quiet",
      "--no-ext-diff",
      "--no-textconv",
      "HEAD",
      "--",
      ...paths,
    ]);
    if (diff.code === 0) {
      await mustRunGit(root, ["add", "--", ...paths]);
      return;
    }
    throw new Error(`git commit exited with ${commit.code}: ${commit.stderr}`);
  } catch (error) {
    // A mode-0 entry removes a path; the old entries, if any, follow.
    const entries = concatBytes(
      new TextEncoder().encode(
        paths.map((path) => `0 ${git.zeroId}\t${git.prefix}${path}\0`).join(
          "",
        ),
      ),
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
export async function runGit(
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
export async function mustRunGit(
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
