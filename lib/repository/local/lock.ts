/**
 * The local checkout's lock: writes to one repository run one at a time in
 * this process, and across processes under an advisory lock file.
 *
 * @module
 */

import { RepositoryError } from "../repository.ts";
import { failure } from "./support.ts";

/** How long a write waits for another process to release the lock. */
const LOCK_TIMEOUT_MS = 30_000;
/** How often a waiting write tries the lock again. */
const LOCK_POLL_MS = 20;
/** The lock file's name inside the git folder. */
export const LOCK_FILE = "inpage-editor.lock";

/** Runs tasks for one key one at a time, in call order. */
const queues = new Map<string, Promise<void>>();

/**
 * Runs a task after every earlier task queued under the same key.
 *
 * @param key what the tasks share (a git folder or a root)
 * @param task the work
 * @returns the task's result
 */
export function serialise<T>(key: string, task: () => Promise<T>): Promise<T> {
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
export async function withProcessLock<T>(
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
