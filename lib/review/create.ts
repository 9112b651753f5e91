/**
 * Sending pages for review: each page's version checked against the site
 * branch, one commit holding every changed page and the images its editor
 * staged that they name, on a branch `inpage/review/{id}` made from the
 * site branch's head without a checkout (never the site branch, never the
 * work tree); on GitHub a pull request from it; then the review kept in
 * the KV. Anything refused leaves nothing behind: no branch, no pull
 * request, no record.
 *
 * @module
 */

import { type Env, logNotice, now } from "../http/env.ts";
import { kvOf } from "../access/kv_binding.ts";
import { mediaSources } from "../pages/media_sources.ts";
import { requireRepository } from "../repository/from_env.ts";
import {
  BranchExistsError,
  type CommitFile,
  ConflictError,
  gitBlobSha,
  type Repository,
  RepositoryError,
} from "../repository/repository.ts";
import { forgetStaged, stagedNamed } from "../publish/staged_images.ts";
import { changedFields } from "../wire/merge.ts";
import { IMAGES_FOLDER, REVIEW_BRANCH_PREFIX } from "../wire/names.ts";
import type { ReviewCreated } from "../wire/review.ts";
import { REVIEWS_OPEN_MAX } from "../limits.ts";
import { ReviewError } from "./review_error.ts";
import { type PageChange, pullBody } from "./review_text.ts";
import {
  addReview,
  openCount,
  type ReviewPerson,
  type ReviewRecord,
} from "./store.ts";

/** A page that passed the page rules, ready to be sent. */
export interface CheckedPage {
  /** Its path, whitelisted. */
  path: string;
  /** The bytes to write (the sanitised page). */
  page: Uint8Array;
  /** The version it was read at, `""` for a new page. */
  version: string;
}

/** A review to send: its message and its checked pages. */
export interface ReviewSend {
  /** One clean line. */
  message: string;
  /** The pages, each path once. */
  pages: readonly CheckedPage[];
}

/** Ids tried before giving up on a branch name that exists. */
const ID_ATTEMPTS = 3;

/**
 * The repository, when it can hold reviews: commits on a branch, reads at
 * a commit, and branch deletion.
 *
 * @param env the host's bindings
 * @returns the repository
 * @throws {RepositoryError} `unavailable` when it cannot
 */
export function reviewRepository(env: Env): Repository & {
  commit: NonNullable<Repository["commit"]>;
  readAtCommit: NonNullable<Repository["readAtCommit"]>;
  deleteBranch: NonNullable<Repository["deleteBranch"]>;
} {
  const repository = requireRepository(env);
  if (
    typeof repository.commit !== "function" ||
    typeof repository.readAtCommit !== "function" ||
    typeof repository.deleteBranch !== "function"
  ) {
    throw new RepositoryError(
      "unavailable",
      "this repository cannot hold reviews (no commit, readAtCommit or deleteBranch)",
    );
  }
  return repository as ReturnType<typeof reviewRepository>;
}

/**
 * Sends pages for review (see the module doc).
 *
 * @param env the host's bindings
 * @param author who sends them
 * @param send the message and the checked pages
 * @returns the review's id, its branch, and its pull request on GitHub
 * @throws {ReviewError} `conflict` (with `path`) when a page's version is
 *   not the site branch's, `unchanged` when no page changes anything,
 *   `too_many_reviews` when the site keeps as many as it may
 * @throws {RepositoryError} when the repository refuses or does not answer
 */
export async function createReview(
  env: Env,
  author: ReviewPerson,
  send: ReviewSend,
): Promise<ReviewCreated> {
  const repository = reviewRepository(env);
  const kv = kvOf(env);
  if (await openCount(kv) >= REVIEWS_OPEN_MAX) {
    throw new ReviewError("too_many_reviews", "the open reviews are full");
  }
  const changes = await changedPages(repository, send.pages);
  const named = changes.flatMap(({ page }) =>
    mediaSources(JSON.parse(new TextDecoder().decode(page.page)))
  );
  const staged = await stagedNamed(kv, author.id, named, now(env));
  if (changes.length === 0 && staged.size === 0) {
    throw new ReviewError(
      "unchanged",
      "no page of the review changes anything",
    );
  }
  const files: CommitFile[] = changes.map(({ page }) => ({
    path: page.path,
    content: page.page,
    expected: page.version,
  }));
  const images = [...staged].map(([src, image]) => ({
    path: `${IMAGES_FOLDER}/${src}`,
    version: image.version,
    staged: image.staged,
  }));
  for (const image of images) {
    files.push({
      path: image.path,
      content: { staged: image.staged },
      expected: null,
    });
  }
  const made = await commitOnNewBranch(repository, files, send.message, author);
  const record: ReviewRecord = {
    id: made.id,
    branch: made.branch,
    commit: made.commit,
    parent: made.parent,
    message: send.message,
    author,
    created: now(env),
    pages: changes.map(({ page }) => ({
      path: page.path,
      base: page.version,
      version: gitBlobSha(page.page),
    })),
    images,
    scheduled: null,
    failed: null,
  };
  try {
    if (typeof repository.openPullRequest === "function") {
      record.pull = await repository.openPullRequest({
        branch: made.branch,
        title: send.message,
        body: pullBody(
          author,
          changes.map(({ change }) => change),
          images.map(({ path }) => path),
        ),
      });
    }
    await addReview(kv, record);
  } catch (error) {
    await undo(env, repository, record);
    throw error;
  }
  await forgetStaged(kv, author.id, staged.keys());
  return {
    id: record.id,
    branch: record.branch,
    ...(record.pull === undefined ? {} : { pull: record.pull }),
  };
}

/**
 * The pages that change something, each with the fields it changes: a
 * page whose version is not the site branch's current one is a conflict.
 */
async function changedPages(
  repository: Repository,
  pages: readonly CheckedPage[],
): Promise<{ page: CheckedPage; change: PageChange }[]> {
  const current = await Promise.all(
    pages.map((page) => repository.read(page.path)),
  );
  const changed: { page: CheckedPage; change: PageChange }[] = [];
  pages.forEach((page, index) => {
    const file = current[index] ?? null;
    if ((file?.version ?? "") !== page.version) {
      throw new ReviewError(
        "conflict",
        `${page.path} is ${file?.version || "absent"}, sent for ${
          page.version || "a new page"
        }`,
        { path: page.path },
      );
    }
    if (file === null) {
      changed.push({ page, change: { path: page.path, fields: null } });
      return;
    }
    if (gitBlobSha(page.page) === file.version) return;
    const decode = (bytes: Uint8Array) =>
      JSON.parse(new TextDecoder().decode(bytes));
    let before: unknown;
    try {
      before = decode(file.content);
    } catch {
      before = undefined; // not JSON on the branch: the whole page changes
    }
    changed.push({
      page,
      change: {
        path: page.path,
        fields: [...changedFields(before, decode(page.page)).keys()],
      },
    });
  });
  return changed;
}

/**
 * Commits on a branch made for this review: a fresh id each time the name
 * exists already, so that no review's commits ever land on another's.
 */
async function commitOnNewBranch(
  repository: ReturnType<typeof reviewRepository>,
  files: readonly CommitFile[],
  message: string,
  author: ReviewPerson,
): Promise<{ id: string; branch: string; commit: string; parent: string }> {
  for (let attempt = 0; attempt < ID_ATTEMPTS; attempt++) {
    const id = reviewId();
    const branch = `${REVIEW_BRANCH_PREFIX}${id}`;
    let result;
    try {
      result = await repository.commit(files, {
        message,
        author: { name: author.name, email: author.email },
        branch,
        create: true,
      });
    } catch (error) {
      if (error instanceof BranchExistsError) continue;
      if (error instanceof ConflictError) {
        throw new ReviewError("conflict", error.message, {
          path: error.path,
        });
      }
      throw error;
    }
    if (result.parent === undefined) {
      await repository.deleteBranch(branch).catch(() => false);
      throw new RepositoryError(
        "unavailable",
        "the repository did not say which commit the review was made on",
      );
    }
    return { id, branch, commit: result.commit, parent: result.parent };
  }
  throw new RepositoryError(
    "unavailable",
    `${ID_ATTEMPTS} review branches existed already`,
  );
}

/** A review's id: 128 random bits as 32 hex digits. */
function reviewId(): string {
  return Array.from(
    crypto.getRandomValues(new Uint8Array(16)),
    (byte) => byte.toString(16).padStart(2, "0"),
  ).join("");
}

/** Takes back a review that could not be kept: its pull request and branch. */
async function undo(
  env: Env,
  repository: ReturnType<typeof reviewRepository>,
  record: ReviewRecord,
): Promise<void> {
  try {
    if (record.pull !== undefined) {
      await repository.closePullRequest?.(
        record.pull,
        "Closed: the review could not be kept.",
      );
    }
    await repository.deleteBranch(record.branch);
  } catch (error) {
    logNotice(
      env,
      `review branch ${record.branch} left behind: ${
        error instanceof Error ? error.message : String(error)
      }`,
    );
  }
}
