/**
 * Recovery of a publish interrupted by a killed process (SIGKILL, power
 * loss): the checkout notes each publish under way in the git folder before
 * the file changes and clears the note once committed or restored; the next
 * time a checkout of the repository is opened, a note left behind is
 * finished and temporary files are removed, so that the work tree is clean.
 *
 * @module
 */

import { basename, join } from "node:path";
import { checkedSegments } from "./files.ts";
import { checkedAuthor, commitPaths, runGit, type WorkTree } from "./git.ts";
import type { CommitAuthor } from "../repository.ts";
import { LOCK_FILE, withProcessLock } from "./lock.ts";
import { failure } from "./support.ts";

/** The note of a publish under way, in the git folder. */
export const PENDING_FILE = "inpage-editor.pending";
/** The temporary files of `replaceFile`. */
const TEMPORARY = /^\..+\.[0-9a-f]{12}\.inpage-tmp$/;

/**
 * Finishes what a process killed in the middle of a publish left, holding
 * the lock: removes its temporary files, and commits the file it had
 * renamed into place but not yet committed (the note of the publish under
 * way names it), so that the work tree is clean again. A git still running
 * for the killed process is waited for (its index lock), up to 3 seconds.
 *
 * @param root the real path of the checkout
 * @param git its work tree
 */
export async function recover(root: string, git: WorkTree): Promise<void> {
  const pending = join(git.gitDir, PENDING_FILE);
  const note = await Deno.readTextFile(pending).then(readNote, () => undefined);
  const others = await runGit(root, [
    "ls-files",
    "--others",
    "--exclude-standard",
    "-z",
  ]).catch(() => undefined);
  const temporary = new TextDecoder().decode(others?.stdout).split("\0")
    .filter((path) => TEMPORARY.test(basename(path)));
  if (note === undefined && temporary.length === 0) return;
  await withProcessLock(join(git.gitDir, LOCK_FILE), root, async () => {
    for (const path of temporary) {
      await Deno.remove(join(root, path)).catch(() => {});
    }
    if (note) {
      for (const path of note.paths) checkedSegments(path);
      const deadline = Date.now() + 3_000;
      for (;;) {
        try {
          await commitPaths(root, git, note.paths, note.message, note.author);
          break;
        } catch (error) {
          if (Date.now() > deadline) throw failure(error, "Cannot recover");
          await new Promise((resolve) => setTimeout(resolve, 100));
        }
      }
    }
    await Deno.remove(pending).catch(() => {});
  });
}

/** A publish under way, as its note names it. */
interface PendingNote {
  paths: string[];
  message: string;
  author?: CommitAuthor;
}

/**
 * Reads the note of a publish under way. A note cut short while being
 * written (the process was killed, or the machine stopped, before the write
 * and its flush finished: an empty file, or JSON without its closing brace)
 * was cut before the file changed, since the checkout flushes the note to
 * disk first; its publish left nothing to finish: `null`, and only the note
 * goes.
 */
function readNote(text: string): PendingNote | null {
  try {
    const note = JSON.parse(text) as {
      path?: unknown;
      paths?: unknown;
      message?: unknown;
      author?: unknown;
    };
    // A note names its paths; one written before commits of several files
    // names its one path.
    const paths = typeof note?.path === "string"
      ? [note.path]
      : Array.isArray(note?.paths) && note.paths.length > 0 &&
          note.paths.every((path) => typeof path === "string")
      ? note.paths as string[]
      : undefined;
    if (paths === undefined || typeof note.message !== "string") {
      return null;
    }
    let author: CommitAuthor | undefined;
    try {
      author = note.author === undefined
        ? undefined
        : checkedAuthor(note.author as CommitAuthor);
    } catch {
      author = undefined; // git's own identity then
    }
    return author
      ? { paths, message: note.message, author }
      : { paths, message: note.message };
  } catch {
    return null;
  }
}
