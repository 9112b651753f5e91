/**
 * The route factories as the package exports them (and as the router uses
 * them): each checks its options and returns its handlers at once, and
 * loads its route's module (the checks, the KV, the repository, the key
 * check) when a first request reaches one of them. A new instance answers
 * its first request without loading the routes that request does not use:
 * serverless hosts start one on every burst of traffic.
 *
 * @module
 */

import type { Handler } from "../lib/http/env.ts";
import { checkLocales, type RouterOptions } from "../lib/pages/locales.ts";
import { ROUTES } from "../lib/wire/names.ts";
import { refusesTemplateSyntax } from "../lib/pages/template_rule.ts";
import type { AuthRoute } from "./auth.ts";
import type { ContentRoute } from "./content.ts";
import type { SaveRoute } from "./save.ts";
import type { UploadRoute } from "./upload.ts";
import type { SessionRoute } from "./session.ts";
import type { HistoryRoute } from "./history.ts";
import type { ReviewsRoute } from "./reviews.ts";
import type { ReviewPublishRoute } from "./review_publish.ts";
import type { ReviewScheduleRoute } from "./review_schedule.ts";
import type { ReviewLinkRoute } from "./review_link.ts";

type Entry = (typeof ROUTES)[keyof typeof ROUTES];

/**
 * Handlers named after the entry's methods (`onRequest`, `onRequestPost`,
 * …), each loading the route with `load` at its first call.
 */
function lazyRoute<R>(entry: Entry, load: () => Promise<R>): R {
  let route: Promise<R> | undefined;
  const names = [
    "onRequest",
    ...entry.methods.map((method) =>
      `onRequest${method[0]}${method.slice(1).toLowerCase()}`
    ),
  ];
  const handler = (name: string): Handler => async (context) => {
    route ??= load();
    route.catch(() => route = undefined);
    const handlers = (await route) as Record<string, Handler>;
    return await handlers[name]!(context);
  };
  return Object.fromEntries(names.map((name) => [name, handler(name)])) as R;
}

/**
 * Creates the `/api/auth` handlers: POST opens a session from the site key,
 * DELETE ends it.
 *
 * @returns `onRequest`, `onRequestPost` and `onRequestDelete`
 * @example
 * ```ts
 * import { createAuthRoute } from "@inpage/editor";
 * import assert from "node:assert/strict";
 *
 * const auth = createAuthRoute();
 * const response = await auth.onRequestDelete({
 *   request: new Request("https://site.example/api/auth", { method: "DELETE" }),
 *   env: {},
 * });
 * assert.equal(response.status, 200);
 * assert.equal(response.headers.getSetCookie().length, 2);
 * ```
 */
export function createAuthRoute(): AuthRoute {
  return lazyRoute(
    ROUTES.auth,
    async () => (await import("./auth.ts")).createAuthRoute(),
  );
}

/**
 * Creates the `/api/content` handlers for a site's locales: GET reads a page
 * file and its version.
 *
 * @param options `{ locales }`
 * @returns `onRequest` and `onRequestGet`
 * @throws {TypeError} on an empty or malformed locales list, at once
 * @example
 * ```ts
 * import { createContentRoute } from "@inpage/editor";
 * import assert from "node:assert/strict";
 *
 * assert.throws(() => createContentRoute({ locales: [] }), TypeError);
 * const content = createContentRoute({ locales: ["en"] });
 * const response = await content.onRequest({
 *   request: new Request("https://site.example/api/content", { method: "PUT" }),
 *   env: {},
 * });
 * assert.equal(response.headers.get("allow"), "GET");
 * ```
 */
export function createContentRoute(options: RouterOptions): ContentRoute {
  const locales = checkLocales(options);
  return lazyRoute(
    ROUTES.content,
    async () => (await import("./content.ts")).createContentRoute({ locales }),
  );
}

/**
 * Creates the `/api/save` handlers for a site's locales: POST validates,
 * sanitises and publishes a page file.
 *
 * @param options `{ locales }`
 * @returns `onRequest` and `onRequestPost`
 * @throws {TypeError} on an empty or malformed locales list, at once
 * @example
 * ```ts
 * import { createSaveRoute } from "@inpage/editor";
 * import assert from "node:assert/strict";
 *
 * assert.throws(() => createSaveRoute({ locales: ["en", "en"] }), TypeError);
 * const save = createSaveRoute({ locales: ["en", "fr"] });
 * const response = await save.onRequestPost({
 *   request: new Request("https://site.example/api/save", { method: "POST" }),
 *   env: {},
 * });
 * assert.equal(response.status, 503); // no RATE_LIMIT: fails closed
 * ```
 */
export function createSaveRoute(options: RouterOptions): SaveRoute {
  const locales = checkLocales(options);
  return lazyRoute(
    ROUTES.save,
    async () =>
      (await import("./save.ts")).createSaveRoute({
        locales,
        templateSyntax: options.templateSyntax,
      }),
  );
}

/**
 * Creates the `/api/upload` handlers: POST verifies, renames and stores an
 * image.
 *
 * @returns `onRequest` and `onRequestPost`
 * @example
 * ```ts
 * import { createUploadRoute } from "@inpage/editor";
 * import assert from "node:assert/strict";
 *
 * const upload = createUploadRoute();
 * assert.deepEqual(Object.keys(upload), ["onRequest", "onRequestPost"]);
 * ```
 */
export function createUploadRoute(): UploadRoute {
  return lazyRoute(
    ROUTES.upload,
    async () => (await import("./upload.ts")).createUploadRoute(),
  );
}

/**
 * Creates the `/api/session` handlers: GET names the session's editor.
 *
 * @returns `onRequest` and `onRequestGet`
 * @example
 * ```ts
 * import { createSessionRoute } from "@inpage/editor";
 * import assert from "node:assert/strict";
 *
 * const session = createSessionRoute();
 * const response = await session.onRequestGet({
 *   request: new Request("https://site.example/api/session"),
 *   env: {},
 * });
 * assert.deepEqual(await response.json(), { error: "unavailable" });
 * ```
 */
export function createSessionRoute(): SessionRoute {
  return lazyRoute(
    ROUTES.session,
    async () => (await import("./session.ts")).createSessionRoute(),
  );
}

/**
 * Creates the `/api/history` handlers for a site's locales: GET lists a
 * page's commits.
 *
 * @param options `{ locales }`
 * @returns `onRequest` and `onRequestGet`
 * @throws {TypeError} on an empty or malformed locales list, at once
 * @example
 * ```ts
 * import { createHistoryRoute } from "@inpage/editor";
 * import assert from "node:assert/strict";
 *
 * const history = createHistoryRoute({ locales: ["en"] });
 * const response = await history.onRequest({
 *   request: new Request("https://site.example/api/history", { method: "POST" }),
 *   env: {},
 * });
 * assert.equal(response.status, 405);
 * ```
 */
export function createHistoryRoute(options: RouterOptions): HistoryRoute {
  const locales = checkLocales(options);
  return lazyRoute(
    ROUTES.history,
    async () => (await import("./history.ts")).createHistoryRoute({ locales }),
  );
}

/**
 * Creates the `/api/reviews` handlers: changes sent for review (POST), the
 * open reviews or one (GET, or a preview with `token`), a review closed
 * (DELETE).
 *
 * @param options `{ locales }`
 * @returns `onRequest`, `onRequestGet`, `onRequestPost`, `onRequestDelete`
 * @throws {TypeError} on an empty or malformed locales list
 * @example
 * ```ts
 * import { createReviewsRoute } from "@inpage/editor";
 * import assert from "node:assert/strict";
 *
 * const reviews = createReviewsRoute({ locales: ["en"] });
 * const response = await reviews.onRequest({
 *   request: new Request("https://site.example/api/reviews", { method: "PUT" }),
 *   env: {},
 * });
 * assert.equal(response.status, 405);
 * ```
 */
export function createReviewsRoute(options: RouterOptions): ReviewsRoute {
  const locales = checkLocales(options);
  return lazyRoute(
    ROUTES.reviews,
    async () =>
      (await import("./reviews.ts")).createReviewsRoute({
        locales,
        templateSyntax: options.templateSyntax,
      }),
  );
}

/**
 * Creates the `/api/reviews/publish` handlers: a review published in one
 * commit (a publisher's POST).
 *
 * @param options `templateSyntax: "refuse"` for a site whose templates
 *   render page strings (the pages published are checked as `/api/save`
 *   checks them)
 * @returns `onRequest` and `onRequestPost`
 * @example
 * ```ts
 * import { createReviewPublishRoute } from "@inpage/editor";
 * import assert from "node:assert/strict";
 *
 * const publish = createReviewPublishRoute();
 * const response = await publish.onRequest({
 *   request: new Request("https://site.example/api/reviews/publish"),
 *   env: {},
 * });
 * assert.equal(response.status, 405);
 * ```
 */
export function createReviewPublishRoute(
  options: Pick<RouterOptions, "templateSyntax"> = {},
): ReviewPublishRoute {
  refusesTemplateSyntax(options.templateSyntax);
  return lazyRoute(
    ROUTES.reviewPublish,
    async () =>
      (await import("./review_publish.ts")).createReviewPublishRoute({
        templateSyntax: options.templateSyntax,
      }),
  );
}

/**
 * Creates the `/api/reviews/schedule` handlers: a review's publish set for
 * a time, or unset (a publisher's POST).
 *
 * @returns `onRequest` and `onRequestPost`
 * @example
 * ```ts
 * import { createReviewScheduleRoute } from "@inpage/editor";
 * import assert from "node:assert/strict";
 *
 * const schedule = createReviewScheduleRoute();
 * const response = await schedule.onRequest({
 *   request: new Request("https://site.example/api/reviews/schedule"),
 *   env: {},
 * });
 * assert.equal(response.status, 405);
 * ```
 */
export function createReviewScheduleRoute(): ReviewScheduleRoute {
  return lazyRoute(
    ROUTES.reviewSchedule,
    async () =>
      (await import("./review_schedule.ts")).createReviewScheduleRoute(),
  );
}

/**
 * Creates the `/api/reviews/link` handlers: a signed preview link of a
 * review, for people without a key (POST).
 *
 * @returns `onRequest` and `onRequestPost`
 * @example
 * ```ts
 * import { createReviewLinkRoute } from "@inpage/editor";
 * import assert from "node:assert/strict";
 *
 * const link = createReviewLinkRoute();
 * const response = await link.onRequest({
 *   request: new Request("https://site.example/api/reviews/link"),
 *   env: {},
 * });
 * assert.equal(response.status, 405);
 * ```
 */
export function createReviewLinkRoute(): ReviewLinkRoute {
  return lazyRoute(
    ROUTES.reviewLink,
    async () => (await import("./review_link.ts")).createReviewLinkRoute(),
  );
}
