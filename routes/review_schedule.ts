/**
 * `/api/reviews/schedule` (beyond the reference): a publisher sets when a
 * review is published, `{ id, at }` (ISO 8601 with its offset, at most 366
 * days ahead; a time past is due at once), or cancels it (`at: null`). The
 * schedules run through `runSchedule(env)` (`editor serve` runs it itself;
 * Deno Deploy with `Deno.cron`; other hosts from their scheduler). A rate
 * budget of its own.
 *
 * @module
 */

import type { Handler } from "../lib/http/env.ts";
import { now } from "../lib/http/env.ts";
import { badRequest } from "../lib/http/http_error.ts";
import { jsonResponse } from "../lib/http/json_response.ts";
import {
  bodyIdleMs,
  checkDeclaredSize,
  receiveBody,
} from "../lib/http/read_body.ts";
import { reviewScheduleRequest } from "../lib/http/review_request.ts";
import { admit } from "../lib/access/admission.ts";
import { requirePublisher } from "../lib/access/editors.ts";
import { dispatch, handler } from "../lib/http/route.ts";
import { scheduleReview, scheduleTime } from "../lib/review/schedule.ts";
import { ROUTES } from "../lib/wire/names.ts";
import { REVIEW_BODY_MAX } from "../lib/limits.ts";

/** The handlers of `/api/reviews/schedule`. */
export interface ReviewScheduleRoute {
  /** Dispatches on the method; 405 for anything but POST. */
  onRequest: Handler;
  /** Schedules a review or cancels its schedule: `{ id, scheduled }`. */
  onRequestPost: Handler;
}

/**
 * Creates the `/api/reviews/schedule` handlers.
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
  const onRequestPost = handler(ROUTES.reviewSchedule, async (exchange) => {
    const { request, env, client } = exchange;
    const admission = await admit(env, ROUTES.reviewSchedule, client, request);
    checkDeclaredSize(request, REVIEW_BODY_MAX);
    const { editor } = admission.requireSession();
    exchange.editor = editor.id;
    await admission.spend();
    requirePublisher(editor);
    const bytes = await receiveBody(request, REVIEW_BODY_MAX, bodyIdleMs(env));
    const { id, at } = await reviewScheduleRequest(request, bytes);
    const time = at === null ? null : scheduleTime(at, now(env));
    if (time === undefined) {
      throw badRequest(
        "at is not an ISO 8601 time with its offset, within 366 days",
      );
    }
    return jsonResponse(200, await scheduleReview(env, id, time, editor));
  });
  return {
    onRequest: dispatch(ROUTES.reviewSchedule, { POST: onRequestPost }),
    onRequestPost,
  };
}
