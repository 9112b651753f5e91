/**
 * The local checkout's history: the commits that changed a file
 * (`git log --follow`), and a file as it was at a commit (`git cat-file`),
 * with git run without a shell, every argument checked, and `--` before
 * the path. Only the checked-out branch's own history is answered (a commit
 * of another branch, or an annotated tag's id, is no commit here), and a
 * past symbolic link never gives its target's text.
 *
 * @module
 */

import type { HistoryEntry, RepositoryFile } from "../repository.ts";
import { gitBlobSha } from "../repository.ts";
import { RepositoryError } from "../repository.ts";
import { checkedSegments } from "./files.ts";
import { runGit, type WorkTree } from "./git.ts";
import { decode } from "./support.ts";

/** A commit id as the routes accept it: 40 lowercase hex digits. */
export const COMMIT_ID = /^[0-9a-f]{40}$/;

const RECORD = "\x1e";
const FIELD = "\x1f";
const RAW =
  /^:\d{6} (\d{6}) [0-9a-f]{40,64} ([0-9a-f]{40,64}) ([A-Z])\d*\t(?:[^\t\n]*\t)?([^\t\n]*)$/;
/** The mode git gives a symbolic link. */
const LINK_MODE = "120000";
const ZERO = /^0+$/;

/**
 * The commits that changed a file, newest first, following renames.
 *
 * @param root the checkout's real path
 * @param git its work tree
 * @param path the repository path, relative to the root
 * @param before only commits older than this one; from `HEAD` without
 * @param limit at most this many entries
 * @returns the entries, or `null` when `before` names no commit
 */
export async function fileHistory(
  root: string,
  git: WorkTree,
  path: string,
  before: string | undefined,
  limit: number,
): Promise<HistoryEntry[] | null> {
  checkedSegments(path);
  if (before !== undefined && !COMMIT_ID.test(before)) return null;
  if (!Number.isSafeInteger(limit) || limit < 1) return [];
  if (before !== undefined && !await onBranch(root, before)) return null;
  const start = before === undefined ? "HEAD" : `${before}^{commit}`;
  const log = await runGit(root, [
    "log",
    "--follow",
    "--no-color",
    "--no-abbrev",
    "--no-ext-diff",
    "--no-textconv",
    "--raw",
    `--max-count=${before === undefined ? limit : limit + 1}`,
    `--format=${RECORD}%H${FIELD}%aI${FIELD}%an${FIELD}%s`,
    start,
    "--",
    path,
  ]);
  if (log.code !== 0) {
    if (before === undefined) {
      // A repository without a commit yet has no history.
      const head = await runGit(root, ["rev-parse", "--verify", "-q", "HEAD"]);
      if (head.code !== 0) return [];
    } else if (
      /bad object|bad revision|unknown revision|expected commit type/i.test(
        log.stderr,
      )
    ) {
      return null;
    }
    throw new RepositoryError(
      "unavailable",
      `git log exited with ${log.code}: ${log.stderr}`,
    );
  }
  const entries: (HistoryEntry & { name: string | undefined })[] = [];
  for (const record of decode(log.stdout).split(RECORD).slice(1)) {
    const [header = "", ...rest] = record.split("\n");
    const [commit = "", date = "", author = "", message = ""] = header.split(
      FIELD,
    );
    if (!COMMIT_ID.test(commit)) continue;
    let version: string | undefined;
    let name: string | undefined;
    for (const line of rest) {
      const raw = RAW.exec(line);
      if (!raw) continue;
      const [, mode = "", blob = "", status = "", file = ""] = raw;
      // A link is no version of the page (its blob is the target's name).
      version = status === "D" || ZERO.test(blob) || mode === LINK_MODE
        ? ""
        : blob;
      name = file;
      break;
    }
    entries.push({
      commit,
      version: version ?? "?",
      date,
      author,
      message,
      name,
    });
  }
  const page = before !== undefined && entries[0]?.commit === before
    ? entries.slice(1)
    : entries.slice(0, limit);
  await fillVersions(root, git, path, page.slice(0, limit));
  return page.slice(0, limit).map((
    { commit, version, date, author, message },
  ) => ({
    commit,
    version,
    date,
    author,
    message,
  }));
}

/**
 * The versions git log showed no diff for (a merge): read from the tree of
 * each commit, by the file's name there (that of the next newer entry
 * known, after a rename), with one `git cat-file`.
 */
async function fillVersions(
  root: string,
  git: WorkTree,
  path: string,
  entries: (HistoryEntry & { name: string | undefined })[],
): Promise<void> {
  const missing: (HistoryEntry & { name: string | undefined })[] = [];
  let name = `${git.prefix}${path}`;
  for (const entry of entries) {
    if (entry.name !== undefined) name = entry.name;
    else entry.name = name;
    if (entry.version === "?") missing.push(entry);
  }
  if (missing.length === 0) return;
  const input = new TextEncoder().encode(
    missing.map((entry) => `${entry.commit}:${entry.name}\n`).join(""),
  );
  const answer = await runGit(
    root,
    [
      "cat-file",
      "--batch-check=%(objectname) %(objecttype)",
    ],
    {},
    input,
  );
  const lines = decode(answer.stdout).split("\n");
  missing.forEach((entry, index) => {
    const [object = "", type = ""] = (lines[index] ?? "").split(" ");
    entry.version = answer.code === 0 && type === "blob" ? object : "";
  });
}

/**
 * A file as it was at a commit, with one `git cat-file --batch`.
 *
 * @param root the checkout's real path
 * @param git its work tree
 * @param path the repository path, relative to the root
 * @param commit 40 lowercase hex digits
 * @param anyBranch whether a commit off the branch's history (a review's)
 *   is read too
 * @returns the file, or `null` when there is no such commit (on the
 *   branch's history, unless `anyBranch`) or it had no such file
 */
export async function fileAt(
  root: string,
  git: WorkTree,
  path: string,
  commit: string,
  anyBranch = false,
): Promise<RepositoryFile | null> {
  checkedSegments(path);
  if (!COMMIT_ID.test(commit)) return null;
  if (!anyBranch && !await onBranch(root, commit)) return null;
  // What the commit's tree holds at the path: a blob, not a link.
  const listed = await runGit(root, [
    "ls-tree",
    "-z",
    "--full-tree",
    commit,
    "--",
    `${git.prefix}${path}`,
  ]);
  if (listed.code !== 0) {
    throw new RepositoryError(
      "unavailable",
      `git ls-tree exited with ${listed.code}: ${listed.stderr}`,
    );
  }
  const entry = /^(\d{6}) (\w+) ([0-9a-f]{40,64})\t/.exec(
    decode(listed.stdout).split("\0")[0] ?? "",
  );
  if (!entry || entry[2] !== "blob" || entry[1] === LINK_MODE) return null;
  const answer = await runGit(
    root,
    ["cat-file", "--batch"],
    {},
    new TextEncoder().encode(`${entry[3]}\n`),
  );
  if (answer.code !== 0) {
    throw new RepositoryError(
      "unavailable",
      `git cat-file exited with ${answer.code}: ${answer.stderr}`,
    );
  }
  const output = answer.stdout;
  const newline = output.indexOf(10);
  const header = decode(output.subarray(0, newline < 0 ? 0 : newline));
  const match = /^[0-9a-f]{40,64} blob (\d+)$/.exec(header);
  if (!match) return null;
  const content = output.slice(newline + 1, newline + 1 + Number(match[1]));
  return { content, version: gitBlobSha(content) };
}

/**
 * Whether a commit id names a commit of the checked-out branch's history:
 * a commit object (an annotated tag's own id is not one), and an ancestor of
 * `HEAD` (or `HEAD` itself). A commit of another branch is not.
 *
 * @param root the checkout's real path
 * @param commit 40 lowercase hex digits
 * @returns whether to answer it
 */
export async function onBranch(root: string, commit: string): Promise<boolean> {
  const type = await runGit(root, ["cat-file", "-t", commit]);
  if (type.code !== 0 || decode(type.stdout).trim() !== "commit") return false;
  const ancestor = await runGit(root, [
    "merge-base",
    "--is-ancestor",
    commit,
    "HEAD",
  ]);
  if (ancestor.code === 0) return true;
  if (ancestor.code === 1) return false;
  throw new RepositoryError(
    "unavailable",
    `git merge-base exited with ${ancestor.code}: ${ancestor.stderr}`,
  );
}
