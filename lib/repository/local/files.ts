/**
 * The local checkout's file store: repository paths checked and resolved
 * on disk, and a file replaced whole (a flushed temporary file renamed over
 * it), with the folders it needed removed again on failure.
 *
 * @module
 */

import { basename, dirname, join } from "node:path";
import { RepositoryError } from "../repository.ts";
import { failure, isAbsence, randomHex } from "./support.ts";

/** What a repository path leads to. */
export type Target =
  | {
    /**
     * Nothing there; a symbolic link inside the root; a file as a folder;
     * something that is not a regular file (a FIFO, a socket, a device, a
     * folder).
     */
    state: "absent" | "symlink" | "blocked" | "not_regular";
    /** The path on disk. */
    absolute: string;
    /** Folders to create for a write, outermost first. */
    missing: string[];
  }
  | {
    state: "file";
    absolute: string;
    missing: string[];
    mode: number | null;
    size: number;
  };

/**
 * The segments of a repository path, or a refusal.
 *
 * @param path a repository-relative path with `/` separators
 * @returns its segments, none empty, `.`, `..` or `.git`
 */
export function checkedSegments(path: string): string[] {
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
export async function lstatOrNull(
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
export async function replaceFile(
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

/**
 * Writes a small file and flushes it to disk before resolving, so that what
 * is done after it cannot reach the disk before it (a power loss then finds
 * it whole, or finds the later step not done).
 *
 * @param path the file, created or truncated
 * @param text its content
 */
export async function writeSynced(path: string, text: string): Promise<void> {
  using file = await Deno.open(path, {
    write: true,
    create: true,
    truncate: true,
  });
  const bytes = new TextEncoder().encode(text);
  for (let offset = 0; offset < bytes.byteLength;) {
    offset += await file.write(bytes.subarray(offset));
  }
  await file.sync();
}

/** Removes folders made for a failed write, deepest first, when empty. */
export async function removeEmptyFolders(
  folders: readonly string[],
): Promise<void> {
  for (const folder of [...folders].reverse()) {
    try {
      await Deno.remove(folder);
    } catch {
      return;
    }
  }
}
