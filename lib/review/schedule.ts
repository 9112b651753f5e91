/**
 * Scheduled publishing: a publisher sets the time a review is published
 * at (or cancels it), and {@linkcode runSchedule} publishes every review
 * whose time has come, through the same merge as a publish by hand. It
 * is run by `editor serve` itself, by `Deno.cron` on Deno Deploy, and by
 * a host's own scheduler elsewhere (Cloudflare cron triggers, Netlify
 * scheduled functions, Vercel cron jobs).
 *
 * A schedule that cannot publish leaves the review open, marked as not
 * published with the reason (`failed`): a conflict (with its fields), pages
 * the merge made invalid, a publisher no longer configured, or a
 * repository that did not answer. Only that last one (`unavailable`) is
 * tried again at the next run; the others wait until the review is
 * scheduled again (which clears the mark) or published by hand.
 *
 * @module
 */

import { type Env, now } from "../http/env.ts";
import { kvOf } from "../access/kv_binding.ts";
import { configuredEditor } from "../access/editors.ts";
import { RepositoryError } from "../repository/repository.ts";
import type { ReviewField, ReviewScheduled } from "../wire/review.ts";
import { SCHEDULE_AHEAD_MAX_MS } from "../limits.ts";
import type { TemplateSyntax } from "../pages/template_rule.ts";
import { publishReview } from "./publish.ts";
import { ReviewError } from "./review_error.ts";
import {
  changeReview,
  openReviews,
  type ReviewPerson,
  type ReviewRecord,
} from "./store.ts";

/** A time as `/api/reviews/schedule` takes it: ISO 8601 with an offset. */
const ISO_TIME =
  /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(?::\d{2}(?:\.\d{1,3})?)?(?:Z|[+-]\d{2}:\d{2})$/;

/**
 * Reads a schedule's time: ISO 8601 with its offset (`Z` or `±hh:mm`), not
 * more than 366 days ahead. A time already past is due at once.
 *
 * @example
 * ```ts
 * import { scheduleTime } from "./schedule.ts";
 * import assert from "node:assert/strict";
 *
 * assert.equal(scheduleTime("2026-11-25T18:00:00+01:00", 0), undefined);
 * const now = Date.UTC(2026, 10, 25);
 * assert.equal(scheduleTime("2026-11-25T18:00:00+01:00", now), Date.UTC(2026, 10, 25, 17));
 * assert.equal(scheduleTime("2026-11-25 18:00", now), undefined);
 * ```
 *
 * @param text the time as sent
 * @param time the time now, in milliseconds
 * @returns the time in milliseconds, or `undefined` when refused
 */
export function scheduleTime(text: string, time: number): number | undefined {
  if (!ISO_TIME.test(text)) return undefined;
  const at = Date.parse(text);
  if (!Number.isFinite(at) || at > time + SCHEDULE_AHEAD_MAX_MS) {
    return undefined;
  }
  // Date.parse rolls over (Feb 30 is Mar 2): the fields must survive.
  const date = text.slice(0, 10);
  const offset = text.match(/(Z|[+-]\d{2}:\d{2})$/)?.[1] ?? "Z";
  const minutes = offset === "Z" ? 0 : (offset.startsWith("-") ? -1 : 1) *
    (Number(offset.slice(1, 3)) * 60 + Number(offset.slice(4, 6)));
  const local = new Date(at + minutes * 60_000).toISOString().slice(0, 10);
  return local === date ? at : undefined;
}

/**
 * Schedules a review's publish, or cancels it (`at: null`); a new time
 * clears the mark of a schedule that did not publish.
 *
 * @param env the host's bindings
 * @param id the review's id
 * @param at when, in milliseconds, or `null`
 * @param by who schedules it (a publisher)
 * @returns the review's schedule as the route answers it
 * @throws {ReviewError} `not_found` when it is closed or unknown
 */
export async function scheduleReview(
  env: Env,
  id: string,
  at: number | null,
  by: ReviewPerson,
): Promise<ReviewScheduled> {
  const record = await changeReview(kvOf(env), id, (held) => ({
    ...held,
    scheduled: at === null ? null : { at, by },
    failed: null,
  }));
  return {
    id,
    scheduled: record.scheduled === null
      ? null
      : new Date(record.scheduled.at).toISOString(),
  };
}

/** The site's page rules, for the publishes of {@linkcode runSchedule}. */
export interface ScheduleOptions {
  /**
   * `"refuse"` for a site whose templates render page strings, as given to
   * `createRouter`: template syntax in a review's pages leaves it open,
   * marked `invalid_content`.
   */
  readonly templateSyntax?: TemplateSyntax | undefined;
}

/** What one run of the schedules did. */
export interface ScheduleRun {
  /** The reviews published, with their commits. */
  published: { id: string; commit: string }[];
  /** The reviews due and not published, with the reason kept on them. */
  failed: { id: string; reason: string }[];
}

/** Whether a review is due now: its time has come and no lasting failure holds it. */
function due(record: ReviewRecord, time: number): boolean {
  return record.scheduled !== null && record.scheduled.at <= time &&
    (record.failed === null || record.failed.reason === "unavailable");
}

/**
 * Publishes every open review whose scheduled time has come, one after the
 * other, each through the same merge as a publish by hand. Call it from a
 * host's scheduler, every minute or so; runs that overlap are safe (a
 * review being published is held by one run).
 *
 * @example
 * ```ts
 * import { runSchedule } from "@inpage/editor";
 * import assert from "node:assert/strict";
 *
 * const kv = await Deno.openKv(":memory:");
 * const run = await runSchedule({ RATE_LIMIT: kv });
 * assert.deepEqual(run, { published: [], failed: [] });
 * kv.close();
 * ```
 *
 * @param env the host's variables and bindings, as passed to the routes
 * @param options the site's page rules, as given to `createRouter`:
 *   `templateSyntax: "refuse"` for a site whose templates render page
 *   strings
 * @returns the reviews published and those that failed
 */
export async function runSchedule(
  env: Env,
  options: ScheduleOptions = {},
): Promise<ScheduleRun> {
  const time = now(env);
  const run: ScheduleRun = { published: [], failed: [] };
  for (const record of await openReviews(kvOf(env))) {
    if (!due(record, time)) continue;
    const outcome = await publishDue(env, record, options);
    if ("commit" in outcome) run.published.push(outcome);
    else run.failed.push(outcome);
  }
  return run;
}

async function publishDue(
  env: Env,
  record: ReviewRecord,
  options: ScheduleOptions,
): Promise<{ id: string; commit: string } | { id: string; reason: string }> {
  const id = record.id;
  const by = record.scheduled!.by;
  const publisher = configuredEditor(by.id, env);
  let failure: { reason: string; fields?: ReviewField[] };
  if (publisher?.role !== "publisher") {
    failure = { reason: "forbidden" };
  } else {
    try {
      const { commit } = await publishReview(env, id, publisher, {
        scheduled: true,
        templateSyntax: options.templateSyntax,
      });
      return { id, commit };
    } catch (error) {
      if (error instanceof ReviewError) {
        // Closed meanwhile, or another run publishes it now.
        if (error.code === "not_found" || error.code === "busy") {
          return { id, reason: error.code };
        }
        failure = error.fields === undefined
          ? { reason: error.code }
          : { reason: error.code, fields: [...error.fields] };
      } else if (error instanceof RepositoryError) {
        failure = { reason: error.code };
      } else {
        failure = { reason: "unavailable" };
      }
    }
  }
  await changeReview(kvOf(env), id, (held) => ({
    ...held,
    failed: { at: now(env), ...failure },
  })).catch(() => {}); // closed meanwhile: nothing to mark
  return { id, reason: failure.reason };
}
