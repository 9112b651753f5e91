/**
 * The browser client of the editing routes: log in, read a page, publish
 * it, upload an image, log out; and beyond them, who is logged in, a page's
 * history, and reviews (send pages for review, list and read them, open
 * one from a preview link, publish, schedule, close, make a preview link).
 * It uses only `fetch`, `FormData` and `URL`,
 * so it runs in any browser and in tests; every failure is one
 * {@linkcode EditorError} carrying the route's code and what goes with it.
 * The answers are checked against the same wire schemas the server uses.
 *
 * @example
 * ```ts ignore
 * import { getPointer, login, publish, read, setPointer } from "@inpage/editor/client";
 *
 * await login("the site key");
 * const path = "src/content/pages/en/home.json";
 * const { content, version } = await read(path);
 * const page = setPointer(JSON.parse(content), "/title", "Welcome back");
 * console.log(getPointer(page, "/title"));
 * await publish({ path, content: page, version, message: "New title" });
 * ```
 *
 * @module
 */

import type { JsonValue, PageObject } from "../lib/wire/mod.ts";
import {
  type ContentAnswer,
  contentAnswer,
  type ErrorBody,
  errorBody,
  type HistoryAnswer,
  historyAnswer,
  okAnswer,
  type PageProblemBody,
  type SaveAnswer,
  saveAnswer,
  type SessionAnswer,
  sessionAnswer,
  type UploadAnswer,
  uploadAnswer,
} from "../lib/wire/mod.ts";

export type {
  ContentAnswer,
  ErrorBody,
  HistoryAnswer,
  ImageKind,
  InvalidReason,
  PageProblemBody,
  SaveAnswer,
  SessionAnswer,
  UploadAnswer,
} from "../lib/wire/mod.ts";
export { IMAGE_KINDS, INVALID_REASONS } from "../lib/wire/mod.ts";
export type { PageProblems } from "../lib/wire/mod.ts";
export { getPointer, setPointer } from "../lib/wire/pointer.ts";
import { ROUTES, STAGED_PARAMETER } from "../lib/wire/names.ts";
export { PREVIEW_PARAMETER } from "../lib/wire/names.ts";
import {
  type ReviewAnswer,
  reviewAnswer,
  type ReviewCreated,
  reviewCreated,
  type ReviewField,
  type ReviewLink,
  reviewLinkAnswer,
  type ReviewList,
  reviewList,
  type ReviewPublished,
  reviewPublished,
  type ReviewScheduled,
  reviewScheduled,
  type ReviewSettle,
} from "../lib/wire/review.ts";
export type {
  ReviewAnswer,
  ReviewAuthor,
  ReviewCreated,
  ReviewFailure,
  ReviewField,
  ReviewLink,
  ReviewList,
  ReviewPage,
  ReviewPublished,
  ReviewScheduled,
  ReviewSettle,
  ReviewSummary,
} from "../lib/wire/review.ts";
import type { PageProblems } from "../lib/wire/mod.ts";

/**
 * The code of a failure: the route's error code, `rate_limited` for a 429,
 * `unavailable` when the server or its repository cannot serve (502, 503),
 * `forbidden` when the editor's role does not allow it (an author
 * publishing), `too_many_reviews` when the site keeps as many open reviews
 * as it may, `network` when no answer came, `bad_answer` when the answer is
 * not the documented shape.
 */
export type ErrorCode =
  | "bad_request"
  | "unauthorized"
  | "forbidden"
  | "too_many_reviews"
  | "not_found"
  | "method_not_allowed"
  | "conflict"
  | "too_large"
  | "unsupported_format"
  | "invalid_content"
  | "rate_limited"
  | "unavailable"
  | "internal"
  | "network"
  | "bad_answer";

const STATUS_CODES: Readonly<Record<number, ErrorCode>> = {
  400: "bad_request",
  401: "unauthorized",
  403: "forbidden",
  404: "not_found",
  405: "method_not_allowed",
  409: "conflict",
  413: "too_large",
  415: "unsupported_format",
  422: "invalid_content",
  429: "rate_limited",
  500: "internal",
  502: "unavailable",
  503: "unavailable",
  504: "unavailable",
};

/** What an {@linkcode EditorError} carries beside its code. */
export interface EditorErrorInit {
  /** HTTP status, 0 when no answer came. */
  status: number;
  /** Seconds to wait before trying again (from `retry-after`). */
  retryAfter?: number | undefined;
  /** JSON Pointer into the submitted page (422). */
  at?: string | undefined;
  /** Stable reason of a 422, such as `markup` or `link`. */
  reason?: string | undefined;
  /** What a 415 recognised in the bytes, such as `gif`. */
  kind?: string | undefined;
  /** Every problem of a 422 (up to 50, in document order), when listed. */
  problems?: readonly PageProblemBody[] | undefined;
  /** On a 502, the repository's own code (`not_found`, `unauthorized`, `unavailable`). */
  repository?: string | undefined;
  /** The fields changed on both sides, on a 409 of a review's publish. */
  fields?: readonly ReviewField[] | undefined;
  /** Each page refused, on a 422 of `sendForReview`. */
  pages?: readonly PageProblems[] | undefined;
  /** The page whose version is stale, on a 409 of `sendForReview`. */
  path?: string | undefined;
  /** The underlying failure, for a `network` error. */
  cause?: unknown;
}

/**
 * A failed call: the route's answer as a code with its details.
 *
 * @example
 * ```ts
 * import { EditorError } from "./mod.ts";
 *
 * const error = new EditorError("rate_limited", { status: 429, retryAfter: 90 });
 * console.assert(error.code === "rate_limited" && error.retryAfter === 90);
 * ```
 */
export class EditorError extends Error {
  /** The failure's code. */
  readonly code: ErrorCode;
  /** HTTP status, 0 when no answer came. */
  readonly status: number;
  /** Seconds to wait before trying again, on a 429. */
  readonly retryAfter: number | undefined;
  /** JSON Pointer to the refused field, on a 422 that has a place. */
  readonly at: string | undefined;
  /** Stable reason of a 422 (`markup`, `link`, `media`, …). */
  readonly reason: string | undefined;
  /** What a 415 recognised (`gif`, `svg`, …). */
  readonly kind: string | undefined;
  /**
   * Every problem of a 422, in document order: the body's `problems`, or
   * its `at` and `reason` alone when it lists none.
   */
  readonly problems: readonly PageProblemBody[];
  /** On a 502, the repository's own code. */
  readonly repository: string | undefined;
  /**
   * The fields changed on both sides, on a 409 of a review's publish
   * (`[]` otherwise): show them as the conflict view of a publish does.
   */
  readonly fields: readonly ReviewField[];
  /** Each page refused by the page rules, on a 422 of a review (`[]` otherwise). */
  readonly pages: readonly PageProblems[];
  /** The page whose version is stale, on a 409 of `sendForReview`. */
  readonly path: string | undefined;

  /**
   * Creates the error.
   *
   * @param code the failure's code
   * @param init its status and details
   */
  constructor(code: ErrorCode, init: EditorErrorInit) {
    super(
      init.status === 0
        ? `No answer from the server (${code})`
        : `The server answered ${init.status} (${code})`,
      init.cause === undefined ? undefined : { cause: init.cause },
    );
    this.name = "EditorError";
    this.code = code;
    this.status = init.status;
    this.retryAfter = init.retryAfter;
    this.at = init.at;
    this.reason = init.reason;
    this.kind = init.kind;
    this.problems = init.problems ??
      (init.at !== undefined && init.reason !== undefined
        ? [{ at: init.at, reason: init.reason }]
        : []);
    this.repository = init.repository;
    this.fields = init.fields ?? [];
    this.pages = init.pages ?? [];
    this.path = init.path;
  }
}

export type { JsonValue, PageObject };

/** What {@linkcode publish} sends. */
export interface PublishRequest {
  /** The page path, `src/content/pages/{lang}/{page}.json`. */
  path: string;
  /** The whole page: its text, or an object written as indented JSON. */
  content: string | PageObject;
  /** The version read, or `""` for a new file. */
  version: string;
  /** The commit message (one line, at most 120 characters once cleaned). */
  message?: string | undefined;
}

/** What {@linkcode sendForReview} sends. */
export interface ReviewRequest {
  /** What the review is: its commit message and its pull request's title. */
  message: string;
  /** The pages, 1 to 20, each path once, each as {@linkcode publish} takes it. */
  pages: readonly {
    /** The page path. */
    path: string;
    /** The whole page: its text, or an object written as indented JSON. */
    content: string | PageObject;
    /** The version read, or `""` for a new page. */
    version: string;
  }[];
}

/** How {@linkcode upload} stores an image. */
export interface UploadOptions {
  /**
   * Keep the image aside for this editor's next publish (`?staged=1`)
   * instead of storing it at once: it reaches the repository in the same
   * commit as the first page published within one hour that names it, and
   * never otherwise. The answer then carries `staged: true`.
   */
  staged?: boolean | undefined;
}

/** Where a client sends its requests. */
export interface ClientOptions {
  /** Origin of the routes; default: the page's own (relative URLs). */
  origin?: string;
  /** The fetch to use; default: the global one. */
  fetch?: (request: Request) => Promise<Response>;
}

/** The calls of the routes, bound to one origin. */
export interface Client {
  /** Opens a session with the site key. */
  login(key: string): Promise<void>;
  /** Closes the session; always succeeds on a reachable server. */
  logout(): Promise<void>;
  /** Reads a page file as text with its version. */
  read(path: string): Promise<ContentAnswer>;
  /** Publishes a whole page; answers the new version. */
  publish(request: PublishRequest): Promise<SaveAnswer>;
  /**
   * Uploads an image already cropped and converted; with `staged`, keeps it
   * aside for the next publish that names it.
   */
  upload(
    file: Blob,
    name?: string,
    options?: UploadOptions,
  ): Promise<UploadAnswer>;
  /** Who is logged in (`/api/session`). */
  session(): Promise<SessionAnswer>;
  /** A page's commits, newest first, 30 at most; `before` pages back. */
  history(path: string, before?: string): Promise<HistoryAnswer>;
  /** A page as it was at a commit, with its version then. */
  readAt(path: string, commit: string): Promise<ContentAnswer>;
  /** Sends pages for review: `{ id, branch }` (and `pull` on GitHub). */
  sendForReview(request: ReviewRequest): Promise<ReviewCreated>;
  /** The open reviews, oldest first. */
  reviews(): Promise<ReviewList>;
  /** One review, each page with its base, content and version. */
  review(id: string): Promise<ReviewAnswer>;
  /** The review a preview link's token names; needs no session. */
  previewReview(token: string): Promise<ReviewAnswer>;
  /**
   * Publishes a review (a publisher): `{ commit, versions }`; after a
   * clash, with `settle` (a side for each clashing field, and each page's
   * version the choices were made against).
   */
  publishReview(id: string, settle?: ReviewSettle): Promise<ReviewPublished>;
  /** Closes a review without publishing it (a publisher, or its author). */
  closeReview(id: string): Promise<void>;
  /** Schedules a review's publish (a publisher), or cancels it (`null`). */
  scheduleReview(
    id: string,
    at: Date | string | null,
  ): Promise<ReviewScheduled>;
  /** A preview link of a review, for 1 to 168 hours; `page` is where it opens. */
  reviewLink(id: string, hours: number, page?: string): Promise<ReviewLink>;
}

/**
 * Makes a client for the routes at an origin, with its own fetch.
 *
 * @param options the origin and the fetch
 * @returns the client
 * @example
 * ```ts
 * import { createClient, EditorError } from "./mod.ts";
 *
 * const client = createClient({
 *   origin: "https://site.example",
 *   fetch: () =>
 *     Promise.resolve(Response.json({ error: "unauthorized" }, { status: 401 })),
 * });
 * const error = await client.read("src/content/pages/en/home.json").catch((e) => e);
 * console.assert(error instanceof EditorError && error.code === "unauthorized");
 * ```
 */
export function createClient(options: ClientOptions = {}): Client {
  const base = options.origin ?? "";
  const send = options.fetch ?? ((request: Request) => fetch(request));
  const url = (path: string) =>
    base === ""
      ? new URL(path, globalThis.location?.href ?? "http://localhost/").href
      : new URL(path, base).href;
  async function call<T>(
    request: Request,
    schema: { safeParse(value: unknown): { success: boolean; data?: T } },
  ): Promise<T> {
    let response: Response;
    try {
      response = await send(request);
    } catch (cause) {
      throw new EditorError("network", { status: 0, cause });
    }
    const body: unknown = await response.json().catch(() => undefined);
    if (!response.ok) throw failure(response, body);
    const checked = schema.safeParse(body);
    if (!checked.success || checked.data === undefined) {
      throw new EditorError("bad_answer", { status: response.status });
    }
    return checked.data;
  }
  const json = (method: string, path: string, body: unknown) =>
    new Request(url(path), {
      method,
      headers: { "content-type": "application/json" },
      body: JSON.stringify(body),
    });
  const reviewsAt = (query: Record<string, string>) =>
    url(`${ROUTES.reviews.path}?${new URLSearchParams(query)}`);
  return {
    async login(key) {
      await call(json("POST", ROUTES.auth.path, { key }), okAnswer);
    },
    async logout() {
      await call(
        new Request(url(ROUTES.auth.path), { method: "DELETE" }),
        okAnswer,
      );
    },
    read(path) {
      const target = `${ROUTES.content.path}?${new URLSearchParams({ path })}`;
      return call(new Request(url(target)), contentAnswer);
    },
    publish({ path, content, version, message }) {
      const text = pageText(content);
      const body = message === undefined
        ? { path, content: text, version }
        : { path, content: text, version, message };
      return call(json("POST", ROUTES.save.path, body), saveAnswer);
    },
    session() {
      return call(new Request(url(ROUTES.session.path)), sessionAnswer);
    },
    history(path, before) {
      const query = new URLSearchParams(
        before === undefined ? { path } : { path, before },
      );
      return call(
        new Request(url(`${ROUTES.history.path}?${query}`)),
        historyAnswer,
      );
    },
    readAt(path, commit) {
      const query = new URLSearchParams({ path, commit });
      const target = `${ROUTES.content.path}?${query}`;
      return call(new Request(url(target)), contentAnswer);
    },
    sendForReview({ message, pages }) {
      const body = {
        message,
        pages: pages.map(({ path, content, version }) => ({
          path,
          content: pageText(content),
          version,
        })),
      };
      return call(json("POST", ROUTES.reviews.path, body), reviewCreated);
    },
    reviews() {
      return call(new Request(url(ROUTES.reviews.path)), reviewList);
    },
    review(id) {
      return call(new Request(reviewsAt({ id })), reviewAnswer);
    },
    previewReview(token) {
      return call(
        new Request(reviewsAt({ token }), {
          credentials: "omit",
          referrerPolicy: "no-referrer",
        }),
        reviewAnswer,
      );
    },
    publishReview(id, settle) {
      return call(
        json(
          "POST",
          ROUTES.reviewPublish.path,
          settle === undefined ? { id } : { id, settle },
        ),
        reviewPublished,
      );
    },
    async closeReview(id) {
      await call(
        new Request(reviewsAt({ id }), { method: "DELETE" }),
        okAnswer,
      );
    },
    scheduleReview(id, at) {
      const time = at instanceof Date ? at.toISOString() : at;
      return call(
        json("POST", ROUTES.reviewSchedule.path, { id, at: time }),
        reviewScheduled,
      );
    },
    reviewLink(id, hours, page) {
      const body = page === undefined ? { id, hours } : { id, hours, page };
      return call(
        json("POST", ROUTES.reviewLink.path, body),
        reviewLinkAnswer,
      );
    },
    upload(file, name, options) {
      const form = new FormData();
      const fileName = "name" in file && typeof file.name === "string" &&
          file.name !== ""
        ? file.name
        : "image";
      form.append("file", file, fileName);
      if (name !== undefined) form.append("name", name);
      const target = options?.staged
        ? `${ROUTES.upload.path}?${STAGED_PARAMETER}=1`
        : ROUTES.upload.path;
      return call(
        new Request(url(target), { method: "POST", body: form }),
        uploadAnswer,
      );
    },
  };
}

/** A page as the routes take it: its text, or an object as indented JSON. */
function pageText(content: string | PageObject): string {
  return typeof content === "string"
    ? content
    : JSON.stringify(content, null, 2) + "\n";
}

/**
 * Turns a failed answer into its {@linkcode EditorError}.
 *
 * @param response the answer, not ok
 * @param body its JSON body, or `undefined` when it had none
 * @returns the error
 * @example
 * ```ts
 * import { failure } from "./mod.ts";
 *
 * const response = new Response(null, {
 *   status: 429,
 *   headers: { "retry-after": "120" },
 * });
 * const error = failure(response, { error: "Trop de requêtes." });
 * console.assert(error.code === "rate_limited" && error.retryAfter === 120);
 * ```
 */
export function failure(response: Response, body: unknown): EditorError {
  const status = response.status;
  const parsed = errorBody.safeParse(body);
  const fields: ErrorBody | undefined = parsed.success
    ? parsed.data
    : undefined;
  const code = status === 409 && fields?.error === "too_many_reviews"
    ? "too_many_reviews"
    : STATUS_CODES[status] ?? (status >= 500 ? "unavailable" : "bad_answer");
  const header = response.headers.get("retry-after");
  const seconds = header !== null && /^\d+$/.test(header.trim())
    ? Number(header.trim())
    : undefined;
  return new EditorError(code, {
    status,
    retryAfter: seconds,
    at: fields?.at,
    reason: fields?.reason,
    kind: fields?.kind,
    problems: fields?.problems,
    repository: status === 502 ? fields?.error : undefined,
    fields: fields?.fields,
    pages: fields?.pages,
    path: fields?.path,
  });
}

let defaultClient: Client | undefined;
function client(): Client {
  return defaultClient ??= createClient();
}

/**
 * Opens an editing session on the page's own origin with the site key.
 *
 * @param key the site key
 * @returns when the session cookies are set
 * @throws {EditorError} `unauthorized` for a wrong key, `rate_limited`
 *   after too many attempts
 * @example
 * ```ts ignore
 * import { login } from "@inpage/editor/client";
 *
 * await login(prompt("Site key") ?? "");
 * ```
 */
export function login(key: string): Promise<void> {
  return client().login(key);
}

/**
 * Closes the editing session on the page's own origin.
 *
 * @returns when both cookies are cleared
 * @example
 * ```ts ignore
 * import { logout } from "@inpage/editor/client";
 *
 * await logout();
 * ```
 */
export function logout(): Promise<void> {
  return client().logout();
}

/**
 * Reads a page file and its version.
 *
 * @param path the page path
 * @returns the file as text and its version
 * @throws {EditorError} `unauthorized`, `not_found`, `bad_request`, …
 * @example
 * ```ts ignore
 * import { read } from "@inpage/editor/client";
 *
 * const { content, version } = await read("src/content/pages/en/home.json");
 * console.log(JSON.parse(content).title, version);
 * ```
 */
export function read(path: string): Promise<ContentAnswer> {
  return client().read(path);
}

/**
 * Publishes a whole page file.
 *
 * @param request the path, the content, the version read and a message
 * @returns the new version
 * @throws {EditorError} `conflict` when someone published meanwhile,
 *   `invalid_content` with `at` and `reason`, `too_large`, …
 * @example
 * ```ts ignore
 * import { publish } from "@inpage/editor/client";
 *
 * const { version } = await publish({
 *   path: "src/content/pages/en/home.json",
 *   content: { title: "Welcome" },
 *   version: "8d1e1f0f6b0c9e5b3a3c0e0f0a7d6e5c4b3a2f10",
 *   message: "New title",
 * });
 * ```
 */
export function publish(request: PublishRequest): Promise<SaveAnswer> {
  return client().publish(request);
}

/**
 * Uploads an image (JPEG, PNG or WebP) already cropped and converted. With
 * `{ staged: true }` it is kept aside and committed with the first page
 * published within one hour that names it (one commit for both), never
 * otherwise.
 *
 * @param file the image
 * @param name a name to derive the stored name from
 * @param options `staged`: keep it for the next publish
 * @returns the stored name and the image's size (`staged: true` when kept aside)
 * @throws {EditorError} `unsupported_format` with `kind`, `too_large`, …
 * @example
 * ```ts ignore
 * import { publish, upload } from "@inpage/editor/client";
 *
 * const blob = await (await fetch("/photo.webp")).blob();
 * const image = await upload(blob, "Team photo", { staged: true });
 * await publish({
 *   path: "src/content/pages/en/home.json",
 *   content: { hero: { src: image.src, width: image.width, height: image.height } },
 *   version: "8d1e1f0f6b0c9e5b3a3c0e0f0a7d6e5c4b3a2f10",
 * }); // one commit: the page and the photo
 * ```
 */
export function upload(
  file: Blob,
  name?: string,
  options?: UploadOptions,
): Promise<UploadAnswer> {
  return client().upload(file, name, options);
}

/**
 * Who is logged in on the page's own origin (beyond the reference). Call it
 * only when the `editor_edit` cookie is set: without a session it fails with
 * `unauthorized`.
 *
 * @returns the session's editor: `{ editor: { id, name } }`
 * @throws {EditorError} `unauthorized` without a session
 * @example
 * ```ts ignore
 * import { session } from "@inpage/editor/client";
 *
 * const { editor } = await session();
 * console.log(`Logged in as ${editor.name}`);
 * ```
 */
export function session(): Promise<SessionAnswer> {
  return client().session();
}

/**
 * A page's commits, newest first, at most 30 (beyond the reference).
 *
 * @param path the page path
 * @param before a commit id: only older commits (the next page)
 * @returns `{ entries: [{ commit, version, date, author, message }] }`
 * @throws {EditorError} `not_found` for an unknown `before`, `bad_request`,
 *   `unavailable` when the repository keeps no history
 * @example
 * ```ts ignore
 * import { history } from "@inpage/editor/client";
 *
 * const { entries } = await history("src/content/pages/en/home.json");
 * const older = await history(
 *   "src/content/pages/en/home.json",
 *   entries.at(-1)?.commit,
 * );
 * ```
 */
export function history(
  path: string,
  before?: string,
): Promise<HistoryAnswer> {
  return client().history(path, before);
}

/**
 * A page as it was at a commit (beyond the reference): its text and its
 * version then. To restore it, publish that text with the current version.
 *
 * @param path the page path
 * @param commit a commit id from {@linkcode history}
 * @returns the file as text and its version at that commit
 * @throws {EditorError} `not_found` for an unknown commit or a page absent
 *   then, `bad_request` for a malformed commit
 * @example
 * ```ts ignore
 * import { history, readAt } from "@inpage/editor/client";
 *
 * const path = "src/content/pages/en/home.json";
 * const { entries } = await history(path);
 * const { content } = await readAt(path, entries[1]!.commit);
 * ```
 */
export function readAt(path: string, commit: string): Promise<ContentAnswer> {
  return client().readAt(path, commit);
}

/**
 * Sends pages for review (beyond the reference): one commit on a branch of
 * its own, the site untouched until a publisher publishes it. Authors and
 * publishers alike.
 *
 * @param request the message and 1 to 20 pages, each with the version read
 * @returns `{ id, branch }`, and `pull` (its pull request) on GitHub
 * @throws {EditorError} `invalid_content` with `pages` (each page's
 *   problems), `conflict` with `path` (a page published meanwhile: read it
 *   again), `bad_request` when no page changes anything, `too_many_reviews`
 * @example
 * ```ts ignore
 * import { read, sendForReview } from "@inpage/editor/client";
 *
 * const path = "src/content/pages/en/about.json";
 * const { content, version } = await read(path);
 * const page = { ...JSON.parse(content), title: "About us" };
 * const { id } = await sendForReview({
 *   message: "Retitle the about page",
 *   pages: [{ path, content: page, version }],
 * });
 * ```
 */
export function sendForReview(request: ReviewRequest): Promise<ReviewCreated> {
  return client().sendForReview(request);
}

/**
 * The open reviews, oldest first (beyond the reference).
 *
 * @returns `{ reviews: [{ id, branch, message, author, created, pages, scheduled, failed }] }`
 * @throws {EditorError} `unauthorized` without a session
 * @example
 * ```ts ignore
 * import { reviews } from "@inpage/editor/client";
 *
 * for (const review of (await reviews()).reviews) {
 *   console.log(review.message, "by", review.author.name);
 * }
 * ```
 */
export function reviews(): Promise<ReviewList> {
  return client().reviews();
}

/**
 * One review, each page with its `base` (the version it was made from), its
 * `content` in the review and its `version` (beyond the reference).
 *
 * @param id the review's id
 * @returns the review
 * @throws {EditorError} `not_found` once it is published or closed
 * @example
 * ```ts ignore
 * import { review } from "@inpage/editor/client";
 *
 * const { pages } = await review("0123456789abcdef0123456789abcdef");
 * const changed = JSON.parse(pages[0]!.content);
 * ```
 */
export function review(id: string): Promise<ReviewAnswer> {
  return client().review(id);
}

/**
 * The review a preview link names, read-only, without a session (beyond
 * the reference): the token is the link's `inpage-preview` parameter.
 *
 * @param token the token
 * @returns the review
 * @throws {EditorError} `unauthorized` for a token altered, expired or
 *   signed under another secret; `not_found` once the review is closed
 * @example
 * ```ts ignore
 * import { PREVIEW_PARAMETER, previewReview } from "@inpage/editor/client";
 *
 * const token = new URL(location.href).searchParams.get(PREVIEW_PARAMETER);
 * if (token) console.log((await previewReview(token)).message);
 * ```
 */
export function previewReview(token: string): Promise<ReviewAnswer> {
  return client().previewReview(token);
}

/**
 * Publishes a review (a publisher; beyond the reference): its field
 * changes applied to the pages as they are now, in one commit. After a
 * 409, `settle` gives a side for each clashing field (`review` or `site`)
 * and each page's version those choices were made against.
 *
 * @param id the review's id
 * @param settle how the clashes of a 409 are settled
 * @returns `{ commit, versions }`: each page's new version
 * @throws {EditorError} `conflict` with `fields` (each `{ path, pointer }`
 *   changed on both sides: nothing was published), `forbidden` for an
 *   author, `not_found`, `invalid_content` with `pages`
 * @example
 * ```ts ignore
 * import { EditorError, publishReview } from "@inpage/editor/client";
 *
 * try {
 *   await publishReview("0123456789abcdef0123456789abcdef");
 * } catch (error) {
 *   if (error instanceof EditorError && error.code === "conflict") {
 *     console.log(error.fields); // [{ path, pointer: "/title" }]
 *   }
 * }
 * ```
 */
export function publishReview(
  id: string,
  settle?: ReviewSettle,
): Promise<ReviewPublished> {
  return client().publishReview(id, settle);
}

/**
 * Closes a review without publishing it (a publisher, or the review's
 * author; beyond the reference): its branch is deleted.
 *
 * @param id the review's id
 * @returns when it is closed
 * @throws {EditorError} `forbidden` for another author's review, `not_found`
 * @example
 * ```ts ignore
 * import { closeReview } from "@inpage/editor/client";
 *
 * await closeReview("0123456789abcdef0123456789abcdef");
 * ```
 */
export function closeReview(id: string): Promise<void> {
  return client().closeReview(id);
}

/**
 * Schedules a review's publish (a publisher; beyond the reference), or
 * cancels it with `null`. A schedule that meets a conflict leaves the
 * review open with `failed` saying why.
 *
 * @param id the review's id
 * @param at when: a `Date`, or ISO 8601 with its offset; at most 366 days ahead
 * @returns `{ id, scheduled }`, the time in UTC or `null`
 * @throws {EditorError} `bad_request` for a time refused, `forbidden`, `not_found`
 * @example
 * ```ts ignore
 * import { scheduleReview } from "@inpage/editor/client";
 *
 * await scheduleReview("0123456789abcdef0123456789abcdef", "2026-12-01T08:00:00+01:00");
 * ```
 */
export function scheduleReview(
  id: string,
  at: Date | string | null,
): Promise<ReviewScheduled> {
  return client().scheduleReview(id, at);
}

/**
 * A preview link of a review (beyond the reference): whoever opens it sees
 * the review on the live page, read-only, until it expires.
 *
 * @param id the review's id
 * @param hours how long it works: 1 to 168
 * @param page the site path it opens; default the first page's address
 * @returns `{ url, expires }`
 * @throws {EditorError} `unavailable` when the server has no preview secret
 * @example
 * ```ts ignore
 * import { reviewLink } from "@inpage/editor/client";
 *
 * const { url } = await reviewLink("0123456789abcdef0123456789abcdef", 48, location.pathname);
 * await navigator.clipboard.writeText(new URL(url, location.href).href);
 * ```
 */
export function reviewLink(
  id: string,
  hours: number,
  page?: string,
): Promise<ReviewLink> {
  return client().reviewLink(id, hours, page);
}
