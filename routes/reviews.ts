/**
 * `/api/reviews` (beyond the reference): changes sent for review. `POST`
 * sends 1 to 20 pages (author or publisher; every page passes the rules of
 * `/api/save`) to a branch `inpage/review/{id}`; `GET` lists the open
 * reviews, or answers one (`?id=`), or answers one to whoever holds its
 * preview link (`?token=`, no session); `DELETE ?id=` closes one
 * unpublished (a publisher, or its author). One rate budget for the route;
 * checks in the reference's order.
 *
 * @module
 */

import type { Handler } from "../lib/http/env.ts";
import { jsonResponse } from "../lib/http/json_response.ts";
import { HttpError, tooLarge } from "../lib/http/http_error.ts";
import { toHttpError } from "../lib/http/error_response.ts";
import {
  bodyIdleMs,
  checkDeclaredSize,
  receiveBody,
} from "../lib/http/read_body.ts";
import {
  reviewCreateRequest,
  reviewIdParameter,
  reviewQuery,
} from "../lib/http/review_request.ts";
import { admit } from "../lib/access/admission.ts";
import { kvOf } from "../lib/access/kv_binding.ts";
import { dispatch, type Exchange, handler } from "../lib/http/route.ts";
import { checkLocales, type RouterOptions } from "../lib/pages/locales.ts";
import { loadPageRules } from "../lib/pages/load.ts";
import type { PageRuleOptions } from "../lib/pages/page_rules.ts";
import { cleanCommitMessage } from "../lib/repository/commit_message.ts";
import {
  type CheckedPage,
  createReview,
  reviewRepository,
} from "../lib/review/create.ts";
import { closeUnpublished } from "../lib/review/publish.ts";
import { previewedId } from "../lib/review/link.ts";
import {
  refusedPage,
  ReviewError,
  type ReviewPageProblems,
} from "../lib/review/review_error.ts";
import { openReview, openReviews } from "../lib/review/store.ts";
import { summaryOf, wholeReview } from "../lib/review/view.ts";
import { ROUTES } from "../lib/wire/names.ts";
import type { ReviewBody } from "../lib/wire/review.ts";
import { CONTENT_MAX, REVIEW_ENVELOPE_MAX } from "../lib/limits.ts";

/** The handlers of `/api/reviews`. */
export interface ReviewsRoute {
  /** Dispatches on the method; 405 for anything but GET, POST and DELETE. */
  onRequest: Handler;
  /** Lists the open reviews, or answers one (`?id=`, `?token=`). */
  onRequestGet: Handler;
  /** Sends pages for review: 201 `{ id, branch }` (and `pull` on GitHub). */
  onRequestPost: Handler;
  /** Closes a review without publishing it (`?id=`): `{ ok: true }`. */
  onRequestDelete: Handler;
}

/** What a preview's answers carry, whatever their status. */
const PREVIEW_HEADERS = {
  "x-robots-tag": "noindex",
  "referrer-policy": "no-referrer",
} as const;

/**
 * Creates the `/api/reviews` handlers for a site's locales.
 *
 * @param options `{ locales }`, and `templateSyntax: "refuse"` for a site
 *   whose templates render page strings (every page sent is checked as
 *   `/api/save` checks it)
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
 * assert.equal(response.headers.get("allow"), "GET, POST, DELETE");
 * ```
 */
export function createReviewsRoute(options: RouterOptions): ReviewsRoute {
  const locales = checkLocales(options);
  const rules = { templateSyntax: options.templateSyntax };
  const onRequestGet = handler(ROUTES.reviews, async (exchange) => {
    const { request, env, client } = exchange;
    const admission = await admit(env, ROUTES.reviews, client, request);
    if (new URL(request.url).searchParams.has("token")) {
      return await preview(exchange, () => admission.spend());
    }
    exchange.editor = admission.requireSession().editor.id;
    await admission.spend();
    const query = reviewQuery(request);
    const kv = kvOf(env);
    if (query.kind === "list") {
      const reviews = await openReviews(kv);
      return jsonResponse(200, { reviews: reviews.map(summaryOf) });
    }
    const repository = reviewRepository(env);
    const id = query.kind === "id" ? query.id : "";
    const record = await openReview(kv, id);
    return jsonResponse(200, await wholeReview(repository, record));
  });
  const onRequestPost = handler(ROUTES.reviews, async (exchange) => {
    const { request, env, client } = exchange;
    const admission = await admit(env, ROUTES.reviews, client, request);
    checkDeclaredSize(request, REVIEW_ENVELOPE_MAX);
    const { editor } = admission.requireSession();
    exchange.editor = editor.id;
    await admission.spend();
    const bytes = await receiveBody(
      request,
      REVIEW_ENVELOPE_MAX,
      bodyIdleMs(env),
    );
    const body = await reviewCreateRequest(request, bytes, locales);
    const pages = await checkedPages(body, rules);
    const created = await createReview(env, {
      id: editor.id,
      name: editor.name,
      email: editor.email,
    }, { message: messageOf(body), pages });
    return jsonResponse(201, created);
  });
  const onRequestDelete = handler(ROUTES.reviews, async (exchange) => {
    const { request, env, client } = exchange;
    const admission = await admit(env, ROUTES.reviews, client, request);
    const { editor } = admission.requireSession();
    exchange.editor = editor.id;
    await admission.spend();
    await closeUnpublished(env, reviewIdParameter(request), editor);
    return jsonResponse(200, { ok: true });
  });
  return {
    onRequest: dispatch(ROUTES.reviews, {
      GET: onRequestGet,
      POST: onRequestPost,
      DELETE: onRequestDelete,
    }),
    onRequestGet,
    onRequestPost,
    onRequestDelete,
  };
}

/**
 * A review for whoever holds its preview link: the budget is spent first
 * (every guess counts), then the token is the identity (401 when altered,
 * expired or signed under another secret), then the query's shape (400),
 * then the review (404 once closed). Every answer, success or not, says
 * `noindex` and sends no referrer.
 */
async function preview(
  exchange: Exchange,
  spend: () => Promise<void>,
): Promise<Response> {
  const { request, env } = exchange;
  try {
    // Every attempt counts: a token's guesses spend the budget.
    await spend();
    const token = new URL(request.url).searchParams.get("token") ?? "";
    const id = await previewedId(env, token.slice(0, 200));
    reviewQuery(request);
    const repository = reviewRepository(env);
    const record = await openReview(kvOf(env), id);
    return jsonResponse(
      200,
      await wholeReview(repository, record),
      PREVIEW_HEADERS,
    );
  } catch (error) {
    const answer = toHttpError(error);
    if (answer.status === 500) throw error;
    throw new HttpError(answer.status, answer.body, {
      detail: answer.message,
      headers: { ...answer.headers, ...PREVIEW_HEADERS },
      code: answer.code,
    });
  }
}

/**
 * Each page through the page rules of `/api/save`: the sanitised bytes, or
 * a 422 listing the problems of every page refused.
 */
async function checkedPages(
  body: ReviewBody,
  rules: PageRuleOptions,
): Promise<CheckedPage[]> {
  const { pageRules, PageRuleError } = await loadPageRules();
  const pages: CheckedPage[] = [];
  const refused: ReviewPageProblems[] = [];
  for (const { path, content, version } of body.pages) {
    try {
      const page = new TextEncoder().encode(
        pageRules(content, undefined, rules),
      );
      if (page.byteLength > CONTENT_MAX) {
        throw tooLarge(
          `${path} written as ${page.byteLength} bytes, over ${CONTENT_MAX}`,
        );
      }
      pages.push({ path, page, version });
    } catch (error) {
      if (!(error instanceof PageRuleError)) throw error;
      refused.push(refusedPage(path, error));
    }
  }
  if (refused.length > 0) {
    throw new ReviewError(
      "invalid_content",
      `${refused.length} pages break the page rules`,
      { pages: refused },
    );
  }
  return pages;
}

/** The review's message, one clean line; by default it names its pages. */
function messageOf(body: ReviewBody): string {
  const [first] = body.pages;
  const more = body.pages.length - 1;
  return cleanCommitMessage(
    body.message,
    `Review of ${first?.path ?? "pages"}${more > 0 ? ` and ${more} more` : ""}`,
  );
}
