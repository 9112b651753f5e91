/**
 * A page published, with the images its editor staged for it: one
 * `Repository.write` when it names none (one request on GitHub), else one
 * `Repository.commit` holding the page and those images. The page's
 * version decides a conflict; the images are content-addressed (their name
 * is the hash of their bytes), so they are written whatever is there.
 *
 * @module
 */

import { type Env, now } from "../http/env.ts";
import { kvOf } from "../access/kv_binding.ts";
import { mediaSources } from "../pages/media_sources.ts";
import { requireRepository } from "../repository/from_env.ts";
import {
  type CommitAuthor,
  type CommitFile,
  ConflictError,
  RepositoryError,
} from "../repository/repository.ts";
import { IMAGES_FOLDER } from "../wire/names.ts";
import { forgetStaged, stagedNamed } from "./staged_images.ts";

/** A checked page ready to be written. */
export interface PagePublish {
  /** The page's path, already whitelisted. */
  path: string;
  /** The bytes to write (the sanitised page). */
  page: Uint8Array;
  /** The version the request read, `""` for a new page. */
  version: string;
  /** The commit message, one clean line. */
  message: string;
  /** The editor, as the commit's author. */
  author: CommitAuthor;
}

/**
 * Publishes a page, with every image its editor staged that it names.
 * Nothing is written when anything is refused.
 *
 * @param env the host's bindings (the repository, the KV, the clock)
 * @param editor the editor's id, whose staged images are looked for
 * @param publish the page
 * @returns the page's new version
 * @throws {ConflictError} when the page's version is not the one read
 * @throws {RepositoryError} when the repository refuses or does not answer
 */
export async function publish(
  env: Env,
  editor: string,
  publish: PagePublish,
): Promise<string> {
  const { path, page, version, message, author } = publish;
  const repository = requireRepository(env);
  const commit = repository.commit?.bind(repository);
  const named = commit
    ? mediaSources(JSON.parse(new TextDecoder().decode(page)))
    : [];
  const staged = named.length === 0
    ? new Map()
    : await stagedNamed(kvOf(env), editor, named, now(env));
  if (!commit || staged.size === 0) {
    return await repository.write(path, page, version, message, author);
  }
  const files: CommitFile[] = [{ path, content: page, expected: version }];
  for (const [src, image] of staged) {
    files.push({
      path: `${IMAGES_FOLDER}/${src}`,
      content: { staged: image.staged },
      expected: null,
    });
  }
  let versions: Record<string, string>;
  try {
    ({ versions } = await commit(files, { message, author }));
  } catch (error) {
    // Only the page's version is a conflict the editor can resolve.
    if (
      error instanceof ConflictError && error.path !== undefined &&
      error.path !== path
    ) {
      throw new RepositoryError(
        "unavailable",
        `a staged image could not be committed: ${error.message}`,
      );
    }
    throw error;
  }
  await forgetStaged(kvOf(env), editor, staged.keys());
  const written = versions[path];
  if (written === undefined) {
    throw new RepositoryError("unavailable", "the commit gave no version");
  }
  return written;
}
