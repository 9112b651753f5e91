/**
 * The local checkout's staged bytes: kept aside for a later commit, never
 * in the work tree. In a git work tree they go to git's object store
 * (`git hash-object -w`), unreachable until a commit names them (git's
 * garbage collection drops them otherwise, after `gc.pruneExpire`); in a
 * folder that is not committed, to a folder of the system's temporary
 * directory named after the checkout, where files older than a day are
 * removed as new ones arrive.
 *
 * @module
 */

import { join } from "node:path";
import { tmpdir } from "node:os";
import { gitBlobSha, RepositoryError, type StagedBlob } from "../repository.ts";
import { sha1Hex } from "../../digest.ts";
import { runGit, type WorkTree } from "./git.ts";
import { failure, isAbsence } from "./support.ts";

/** A staged id: a git object name (SHA-1 or SHA-256). */
const OBJECT_ID = /^[0-9a-f]{40}(?:[0-9a-f]{24})?$/;
/** Staged files of a folder outside git older than this are removed. */
const KEPT_MS = 24 * 3_600_000;

/**
 * The folder of the system's temporary directory where a checkout outside
 * git keeps staged bytes: one per checkout, the same for every process.
 *
 * @param root the checkout's real path
 * @returns the folder's path (not created)
 */
export function stagingFolder(root: string): string {
  const name = sha1Hex(new TextEncoder().encode(root)).slice(0, 16);
  return join(tmpdir(), "inpage-editor-staged", name);
}

/**
 * Keeps bytes aside.
 *
 * @param root the checkout's real path
 * @param git its work tree, or `null` outside git
 * @param content the bytes
 * @returns the id to commit them by
 * @throws {RepositoryError} when they cannot be kept
 */
export async function stageBytes(
  root: string,
  git: WorkTree | null,
  content: Uint8Array,
): Promise<StagedBlob> {
  if (git !== null) {
    const result = await runGit(
      root,
      ["hash-object", "-w", "--stdin"],
      {},
      content,
    ).catch((error) => {
      throw failure(error, "Cannot stage the bytes");
    });
    const id = new TextDecoder().decode(result.stdout).trim();
    if (result.code !== 0 || !OBJECT_ID.test(id)) {
      throw new RepositoryError(
        "unavailable",
        `git hash-object exited with ${result.code}: ${result.stderr}`,
      );
    }
    return { staged: id };
  }
  const folder = stagingFolder(root);
  const id = gitBlobSha(content);
  try {
    await Deno.mkdir(folder, { recursive: true, mode: 0o700 });
    await removeOld(folder);
    const temporary = join(folder, `.${id}.${crypto.randomUUID()}`);
    await Deno.writeFile(temporary, content, { mode: 0o600 });
    await Deno.rename(temporary, join(folder, id));
  } catch (error) {
    throw failure(error, "Cannot stage the bytes");
  }
  return { staged: id };
}

/**
 * The bytes kept aside under an id.
 *
 * @param root the checkout's real path
 * @param git its work tree, or `null` outside git
 * @param blob what `stageBytes` answered
 * @returns the bytes
 * @throws {RepositoryError} `unavailable` when they are no longer kept
 */
export async function stagedBytes(
  root: string,
  git: WorkTree | null,
  blob: StagedBlob,
): Promise<Uint8Array> {
  const id = blob.staged;
  if (typeof id !== "string" || !OBJECT_ID.test(id)) {
    throw new RepositoryError("unavailable", "A staged id is malformed");
  }
  let content: Uint8Array;
  if (git !== null) {
    const result = await runGit(root, ["cat-file", "blob", id]).catch(
      (error) => {
        throw failure(error, "Cannot read staged bytes");
      },
    );
    if (result.code !== 0) {
      throw new RepositoryError(
        "unavailable",
        `The staged blob ${id} is no longer kept: ${result.stderr}`,
      );
    }
    content = result.stdout;
    // A SHA-1 repository's object name is the bytes' version.
    if (id.length === 40 && gitBlobSha(content) !== id) {
      throw new RepositoryError("unavailable", `The blob ${id} is not whole`);
    }
    return content;
  }
  try {
    content = await Deno.readFile(join(stagingFolder(root), id));
  } catch (error) {
    if (isAbsence(error)) {
      throw new RepositoryError(
        "unavailable",
        `The staged bytes ${id} are no longer kept`,
      );
    }
    throw failure(error, "Cannot read staged bytes");
  }
  if (gitBlobSha(content) !== id) {
    throw new RepositoryError("unavailable", `The bytes ${id} are not whole`);
  }
  return content;
}

/** Removes the staged files of a folder older than a day; best effort. */
async function removeOld(folder: string): Promise<void> {
  const before = Date.now() - KEPT_MS;
  for await (const entry of Deno.readDir(folder)) {
    const path = join(folder, entry.name);
    const info = await Deno.lstat(path).catch(() => null);
    if (info?.isFile && (info.mtime?.getTime() ?? Infinity) < before) {
      await Deno.remove(path).catch(() => {});
    }
  }
}
