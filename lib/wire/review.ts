/**
 * The wire shapes of the review routes (`/api/reviews` and its `publish`,
 * `schedule` and `link`), as zod schemas (`zod/mini`): the server checks
 * the bodies against them, the browser client is typed from them and
 * checks the answers. Imports only `zod/mini` and the shared caps.
 *
 * @example
 * ```ts
 * import { reviewCreated } from "./review.ts";
 *
 * const created = reviewCreated.parse({
 *   id: "0123456789abcdef0123456789abcdef",
 *   branch: "inpage/review/0123456789abcdef0123456789abcdef",
 * });
 * console.assert(created.pull === undefined);
 * ```
 *
 * @module
 */

import * as z from "zod/mini";
import {
  PAGE_PATH_MAX,
  PREVIEW_HOURS_MAX,
  PREVIEW_HOURS_MIN,
  PREVIEW_PAGE_MAX,
  REVIEW_PAGES_MAX,
  VERSION_MAX,
} from "../limits.ts";

import { REVIEW_ID } from "./names.ts";

export { REVIEW_ID };

const reviewId = z.string().check(z.regex(REVIEW_ID));

/**
 * One page of `POST /api/reviews`: as `/api/save` takes it.
 *
 * @example
 * ```ts
 * import { reviewPageBody } from "./review.ts";
 *
 * const page = { path: "src/content/pages/en/about.json", content: "{}", version: "" };
 * console.assert(reviewPageBody.safeParse(page).success);
 * ```
 */
export const reviewPageBody: z.ZodMiniType<ReviewPageBody> = z.object({
  path: z.string().check(z.maxLength(PAGE_PATH_MAX)),
  content: z.string(),
  version: z.string().check(z.maxLength(VERSION_MAX)),
});
/** One page sent for review. */
export interface ReviewPageBody {
  /** The page path, `src/content/pages/{lang}/{page}.json`. */
  path: string;
  /** The whole page file as text. */
  content: string;
  /** The version it was read at, `""` for a new page. */
  version: string;
}

/**
 * The body of `POST /api/reviews`: a message and 1 to 20 pages.
 *
 * @example
 * ```ts
 * import { reviewBody } from "./review.ts";
 *
 * console.assert(!reviewBody.safeParse({ message: "x", pages: [] }).success);
 * ```
 */
export const reviewBody: z.ZodMiniType<ReviewBody> = z.object({
  message: z.string(),
  pages: z.array(reviewPageBody).check(
    z.minLength(1),
    z.maxLength(REVIEW_PAGES_MAX),
  ),
});
/** The body of `POST /api/reviews`. */
export interface ReviewBody {
  /** What the review is: its commit message and its pull request's title. */
  message: string;
  /** The pages, each path once: 1 to 20. */
  pages: ReviewPageBody[];
}

/**
 * The answer of `POST /api/reviews` (201).
 *
 * @example
 * ```ts
 * import { reviewCreated } from "./review.ts";
 *
 * const id = "0123456789abcdef0123456789abcdef";
 * console.assert(
 *   reviewCreated.safeParse({ id, branch: `inpage/review/${id}`, pull: 7 }).success,
 * );
 * ```
 */
export const reviewCreated: z.ZodMiniType<ReviewCreated> = z.object({
  id: reviewId,
  branch: z.string(),
  pull: z.optional(z.int().check(z.positive())),
});
/** The answer of `POST /api/reviews`. */
export interface ReviewCreated {
  /** The review's id. */
  id: string;
  /** Its branch, `inpage/review/{id}`. */
  branch: string;
  /** Its pull request's number, on GitHub. */
  pull?: number | undefined;
}

/** A field that changed on both sides, in a 409 of a review's publish. */
export const reviewField: z.ZodMiniType<ReviewField> = z.object({
  path: z.string(),
  pointer: z.string(),
});
/** A field that changed on both sides. */
export interface ReviewField {
  /** The page's path. */
  path: string;
  /** The field's JSON Pointer; `""` for the whole page. */
  pointer: string;
}

/**
 * Why a scheduled review was not published, kept on the review.
 *
 * @example
 * ```ts
 * import { reviewFailure } from "./review.ts";
 *
 * console.assert(reviewFailure.safeParse({
 *   at: "2026-11-25T17:00:00.000Z",
 *   reason: "conflict",
 *   fields: [{ path: "src/content/pages/en/about.json", pointer: "/title" }],
 * }).success);
 * ```
 */
export const reviewFailure: z.ZodMiniType<ReviewFailure> = z.object({
  at: z.string(),
  reason: z.string(),
  fields: z.optional(z.array(reviewField)),
});
/** Why a scheduled review was not published. */
export interface ReviewFailure {
  /** When the schedule ran, ISO 8601. */
  at: string;
  /**
   * The error code the publish met: `conflict` (then `fields`),
   * `invalid_content`, `unavailable` (tried again at the next run), …
   */
  reason: string;
  /** The fields changed on both sides, for a conflict. */
  fields?: ReviewField[] | undefined;
}

/** Who sent a review. */
export interface ReviewAuthor {
  /** The editor's id. */
  id: string;
  /** Their name. */
  name: string;
}

const reviewAuthor = z.object({ id: z.string(), name: z.string() });

/** The fields of a review as listed. */
export interface ReviewSummary {
  /** Its id. */
  id: string;
  /** Its branch. */
  branch: string;
  /** Its message. */
  message: string;
  /** Who sent it. */
  author: ReviewAuthor;
  /** When, ISO 8601. */
  created: string;
  /** Its pages' paths. */
  pages: string[];
  /** When it is to be published, ISO 8601, or `null`. */
  scheduled: string | null;
  /** Why its schedule did not publish it, or `null`. */
  failed: ReviewFailure | null;
  /** Its pull request's number, on GitHub. */
  pull?: number | undefined;
}

const summaryShape = {
  id: reviewId,
  branch: z.string(),
  message: z.string(),
  author: reviewAuthor,
  created: z.string(),
  scheduled: z.nullable(z.string()),
  failed: z.nullable(reviewFailure),
  pull: z.optional(z.int().check(z.positive())),
};

/**
 * The answer of `GET /api/reviews`: the open reviews, oldest first.
 *
 * @example
 * ```ts
 * import { reviewList } from "./review.ts";
 *
 * console.assert(reviewList.safeParse({ reviews: [] }).success);
 * ```
 */
export const reviewList: z.ZodMiniType<ReviewList> = z.object({
  reviews: z.array(z.object({ ...summaryShape, pages: z.array(z.string()) })),
});
/** The answer of `GET /api/reviews`. */
export interface ReviewList {
  /** The open reviews, oldest first. */
  reviews: ReviewSummary[];
}

/** One page of a review, as `GET /api/reviews?id=` answers it. */
export interface ReviewPage {
  /** The page's path. */
  path: string;
  /** The version it was made from, `""` for a new page. */
  base: string;
  /** The page as the review has it, the whole file as text. */
  content: string;
  /** Its version in the review. */
  version: string;
  /**
   * The JSON Pointers of the fields the review changes, against the page
   * it was made from (`[""]` for a new page), in document order: what a
   * preview outlines.
   */
  changed: string[];
}

/**
 * The answer of `GET /api/reviews?id=ID` and `GET /api/reviews?token=…`:
 * the review's fields, each page with its `base`, `content` and `version`.
 *
 * @example
 * ```ts
 * import { reviewAnswer } from "./review.ts";
 *
 * console.assert(!reviewAnswer.safeParse({ id: "x" }).success);
 * ```
 */
export const reviewAnswer: z.ZodMiniType<ReviewAnswer> = z.object({
  ...summaryShape,
  pages: z.array(z.object({
    path: z.string(),
    base: z.string(),
    content: z.string(),
    version: z.string(),
    changed: z.array(z.string()),
  })),
});
/** One review, whole. */
export interface ReviewAnswer extends Omit<ReviewSummary, "pages"> {
  /** Its pages, each with its base version, content and version. */
  pages: ReviewPage[];
}

/**
 * The body of `POST /api/reviews/publish`: `{ id }`.
 *
 * @example
 * ```ts
 * import { reviewIdBody } from "./review.ts";
 *
 * console.assert(!reviewIdBody.safeParse({ id: "../main" }).success);
 * ```
 */
export const reviewIdBody: z.ZodMiniType<ReviewIdBody> = z.object({
  id: reviewId,
});
/** A body naming a review. */
export interface ReviewIdBody {
  /** The review's id. */
  id: string;
}

/**
 * The body of `POST /api/reviews/publish`: `{ id }`, and after a clash
 * (409) the person's choice for each clashing field, with each page's
 * version the choices were made against.
 *
 * @example
 * ```ts
 * import { reviewPublishBody } from "./review.ts";
 *
 * const id = "0123456789abcdef0123456789abcdef";
 * console.assert(reviewPublishBody.safeParse({ id }).success);
 * console.assert(reviewPublishBody.safeParse({
 *   id,
 *   settle: {
 *     versions: { "src/content/pages/en/home.json": "v2" },
 *     keep: [{ path: "src/content/pages/en/home.json", pointer: "/title", side: "review" }],
 *   },
 * }).success);
 * ```
 */
export const reviewPublishBody: z.ZodMiniType<ReviewPublishBody> = z.object({
  id: reviewId,
  settle: z.optional(z.object({
    versions: z.record(
      z.string().check(z.maxLength(PAGE_PATH_MAX)),
      z.string().check(z.maxLength(VERSION_MAX)),
    ),
    keep: z.array(z.object({
      path: z.string().check(z.maxLength(PAGE_PATH_MAX)),
      pointer: z.string(),
      side: z.enum(["review", "site"]),
    })),
  })),
});
/** The body of `POST /api/reviews/publish`. */
export interface ReviewPublishBody {
  /** The review's id. */
  id: string;
  /** After a clash: how it is settled (none: any clash is a 409). */
  settle?: ReviewSettle | undefined;
}
/** How the clashes of a review's publish are settled, field by field. */
export interface ReviewSettle {
  /**
   * The version of each page the choices were made against: a page of the
   * site branch at another version is merged without them (a clash there
   * is a 409 again, with the fields as they are now).
   */
  versions: Record<string, string>;
  /** Which side each clashing field keeps: the review's value, or the site's. */
  keep: { path: string; pointer: string; side: "review" | "site" }[];
}

/**
 * The answer of `POST /api/reviews/publish`: the commit on the site
 * branch and each page's new version.
 *
 * @example
 * ```ts
 * import { reviewPublished } from "./review.ts";
 *
 * console.assert(reviewPublished.safeParse({ commit: "c", versions: {} }).success);
 * ```
 */
export const reviewPublished: z.ZodMiniType<ReviewPublished> = z.object({
  commit: z.string(),
  versions: z.record(z.string(), z.string()),
});
/** The answer of `POST /api/reviews/publish`. */
export interface ReviewPublished {
  /** The commit on the site branch (40 hex digits; `""` without git). */
  commit: string;
  /** Each page's new version, by path. */
  versions: Record<string, string>;
}

/**
 * The body of `POST /api/reviews/schedule`: when to publish, ISO 8601
 * with its offset, or `null` to cancel.
 *
 * @example
 * ```ts
 * import { reviewScheduleBody } from "./review.ts";
 *
 * const id = "0123456789abcdef0123456789abcdef";
 * console.assert(reviewScheduleBody.safeParse({ id, at: null }).success);
 * ```
 */
export const reviewScheduleBody: z.ZodMiniType<ReviewScheduleBody> = z.object({
  id: reviewId,
  at: z.nullable(z.string().check(z.maxLength(40))),
});
/** The body of `POST /api/reviews/schedule`. */
export interface ReviewScheduleBody {
  /** The review's id. */
  id: string;
  /** When to publish it (`2026-11-25T17:00:00Z`, `…+01:00`), or `null`. */
  at: string | null;
}

/**
 * The answer of `POST /api/reviews/schedule`.
 *
 * @example
 * ```ts
 * import { reviewScheduled } from "./review.ts";
 *
 * const id = "0123456789abcdef0123456789abcdef";
 * console.assert(reviewScheduled.safeParse({ id, scheduled: null }).success);
 * ```
 */
export const reviewScheduled: z.ZodMiniType<ReviewScheduled> = z.object({
  id: reviewId,
  scheduled: z.nullable(z.string()),
});
/** The answer of `POST /api/reviews/schedule`. */
export interface ReviewScheduled {
  /** The review's id. */
  id: string;
  /** When it will be published, ISO 8601 in UTC, or `null`. */
  scheduled: string | null;
}

/**
 * The body of `POST /api/reviews/link`: for how many hours (1 to 168), and
 * optionally the site path the link opens.
 *
 * @example
 * ```ts
 * import { reviewLinkBody } from "./review.ts";
 *
 * const id = "0123456789abcdef0123456789abcdef";
 * console.assert(reviewLinkBody.safeParse({ id, hours: 24 }).success);
 * console.assert(!reviewLinkBody.safeParse({ id, hours: 169 }).success);
 * ```
 */
export const reviewLinkBody: z.ZodMiniType<ReviewLinkBody> = z.object({
  id: reviewId,
  hours: z.int().check(z.gte(PREVIEW_HOURS_MIN), z.lte(PREVIEW_HOURS_MAX)),
  page: z.optional(
    z.string().check(
      z.maxLength(PREVIEW_PAGE_MAX),
      z.regex(/^\/(?![/\\])[^\s?#\\]*$/),
    ),
  ),
});
/** The body of `POST /api/reviews/link`. */
export interface ReviewLinkBody {
  /** The review's id. */
  id: string;
  /** How long the link works, in hours: 1 to 168. */
  hours: number;
  /**
   * The site path the link opens (`/en/about/`: a path from the site's
   * root, without query, fragment, spaces or backslashes); default the
   * first page's address by the `/{lang}/{page}/` convention (`home` is
   * `/{lang}/`).
   */
  page?: string | undefined;
}

/**
 * The answer of `POST /api/reviews/link`.
 *
 * @example
 * ```ts
 * import { reviewLinkAnswer } from "./review.ts";
 *
 * console.assert(reviewLinkAnswer.safeParse({
 *   url: "/en/about/?inpage-preview=t",
 *   expires: "2026-11-26T17:00:00.000Z",
 * }).success);
 * ```
 */
export const reviewLinkAnswer: z.ZodMiniType<ReviewLink> = z.object({
  url: z.string(),
  expires: z.string(),
});
/** The answer of `POST /api/reviews/link`. */
export interface ReviewLink {
  /** The link, relative to the site: the page and `?inpage-preview=TOKEN`. */
  url: string;
  /** When it stops working, ISO 8601. */
  expires: string;
}
