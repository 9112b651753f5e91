/**
 * `/api/reviews/link` (beyond the reference): an editor makes a preview
 * link of an open review, `{ id, hours }` (1 to 168; `page`, the site path
 * it opens, optional): `{ url, expires }`, the URL carrying
 * `?inpage-preview=TOKEN`, signed with `EDITOR_PREVIEW_SECRET` (503
 * `unavailable` without it). Whoever has the link sees the review,
 * read-only, without a session, until it expires or the review closes. A
 * rate budget of its own.
 *
 * @module
 */

import type { Handler } from "../lib/http/env.ts";
import { jsonResponse } from "../lib/http/json_response.ts";
import {
  bodyIdleMs,
  checkDeclaredSize,
  receiveBody,
} from "../lib/http/read_body.ts";
import { reviewLinkRequest } from "../lib/http/review_request.ts";
import { admit } from "../lib/access/admission.ts";
import { dispatch, handler } from "../lib/http/route.ts";
import { makeLink } from "../lib/review/link.ts";
import { ROUTES } from "../lib/wire/names.ts";
import { REVIEW_BODY_MAX } from "../lib/limits.ts";

/** The handlers of `/api/reviews/link`. */
export interface ReviewLinkRoute {
  /** Dispatches on the method; 405 for anything but POST. */
  onRequest: Handler;
  /** Makes a preview link: `{ url, expires }`. */
  onRequestPost: Handler;
}

/**
 * Creates the `/api/reviews/link` handlers.
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
  const onRequestPost = handler(ROUTES.reviewLink, async (exchange) => {
    const { request, env, client } = exchange;
    const admission = await admit(env, ROUTES.reviewLink, client, request);
    checkDeclaredSize(request, REVIEW_BODY_MAX);
    exchange.editor = admission.requireSession().editor.id;
    await admission.spend();
    const bytes = await receiveBody(request, REVIEW_BODY_MAX, bodyIdleMs(env));
    const { id, hours, page } = await reviewLinkRequest(request, bytes);
    return jsonResponse(200, await makeLink(env, id, hours, page));
  });
  return {
    onRequest: dispatch(ROUTES.reviewLink, { POST: onRequestPost }),
    onRequestPost,
  };
}
