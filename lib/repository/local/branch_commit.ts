/**
 * Commits on a branch other than the checked-out one, without a checkout:
 * a temporary index read from the branch's tree (or the site branch's head
 * for a new branch), the files' blobs set in it, `git write-tree`,
 * `git commit-tree`, and `git update-ref` with the old value (a
 * compare-and-swap). The work tree and the user's index are never touched.
 * Also the deletion of such a branch.
 *
 * @module
 */

import { join } from "node:path";
import {
  BranchExistsError,
  type CommitAuthor,
  type CommitResult,
  ConflictError,
  gitBlobSha,
  isOwnBranch,
  RepositoryError,
} from "../repository.ts";
import { oneLine } from "../../encoding/text.ts";
import { mustRunGit, runGit, type WorkTree } from "./git.ts";
import { decode, randomHex } from "./support.ts";

/** A file to commit on a branch: its bytes in git's object store. */
export interface BranchFile {
  /** The repository path (relative to the checkout's root). */
  path: string;
  /** Its bytes' object name in git's object store. */
  object: string;
  /** Its bytes' version (git blob SHA-1). */
  version: string;
  /** The version it must have on the branch, `""` absent; `null` any. */
  expected: string | null;
}

/**
 * The full name of a branch the checkout may commit to without a checkout.
 *
 * @param branch the branch's name
 * @returns `refs/heads/{branch}`
 * @throws {RepositoryError} `unauthorized` for a name outside `inpage/`
 */
export function ownBranchRef(branch: string): string {
  if (!isOwnBranch(branch)) {
    throw new RepositoryError(
      "unauthorized",
      `Refused branch (only inpage/… besides the site branch): ${
        String(branch).slice(0, 80)
      }`,
    );
  }
  return `refs/heads/${branch}`;
}

/**
 * The commit a ref names, or `""` when it names none.
 *
 * @param root where git runs
 * @param ref a ref or revision
 * @returns the commit's id, or `""`
 */
export async function commitOf(root: string, ref: string): Promise<string> {
  const answer = await runGit(root, [
    "rev-parse",
    "--verify",
    "--quiet",
    `${ref}^{commit}`,
  ]);
  return answer.code === 0 ? decode(answer.stdout).trim() : "";
}

/**
 * Commits files on an `inpage/…` branch that is not checked out; a branch
 * that does not exist is made from `HEAD`.
 *
 * @param root the checkout's real path
 * @param git its work tree
 * @param branch the branch's name
 * @param files the files, their blobs already in git's object store
 * @param message the commit message
 * @param author the commit's author, if any
 * @param create whether the branch must not exist yet
 * @returns the branch's head after the commit, each file's version, and the
 *   commit it was made on
 * @throws {ConflictError} naming a file whose version is not the expected one
 * @throws {BranchExistsError} with `create`, when the branch exists
 * @throws {RepositoryError} when git fails or the branch moved meanwhile
 */
export async function commitOnBranch(
  root: string,
  git: WorkTree,
  branch: string,
  files: readonly BranchFile[],
  message: string,
  author: CommitAuthor | undefined,
  create = false,
): Promise<CommitResult> {
  const ref = ownBranchRef(branch);
  const old = await commitOf(root, ref);
  if (create && old !== "") throw new BranchExistsError(branch);
  const base = old || await commitOf(root, "HEAD");
  if (base === "") {
    throw new RepositoryError(
      "unavailable",
      `The site branch has no commit to make ${branch} from`,
    );
  }
  const full = (path: string) => `${git.prefix}${path}`;
  const modes = await checkVersions(git, base, files, full);
  const index = join(git.gitDir, `inpage-index-${randomHex(6)}`);
  const inIndex = { GIT_INDEX_FILE: index };
  const top = git.topLevel;
  try {
    await mustRunGit(top, ["read-tree", base], inIndex);
    for (const file of files) {
      const mode = modes.get(file.path) ?? "100644";
      await mustRunGit(top, [
        "update-index",
        "--add",
        "--cacheinfo",
        `${mode},${file.object},${full(file.path)}`,
      ], inIndex);
    }
    const tree = decode((await mustRunGit(top, ["write-tree"], inIndex)).stdout)
      .trim();
    const versions = Object.fromEntries(
      files.map((file) => [file.path, file.version]),
    );
    const baseTree = decode(
      (await mustRunGit(top, ["rev-parse", `${base}^{tree}`])).stdout,
    ).trim();
    let head = base;
    if (tree !== baseTree || old === "") {
      if (tree !== baseTree) {
        const who = author
          ? { GIT_AUTHOR_NAME: author.name, GIT_AUTHOR_EMAIL: author.email }
          : {};
        head = decode(
          (await mustRunGit(top, [
            "commit-tree",
            tree,
            "-p",
            base,
            "-m",
            oneLine(message) || `Update ${branch}`,
          ], { ...git.identity, ...who })).stdout,
        ).trim();
      }
      const moved = await runGit(top, [
        "update-ref",
        "-m",
        "inpage-editor: commit",
        ref,
        head,
        old || git.zeroId,
      ]);
      if (moved.code !== 0) {
        // Made meanwhile by another process: its commits are kept.
        if (create) throw new BranchExistsError(branch);
        throw new RepositoryError(
          "unavailable",
          `${branch} moved meanwhile: ${moved.stderr}`,
        );
      }
    }
    return head === base
      ? { commit: head, versions }
      : { commit: head, versions, parent: base };
  } catch (error) {
    if (
      error instanceof RepositoryError || error instanceof BranchExistsError
    ) {
      throw error;
    }
    throw new RepositoryError(
      "unavailable",
      `Cannot commit on ${branch}: ${
        error instanceof Error ? error.message : String(error)
      }`,
    );
  } finally {
    await Deno.remove(index).catch(() => {});
    await Deno.remove(`${index}.lock`).catch(() => {});
  }
}

/**
 * Checks each file's condition against the base commit's tree, and answers
 * the mode of each file that exists there (an executable stays one).
 */
async function checkVersions(
  git: WorkTree,
  base: string,
  files: readonly BranchFile[],
  full: (path: string) => string,
): Promise<Map<string, string>> {
  const listing = await mustRunGit(git.topLevel, [
    "ls-tree",
    "-z",
    "--full-tree",
    base,
    "--",
    ...files.map((file) => full(file.path)),
  ]);
  const found = new Map<string, { mode: string; object: string }>();
  for (const entry of decode(listing.stdout).split("\0")) {
    const match = /^(\d{6}) blob ([0-9a-f]{40,64})\t(.*)$/s.exec(entry);
    if (match) found.set(match[3]!, { mode: match[1]!, object: match[2]! });
  }
  const modes = new Map<string, string>();
  for (const file of files) {
    const there = found.get(full(file.path));
    if (there && (there.mode === "100644" || there.mode === "100755")) {
      modes.set(file.path, there.mode);
    }
    if (file.expected === null) continue;
    let version = "";
    if (there) {
      version = there.object.length === 40 ? there.object : gitBlobSha(
        (await mustRunGit(git.topLevel, [
          "cat-file",
          "blob",
          there.object,
        ])).stdout,
      );
    }
    if (version !== file.expected) {
      throw new ConflictError(
        `${file.path} is ${version || "absent"} on the branch, expected ${
          file.expected || "absent"
        }`,
        file.path,
      );
    }
  }
  return modes;
}

/**
 * Deletes an `inpage/…` branch that is not checked out.
 *
 * @param root the checkout's real path
 * @param branch the branch's name
 * @returns `true` when deleted, `false` when there was none
 * @throws {RepositoryError} `unauthorized` for a name outside `inpage/` or
 *   the checked-out branch; `unavailable` when git fails
 */
export async function deleteOwnBranch(
  root: string,
  branch: string,
): Promise<boolean> {
  const ref = ownBranchRef(branch);
  const current = await runGit(root, ["symbolic-ref", "--quiet", "HEAD"]);
  if (current.code === 0 && decode(current.stdout).trim() === ref) {
    throw new RepositoryError(
      "unauthorized",
      `Refusing to delete the checked-out branch ${branch}`,
    );
  }
  const old = await commitOf(root, ref);
  if (old === "") return false;
  const deleted = await runGit(root, ["update-ref", "-d", ref, old]);
  if (deleted.code !== 0) {
    throw new RepositoryError(
      "unavailable",
      `Cannot delete ${branch}: ${deleted.stderr}`,
    );
  }
  return true;
}
