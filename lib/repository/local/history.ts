/**
 * The local checkout's history: the commits that changed a file
 * (`git log --follow`), and a file as it was at a commit (`git cat-file`),
 * with git run without a shell, every argument checked, and `--` before
 * the path.
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
  /^:\d{6} \d{6} [0-9a-f]{40,64} ([0-9a-f]{40,64}) ([A-Z])\d*\t(?:[^\t\n]*\t)?([^\t\n]*)$/;
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
      const [, blob = "", status = "", file = ""] = raw;
      version = status === "D" || ZERO.test(blob) ? "" : blob;
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
 * @returns the file, or `null` when there is no such commit or it had no
 *   such file
 */
export async function fileAt(
  root: string,
  git: WorkTree,
  path: string,
  commit: string,
): Promise<RepositoryFile | null> {
  checkedSegments(path);
  if (!COMMIT_ID.test(commit)) return null;
  // `^{commit}`: a tree's or a blob's id is not a commit.
  const query = `${commit}^{commit}:${git.prefix}${path}\n`;
  const answer = await runGit(
    root,
    ["cat-file", "--batch"],
    {},
    new TextEncoder().encode(query),
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
  const match = /^[0-9a-f]{40,64} (\w+) (\d+)$/.exec(header);
  if (!match) return null; // "… missing": no such commit, or no such file
  const [, type = "", size = "0"] = match;
  if (type !== "blob") return null; // a folder at that path then
  const content = output.slice(newline + 1, newline + 1 + Number(size));
  return { content, version: gitBlobSha(content) };
}
