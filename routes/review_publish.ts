/**
 * `/api/reviews/publish` (beyond the reference): a publisher publishes a
 * review, `{ id }`: its field changes applied to the site branch's pages
 * as they are now, through the per-field merge, in one commit with its
 * images; a field changed on both sides is 409 `{ error: "conflict",
 * fields: [{ path, pointer }] }` and publishes nothing; the same body with
 * `settle` (each page's version the person chose against, and a side for
 * each clashing field) publishes it with those choices. The review is then
 * closed (its branch deleted; on GitHub its pull request closed with a
 * comment naming the commit). A rate budget of its own.
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
import { reviewPublishRequest } from "../lib/http/review_request.ts";
import { admit } from "../lib/access/admission.ts";
import { requirePublisher } from "../lib/access/editors.ts";
import { dispatch, handler } from "../lib/http/route.ts";
import { publishReview } from "../lib/review/publish.ts";
import { ROUTES } from "../lib/wire/names.ts";
import type { RouterOptions } from "../lib/pages/locales.ts";
import { REVIEW_BODY_MAX } from "../lib/limits.ts";

/** The handlers of `/api/reviews/publish`. */
export interface ReviewPublishRoute {
  /** Dispatches on the method; 405 for anything but POST. */
  onRequest: Handler;
  /** Publishes a review: `{ commit, versions }`. */
  onRequestPost: Handler;
}

/**
 * Creates the `/api/reviews/publish` handlers.
 *
 * @param options `templateSyntax: "refuse"` for a site whose templates
 *   render page strings: the pages published are checked as `/api/save`
 *   checks them, a 422 per page
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
 * assert.equal(response.headers.get("allow"), "POST");
 * ```
 */
export function createReviewPublishRoute(
  options: Pick<RouterOptions, "templateSyntax"> = {},
): ReviewPublishRoute {
  const rules = { templateSyntax: options.templateSyntax };
  const onRequestPost = handler(ROUTES.reviewPublish, async (exchange) => {
    const { request, env, client } = exchange;
    const admission = await admit(env, ROUTES.reviewPublish, client, request);
    checkDeclaredSize(request, REVIEW_BODY_MAX);
    const { editor } = admission.requireSession();
    exchange.editor = editor.id;
    await admission.spend();
    requirePublisher(editor);
    const bytes = await receiveBody(request, REVIEW_BODY_MAX, bodyIdleMs(env));
    const { id, settle } = await reviewPublishRequest(request, bytes);
    return jsonResponse(
      200,
      await publishReview(env, id, editor, { ...rules, settle }),
    );
  });
  return {
    onRequest: dispatch(ROUTES.reviewPublish, { POST: onRequestPost }),
    onRequestPost,
  };
}
