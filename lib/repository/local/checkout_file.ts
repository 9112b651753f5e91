/**
 * The one reader of a checkout's files: what a repository path leads to on
 * disk, and its bytes when it is a regular file inside the checkout. The
 * local checkout's reads and writes (`editor serve`), `editor check` and
 * `editor check --html` all go through it, so they refuse the same things:
 *
 * - a path that leaves the root (absolute, `.`, `..`, empty segments,
 *   `.git`: {@linkcode checkedSegments});
 * - a folder on the way that is a symbolic link out of the checkout, or a
 *   dangling one (a link that stays inside is followed);
 * - a file that is itself a symbolic link, wherever it points;
 * - anything but a regular file: a FIFO is never opened (opening one waits
 *   for a writer), nor a socket, a device or a folder;
 * - with a cap, a file over it, which is not read.
 *
 * @module
 */

import { join, sep } from "node:path";
import { RepositoryError } from "../repository.ts";
import { checkedSegments, lstatOrNull, type Target } from "./files.ts";
import { failure, isAbsence } from "./support.ts";

/**
 * Finds what is at a repository path, refusing anything that leaves the
 * root: absolute paths, `.`, `..`, empty segments, `.git`, and symbolic
 * links that resolve outside (or nowhere).
 *
 * @param root the checkout's real path
 * @param path the repository path, with `/` separators
 * @returns what is there (a folder at the path is `not_regular`)
 * @throws {RepositoryError} `unauthorized` for a refused path or a link out
 *   of the checkout, `unavailable` when the disk cannot be read
 */
export async function resolveTarget(
  root: string,
  path: string,
): Promise<Target> {
  const segments = checkedSegments(path);
  let folder = root;
  const missing: string[] = [];
  for (const segment of segments.slice(0, -1)) {
    folder = join(folder, segment);
    if (missing.length > 0) {
      missing.push(folder);
      continue;
    }
    const info = await lstatOrNull(folder, path);
    if (info === null) missing.push(folder);
    else if (info.isSymlink) await checkLink(root, folder, path);
    else if (!info.isDirectory) {
      return { state: "blocked", absolute: folder, missing: [] };
    }
  }
  const absolute = join(root, ...segments);
  if (missing.length > 0) return { state: "absent", absolute, missing };
  const info = await lstatOrNull(absolute, path);
  if (info === null) return { state: "absent", absolute, missing };
  // A file that is itself a link is refused wherever it points.
  if (info.isSymlink) return { state: "symlink", absolute, missing };
  if (!info.isFile) return { state: "not_regular", absolute, missing };
  return { state: "file", absolute, missing, mode: info.mode, size: info.size };
}

/** Refuses a symbolic link that is dangling or resolves outside the root. */
async function checkLink(
  root: string,
  link: string,
  path: string,
): Promise<void> {
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
  const inside = root.endsWith(sep) ? root : root + sep;
  if (real !== root && !real.startsWith(inside)) {
    throw new RepositoryError(
      "unauthorized",
      `${path} leads outside the repository`,
    );
  }
}

/** What is at a path with no symbolic link on the way. */
async function plainTarget(absolute: string, path: string): Promise<Target> {
  const info = await lstatOrNull(absolute, path);
  if (info === null) return { state: "absent", absolute, missing: [] };
  if (!info.isFile) return { state: "not_regular", absolute, missing: [] };
  return {
    state: "file",
    absolute,
    missing: [],
    mode: info.mode,
    size: info.size,
  };
}

/** A checkout file as {@linkcode readCheckoutFile} finds it. */
export type CheckoutFile =
  | {
    /** A regular file inside the checkout, read. */
    readonly kind: "file";
    /** Its bytes. */
    readonly content: Uint8Array;
  }
  | {
    /**
     * `absent`: nothing there (or a file where a folder should be);
     * `symlink`: the file is a symbolic link; `outside`: a symbolic link on
     * the way leads out of the checkout, or nowhere; `not_regular`: a FIFO,
     * a socket, a device or a folder; `too_large`: over the cap.
     */
    readonly kind:
      | "absent"
      | "symlink"
      | "outside"
      | "not_regular"
      | "too_large";
    /** Why, in words, for a log or a report. */
    readonly detail: string;
  };

/**
 * Reads a file of a checkout, refusing what the module doc lists.
 *
 * @param root the checkout's real path (`Deno.realPath`)
 * @param path the repository path, with `/` separators
 * @param max the most bytes to read: a larger file is `too_large`, unread
 * @returns the file, or what is there instead
 * @throws {RepositoryError} `unauthorized` for a path that leaves the root
 *   (`..`, `.git`, absolute), `unavailable` when the disk cannot be read
 * @example
 * ```ts
 * import { readCheckoutFile } from "./checkout_file.ts";
 * import assert from "node:assert/strict";
 *
 * const root = await Deno.realPath(await Deno.makeTempDir());
 * await Deno.writeTextFile(`${root}/a.json`, "{}");
 * await Deno.symlink(`${root}/a.json`, `${root}/b.json`);
 * assert.equal((await readCheckoutFile(root, "a.json")).kind, "file");
 * assert.equal((await readCheckoutFile(root, "b.json")).kind, "symlink");
 * assert.equal((await readCheckoutFile(root, "c.json")).kind, "absent");
 * await Deno.remove(root, { recursive: true });
 * ```
 */
export async function readCheckoutFile(
  root: string,
  path: string,
  max: number = Infinity,
): Promise<CheckoutFile> {
  // Fast path: one realPath; equal to the joined path means no symbolic
  // link anywhere on the way (the root is a real path). Anything else takes
  // the segment by segment walk.
  const absolute = join(root, ...checkedSegments(path));
  const real = await Deno.realPath(absolute).catch(() => undefined);
  let target: Target;
  try {
    target = real === absolute
      ? await plainTarget(absolute, path)
      : await resolveTarget(root, path);
  } catch (error) {
    if (
      error instanceof RepositoryError && error.code === "unauthorized" &&
      !/^Refused path/.test(error.message)
    ) {
      return { kind: "outside", detail: error.message };
    }
    throw error;
  }
  switch (target.state) {
    case "absent":
    case "blocked":
      return { kind: "absent", detail: `no file ${path}` };
    case "symlink":
      return { kind: "symlink", detail: `${path} is a symbolic link` };
    case "not_regular":
      return {
        kind: "not_regular",
        detail:
          `${path} is not a regular file (a FIFO, socket, device or folder)`,
      };
  }
  if (target.size > max) {
    return { kind: "too_large", detail: `${path} is over ${max} bytes` };
  }
  let content: Uint8Array;
  try {
    content = await Deno.readFile(target.absolute);
  } catch (error) {
    if (isAbsence(error)) return { kind: "absent", detail: `no file ${path}` };
    throw failure(error, `Cannot read ${path}`);
  }
  if (content.byteLength > max) {
    return { kind: "too_large", detail: `${path} is over ${max} bytes` };
  }
  return { kind: "file", content };
}
