/**
 * The router: the routes of a site, gathered from its `locales`, in three
 * shapes (`routes`, `handle`, `find`). It only matches and dispatches.
 *
 * @module
 */

import type { ClientInfo, Env, Handler } from "./lib/http/env.ts";
import { notFound } from "./lib/http/http_error.ts";
import { answerFailure } from "./lib/http/route.ts";
import {
  checkLocales,
  type RouterOptions,
  type TemplateSyntax,
} from "./lib/pages/locales.ts";
import type { AuthRoute } from "./routes/auth.ts";
import type { ContentRoute } from "./routes/content.ts";
import type { SaveRoute } from "./routes/save.ts";
import type { UploadRoute } from "./routes/upload.ts";
import type { SessionRoute } from "./routes/session.ts";
import type { HistoryRoute } from "./routes/history.ts";
import type { ReviewsRoute } from "./routes/reviews.ts";
import type { ReviewPublishRoute } from "./routes/review_publish.ts";
import type { ReviewScheduleRoute } from "./routes/review_schedule.ts";
import type { ReviewLinkRoute } from "./routes/review_link.ts";
// Each route's module loads when a first request reaches it.
import {
  createAuthRoute,
  createContentRoute,
  createHistoryRoute,
  createReviewLinkRoute,
  createReviewPublishRoute,
  createReviewScheduleRoute,
  createReviewsRoute,
  createSaveRoute,
  createSessionRoute,
  createUploadRoute,
} from "./routes/lazy_routes.ts";
import { ROUTES } from "./lib/wire/names.ts";

export type { RouterOptions, TemplateSyntax };

/** The handlers of one route; `onRequest` dispatches on the method. */
export interface RouteHandlers {
  /** Dispatches on the method and answers 405 for the others. */
  onRequest: Handler;
  /** Serves GET, when the route does. */
  onRequestGet?: Handler;
  /** Serves POST, when the route does. */
  onRequestPost?: Handler;
  /** Serves DELETE, when the route does. */
  onRequestDelete?: Handler;
}

/**
 * The routes, keyed by path: `/api/auth`, `/api/content`, `/api/save`,
 * `/api/upload`, and beyond the reference `/api/session`, `/api/history`
 * and the review routes (`/api/reviews` and its `publish`, `schedule` and
 * `link`).
 */
export interface Routes {
  /** `/api/auth`, sessions: POST opens, DELETE ends. */
  readonly [ROUTES.auth.path]: AuthRoute;
  /** `/api/content`, reading a page file and its version: GET. */
  readonly [ROUTES.content.path]: ContentRoute;
  /** `/api/save`, publishing a page file: POST. */
  readonly [ROUTES.save.path]: SaveRoute;
  /** `/api/upload`, storing an image: POST. */
  readonly [ROUTES.upload.path]: UploadRoute;
  /** `/api/session`, who is logged in: GET (beyond the reference). */
  readonly [ROUTES.session.path]: SessionRoute;
  /** `/api/history`, a page's commits: GET (beyond the reference). */
  readonly [ROUTES.history.path]: HistoryRoute;
  /** `/api/reviews`, changes sent for review: GET, POST, DELETE. */
  readonly [ROUTES.reviews.path]: ReviewsRoute;
  /** `/api/reviews/publish`, a review published: POST. */
  readonly [ROUTES.reviewPublish.path]: ReviewPublishRoute;
  /** `/api/reviews/schedule`, a review's publish scheduled: POST. */
  readonly [ROUTES.reviewSchedule.path]: ReviewScheduleRoute;
  /** `/api/reviews/link`, a review's preview link: POST. */
  readonly [ROUTES.reviewLink.path]: ReviewLinkRoute;
}

/** A site's router. */
export interface Router {
  /** The routes keyed by path, for hosts that expect named exports. */
  readonly routes: Routes;
  /**
   * Answers a request: selects the route and the method; 404 JSON for an
   * unknown path. Fits `Deno.serve((request, info) => …)`.
   */
  handle(request: Request, env: Env, info?: ClientInfo): Promise<Response>;
  /** The route serving a path, or `undefined`. */
  find(pathname: string): RouteHandlers | undefined;
}

/**
 * Creates a site's router from its locales. A site whose templates render
 * page strings as templates (Eleventy's `renderContent`, a Nunjucks or
 * Liquid filter, Hugo's `RenderString`) adds `templateSyntax: "refuse"`:
 * a publish holding `{{`, `{%` or `{#` in any string or key is then
 * answered 422 `invalid_content`, reason `template`, `at` the field.
 *
 * @param options `{ locales }`, and `templateSyntax` (`"allow"`, the
 *   default, or `"refuse"`)
 * @returns the router
 * @throws {TypeError} on an empty or malformed locales list, or a
 *   `templateSyntax` other than `"allow"` and `"refuse"`
 * @example
 * ```ts
 * import { createRouter } from "@inpage/editor";
 * import assert from "node:assert/strict";
 *
 * const router = createRouter({ locales: ["en", "fr"] });
 * const response = await router.handle(
 *   new Request("https://site.example/api/nothing"),
 *   {},
 * );
 * assert.equal(response.status, 404);
 * assert.deepEqual(await response.json(), { error: "not_found" });
 * assert.equal(router.find("/api/auth"), router.routes["/api/auth"]);
 *
 * // An Eleventy or Hugo site that renders strings as templates:
 * createRouter({ locales: ["en", "fr"], templateSyntax: "refuse" });
 * ```
 */
export function createRouter(options: RouterOptions): Router {
  const locales = checkLocales(options);
  const routes: Routes = Object.freeze({
    [ROUTES.auth.path]: createAuthRoute(),
    [ROUTES.content.path]: createContentRoute({ locales }),
    [ROUTES.save.path]: createSaveRoute({
      locales,
      templateSyntax: options.templateSyntax,
    }),
    [ROUTES.upload.path]: createUploadRoute(),
    [ROUTES.session.path]: createSessionRoute(),
    [ROUTES.history.path]: createHistoryRoute({ locales }),
    [ROUTES.reviews.path]: createReviewsRoute({
      locales,
      templateSyntax: options.templateSyntax,
    }),
    [ROUTES.reviewPublish.path]: createReviewPublishRoute({
      templateSyntax: options.templateSyntax,
    }),
    [ROUTES.reviewSchedule.path]: createReviewScheduleRoute(),
    [ROUTES.reviewLink.path]: createReviewLinkRoute(),
  });
  const find = (pathname: string): RouteHandlers | undefined =>
    Object.hasOwn(routes, pathname)
      ? routes[pathname as keyof Routes]
      : undefined;
  return Object.freeze({
    routes,
    find,
    async handle(
      request: Request,
      env: Env,
      info?: ClientInfo,
    ): Promise<Response> {
      const started = performance.now();
      let pathname: string;
      try {
        pathname = new URL(request.url).pathname;
      } catch {
        pathname = "";
      }
      const route = find(pathname);
      if (route) return await route.onRequest({ request, env, info });
      return answerFailure(
        { request, env, info },
        null,
        notFound(`no route at ${pathname.slice(0, 120)}`),
        started,
      );
    },
  });
}
