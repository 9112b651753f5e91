/**
 * The first check of every route: the rate budget of the route for the
 * client, with the documented 429 answers.
 *
 * @module
 */

import type { Env } from "../http/env.ts";
import { now } from "../http/env.ts";
import { HttpError } from "../http/http_error.ts";
import { kvOf } from "./kv_binding.ts";
import { peekSlot } from "./rate_window.ts";
import { checkSessionAgain, rememberSession, sessionKeys } from "./session.ts";
import {
  BUDGETS,
  REFUSED_AGAIN_DELAY_MS,
  REFUSED_AGAIN_HELD_MAX,
} from "../limits.ts";

/** The routes that have a budget. */
export type RateRoute = "auth" | "content" | "save" | "upload";

/**
 * The rate check, first of every route: refuses a client already over the
 * route's budget. The slot itself is taken by calling the returned function
 * once the request has passed its identity check, so that requests a
 * cross-site page makes from an editor's browser never spend the editor's
 * budget.
 *
 * @param env the host's bindings (`RATE_LIMIT`, the clock)
 * @param route which budget
 * @param client the client's tag
 * @param request the request, on the routes that require a session: the
 *   sessions it names are read in the same KV round trip as the window, for
 *   `requireSession`; for an editor this process has served before, they
 *   are taken from what it saw and checked by the slot's commit instead
 *   (one round trip in all)
 * @returns a function that takes the slot (429 if it was lost meanwhile)
 * @throws {HttpError} 429 with `retry-after` when the budget is spent, 503
 *   when `RATE_LIMIT` is missing
 */
export async function limitRate(
  env: Env,
  route: RateRoute,
  client: string,
  request?: Request,
): Promise<() => Promise<void>> {
  const sessions = request ? sessionKeys(request, env) : [];
  const peek = await peekSlot(
    kvOf(env),
    ["editor", "rate", route, client],
    BUDGETS[route],
    () => now(env),
    sessions,
    request ? (also) => checkSessionAgain(also, env) : undefined,
  );
  if (!peek.ok) {
    if (peek.remembered) await holdRefusal();
    throw tooMany(route, peek.retryAfterSeconds);
  }
  if (request) rememberSession(request, env, peek.also);
  return async () => {
    const taken = await peek.take();
    if (!taken.ok) throw tooMany(route, taken.retryAfterSeconds);
  };
}

let held = 0;

/**
 * The 429s waiting now before they are sent (see `REFUSED_AGAIN_DELAY_MS`).
 *
 * @example
 * ```ts
 * import { refusalsHeld } from "./rate_limit.ts";
 * import assert from "node:assert/strict";
 *
 * assert.equal(refusalsHeld(), 0);
 * ```
 *
 * @returns how many
 */
export function refusalsHeld(): number {
  return held;
}

/** Waits before a repeated 429, unless too many already wait. */
async function holdRefusal(): Promise<void> {
  if (held >= REFUSED_AGAIN_HELD_MAX) return;
  held++;
  try {
    // Between half and one and a half times the delay: clients refused
    // together are not woken together.
    const wait = REFUSED_AGAIN_DELAY_MS * (0.5 + Math.random());
    await new Promise((resolve) => setTimeout(resolve, wait));
  } finally {
    held--;
  }
}

function tooMany(route: RateRoute, seconds: number): HttpError {
  const minutes = Math.max(1, Math.ceil(seconds / 60));
  const lead = route === "auth" ? "Trop de tentatives" : "Trop de requêtes";
  return new HttpError(
    429,
    { error: `${lead}. Réessayez dans ${minutes} min.` },
    {
      detail: `${route} budget spent, retry after ${seconds} s`,
      headers: { "retry-after": String(seconds) },
      code: "rate_limited",
    },
  );
}
