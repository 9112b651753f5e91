/**
 * `lib/review/`, the review concern: changes sent for review on a branch
 * `inpage/review/{id}` (`create.ts`), published through the per-field
 * merge or closed (`publish.ts`), at a time (`schedule.ts`), and shown by a
 * signed link (`link.ts`). It may import the domain folders, the host
 * contract (`lib/http/env.ts`), `lib/access/` and `lib/publish/`; it throws
 * its own errors (`review_error.ts`), which the one error mapping answers.
 *
 * This file keeps the reviews in the KV: one entry per review,
 * `["editor", "review", id]`, and one index of the open ones,
 * `["editor", "reviews"]`, changed together by atomic commits (a check of
 * each versionstamp, retried when another request changed them first). The
 * pages' contents are not in the KV: they are the review branch's commit,
 * read with `Repository.readAtCommit`. A closed review leaves a marker for a week
 * (its links answer 404), then nothing.
 *
 * @module
 */

import type { KvKey, KvStore } from "../http/env.ts";
import { retryBusy } from "../access/kv_binding.ts";
import { getEntries } from "../access/kv_binding.ts";
import type { ReviewField } from "../wire/review.ts";
import { PREVIEW_HOURS_MAX, REVIEWS_OPEN_MAX } from "../limits.ts";
import { ReviewError } from "./review_error.ts";

/** Who sent, scheduled or published a review. */
export interface ReviewPerson {
  /** The editor's id. */
  id: string;
  /** Their name, as commits carry it. */
  name: string;
  /** Their email, as commits carry it. */
  email: string;
}

/** One page of a review, as kept: its contents are on the branch. */
export interface ReviewPageRecord {
  /** The page's path. */
  path: string;
  /** The version it was made from (`""`: a new page). */
  base: string;
  /** Its version on the review's branch. */
  version: string;
}

/** An open review, as kept in the KV. */
export interface ReviewRecord {
  /** 32 hex digits. */
  id: string;
  /** `inpage/review/{id}`. */
  branch: string;
  /** The branch's commit, holding every page and image. */
  commit: string;
  /** The site branch's head it was made from (the commit's parent). */
  parent: string;
  /** The message: the commit's, the pull request's title. */
  message: string;
  /** Who sent it: the author of its commits. */
  author: ReviewPerson;
  /** When it was sent, in milliseconds. */
  created: number;
  /** Its pages, in the order sent. */
  pages: ReviewPageRecord[];
  /**
   * The images it carries: their paths (`public/images/…`), versions, and
   * ids in the repository's object store (what `stage` answered).
   */
  images: { path: string; version: string; staged: string }[];
  /** When to publish it, and who asked; `null` when not scheduled. */
  scheduled: { at: number; by: ReviewPerson } | null;
  /** Why its schedule did not publish it; `null` when nothing failed. */
  failed: { at: number; reason: string; fields?: ReviewField[] } | null;
  /** Its pull request's number, on GitHub. */
  pull?: number | undefined;
  /** Until when a publish or a close under way holds it, in milliseconds. */
  claim?: number | undefined;
}

/** What a closed review leaves behind for a week. */
interface ClosedMarker {
  id: string;
  closed: number;
  commit?: string | undefined;
}

/** A review read: open (with its versionstamp), closed, or unknown. */
export type ReviewRead =
  | { state: "open"; record: ReviewRecord; versionstamp: string }
  | { state: "closed" }
  | { state: "unknown" };

const INDEX: KvKey = ["editor", "reviews"];
/** How long a closed review's marker is kept: a link's longest life. */
const CLOSED_KEPT_MS = PREVIEW_HOURS_MAX * 3_600_000;
const ATTEMPTS = 32;

function reviewKey(id: string): KvKey {
  return ["editor", "review", id];
}

function isRecord(value: unknown): value is ReviewRecord {
  const record = value as ReviewRecord | null;
  return typeof record === "object" && record !== null &&
    typeof record.id === "string" && typeof record.commit === "string" &&
    Array.isArray(record.pages) && typeof record.author === "object";
}

function idsOf(value: unknown): string[] {
  const ids = (value as { ids?: unknown } | null)?.ids;
  return Array.isArray(ids)
    ? ids.filter((id): id is string => typeof id === "string")
    : [];
}

/**
 * Reads a review.
 *
 * @param kv the store
 * @param id the review's id
 * @returns the review and its versionstamp, or that it is closed or unknown
 */
export async function readReview(kv: KvStore, id: string): Promise<ReviewRead> {
  const entry = await retryBusy(() => kv.get(reviewKey(id)));
  const value = entry.value;
  if (isRecord(value) && entry.versionstamp !== null) {
    return { state: "open", record: value, versionstamp: entry.versionstamp };
  }
  if (
    typeof value === "object" && value !== null &&
    typeof (value as ClosedMarker).closed === "number"
  ) {
    return { state: "closed" };
  }
  return { state: "unknown" };
}

/**
 * An open review, or a `not_found` refusal.
 *
 * @param kv the store
 * @param id the review's id
 * @returns the review
 * @throws {ReviewError} `not_found` when it is closed or unknown
 */
export async function openReview(
  kv: KvStore,
  id: string,
): Promise<ReviewRecord> {
  const read = await readReview(kv, id);
  if (read.state !== "open") {
    throw new ReviewError("not_found", `review ${id} is ${read.state}`);
  }
  return read.record;
}

/**
 * The open reviews, oldest first.
 *
 * @param kv the store
 * @returns the reviews
 */
export async function openReviews(kv: KvStore): Promise<ReviewRecord[]> {
  const index = await retryBusy(() => kv.get(INDEX));
  const ids = idsOf(index.value);
  const entries = await getEntries(kv, ids.map(reviewKey));
  return entries.map((entry) => entry.value).filter(isRecord)
    .sort((a, b) => a.created - b.created);
}

/**
 * How many reviews are open.
 *
 * @param kv the store
 * @returns the count
 */
export async function openCount(kv: KvStore): Promise<number> {
  return idsOf((await retryBusy(() => kv.get(INDEX))).value).length;
}

/**
 * Keeps a new review, and names it in the index, in one atomic commit.
 *
 * @param kv the store
 * @param record the review
 * @throws {ReviewError} `too_many_reviews` when the index is full;
 *   `conflict` when a review with that id exists
 */
export async function addReview(
  kv: KvStore,
  record: ReviewRecord,
): Promise<void> {
  const key = reviewKey(record.id);
  for (let attempt = 0; attempt < ATTEMPTS; attempt++) {
    const [index, existing] = await getEntries(kv, [INDEX, key]);
    if (existing?.versionstamp != null) {
      throw new ReviewError("conflict", `review ${record.id} exists already`);
    }
    const ids = idsOf(index?.value);
    if (ids.length >= REVIEWS_OPEN_MAX) {
      throw new ReviewError(
        "too_many_reviews",
        `${ids.length} reviews are open, the most kept`,
      );
    }
    const done = await retryBusy(() =>
      kv.atomic()
        .check({ key: INDEX, versionstamp: index?.versionstamp ?? null })
        .check({ key, versionstamp: null })
        .set(key, record)
        .set(INDEX, { ids: [...ids, record.id] })
        .commit()
    );
    if (done.ok) return;
  }
  throw new ReviewError("conflict", "the reviews kept changing");
}

/**
 * Changes an open review in one atomic commit, retried when another
 * request changed it first.
 *
 * @param kv the store
 * @param id the review's id
 * @param change the new record from the current one (it may throw)
 * @returns the record as written
 * @throws {ReviewError} `not_found` when it is closed or unknown, or what
 *   `change` throws
 */
export async function changeReview(
  kv: KvStore,
  id: string,
  change: (record: ReviewRecord) => ReviewRecord,
): Promise<ReviewRecord> {
  for (let attempt = 0; attempt < ATTEMPTS; attempt++) {
    const read = await readReview(kv, id);
    if (read.state !== "open") {
      throw new ReviewError("not_found", `review ${id} is ${read.state}`);
    }
    const next = change(read.record);
    const done = await retryBusy(() =>
      kv.atomic()
        .check({ key: reviewKey(id), versionstamp: read.versionstamp })
        .set(reviewKey(id), next)
        .commit()
    );
    if (done.ok) return next;
  }
  throw new ReviewError("conflict", `review ${id} kept changing`);
}

/**
 * Marks a review closed (published or not) and takes it out of the index,
 * in one atomic commit.
 *
 * @param kv the store
 * @param id the review's id
 * @param closed when, in milliseconds
 * @param commit the commit that published it, if one did
 */
export async function closeReview(
  kv: KvStore,
  id: string,
  closed: number,
  commit?: string,
): Promise<void> {
  const key = reviewKey(id);
  const marker: ClosedMarker = commit === undefined
    ? { id, closed }
    : { id, closed, commit };
  for (let attempt = 0; attempt < ATTEMPTS; attempt++) {
    const [index, existing] = await getEntries(kv, [INDEX, key]);
    const ids = idsOf(index?.value);
    const done = await retryBusy(() =>
      kv.atomic()
        .check({ key: INDEX, versionstamp: index?.versionstamp ?? null })
        .check({ key, versionstamp: existing?.versionstamp ?? null })
        .set(key, marker, { expireIn: CLOSED_KEPT_MS })
        .set(INDEX, { ids: ids.filter((other) => other !== id) })
        .commit()
    );
    if (done.ok) return;
  }
  throw new ReviewError("conflict", `review ${id} kept changing`);
}
