/**
 * `runSchedule` as the package exports it: the review modules (the merge,
 * the repository, the page rules) load with its first call, not when a
 * host's entry starts.
 *
 * @module
 */

import type { Env } from "../http/env.ts";
import type { ScheduleOptions, ScheduleRun } from "./schedule.ts";

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
  const { runSchedule: run } = await import("./schedule.ts");
  return await run(env, options);
}
