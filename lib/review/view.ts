/**
 * A review as the routes answer it: its summary in a list, or whole, each
 * page's content read from the review's commit.
 *
 * @module
 */

import type { ReviewAnswer, ReviewSummary } from "../wire/review.ts";
import { RepositoryError } from "../repository/repository.ts";
import type { reviewRepository } from "./create.ts";
import type { ReviewRecord } from "./store.ts";
import { changedFields } from "../wire/merge.ts";

/** The fields a page's review changes: `[""]` when it has no base. */
function changedPointers(
  before: Uint8Array | undefined,
  after: string,
): string[] {
  if (before === undefined) return [""];
  try {
    const base: unknown = JSON.parse(new TextDecoder().decode(before));
    return [...changedFields(base, JSON.parse(after)).keys()];
  } catch {
    return [""];
  }
}

/**
 * A review's summary, as `GET /api/reviews` lists it.
 *
 * @param record the review
 * @returns its wire form
 */
export function summaryOf(record: ReviewRecord): ReviewSummary {
  return {
    ...fieldsOf(record),
    pages: record.pages.map((page) => page.path),
  };
}

function fieldsOf(record: ReviewRecord): Omit<ReviewSummary, "pages"> {
  return {
    id: record.id,
    branch: record.branch,
    message: record.message,
    author: { id: record.author.id, name: record.author.name },
    created: new Date(record.created).toISOString(),
    scheduled: record.scheduled === null
      ? null
      : new Date(record.scheduled.at).toISOString(),
    failed: record.failed === null ? null : {
      at: new Date(record.failed.at).toISOString(),
      reason: record.failed.reason,
      ...(record.failed.fields === undefined
        ? {}
        : { fields: record.failed.fields }),
    },
    ...(record.pull === undefined ? {} : { pull: record.pull }),
  };
}

/**
 * A review whole: its fields, and each page as the review has it.
 *
 * @param repository the repository holding its branch
 * @param record the review
 * @returns its wire form
 * @throws {RepositoryError} when a page cannot be read at its commit
 */
export async function wholeReview(
  repository: ReturnType<typeof reviewRepository>,
  record: ReviewRecord,
): Promise<ReviewAnswer> {
  const pages = await Promise.all(record.pages.map(async (page) => {
    const file = await repository.readAtCommit(page.path, record.commit);
    if (file === null) {
      throw new RepositoryError(
        "unavailable",
        `review ${record.id}: ${page.path} is missing at its commit`,
      );
    }
    const content = new TextDecoder().decode(file.content);
    const before = page.base === ""
      ? null
      : await repository.readAtCommit(page.path, record.parent);
    return {
      path: page.path,
      base: page.base,
      content,
      version: file.version,
      changed: changedPointers(before?.content, content),
    };
  }));
  return { ...fieldsOf(record), pages };
}
