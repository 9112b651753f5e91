/**
 * The local checkout: a {@linkcode Repository} over a folder on disk, usually
 * a git work tree, that commits each write of a file alone, and the files of
 * a `commit` together (staged bytes wait in git's object store, outside the
 * work tree, until a commit names them). `editor serve`
 * uses it; a Deno host can too. It needs `Deno.*` (files and `git`), so it is
 * published apart from the host-agnostic server API.
 *
 * A write is a compare-and-swap under a lock: an in-process queue per
 * repository, and across processes an advisory lock on
 * `.git/inpage-editor.lock` (on the folder itself when it is not committed).
 * The bytes go to a temporary file in the same folder, flushed, then renamed
 * over the target; when committing, `git commit --only` records that path
 * and nothing else (after `git add` for a new file), and a failed commit puts
 * the previous bytes back.
 *
 * @module
 */

import {
  type LocalCheckout,
  type LocalCheckoutOptions,
  openCheckout,
} from "./checkout.ts";
import type {
  CommitFile,
  CommitOptions,
  CommitResult,
  Repository,
  StagedBlob,
} from "../repository.ts";

export type {
  CommitFile,
  CommitOptions,
  CommitResult,
  LocalCheckout,
  LocalCheckoutOptions,
  Repository,
  StagedBlob,
};

/**
 * Opens a folder as a repository. Resolves the folder's real path and, unless
 * `commit` is `false`, asks git whether the folder is inside a work tree.
 *
 * @example
 * ```ts
 * import { openLocalCheckout } from "@inpage/editor/local-checkout";
 * import assert from "node:assert/strict";
 *
 * const folder = await Deno.makeTempDir();
 * const checkout = await openLocalCheckout({ root: folder, commit: false });
 * const bytes = new TextEncoder().encode("{}\n");
 * const version = await checkout.write("src/content/pages/en/home.json", bytes, "", "Add home");
 * const file = await checkout.read("src/content/pages/en/home.json");
 * assert.equal(file?.version, version);
 * assert.deepEqual(file?.content, bytes);
 * await Deno.remove(folder, { recursive: true });
 * ```
 *
 * @param options the folder and whether to commit
 * @returns the checkout, ready to read and write
 * @throws {TypeError} when `root` is not a non-empty string
 * @throws {RepositoryError} when the folder does not exist or git cannot read it
 */
export function openLocalCheckout(
  options: LocalCheckoutOptions,
): Promise<LocalCheckout> {
  return openCheckout(options);
}
