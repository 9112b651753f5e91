/**
 * The admission step, first of every route: one call reads the client's
 * rate window for the route and, on the routes that require one, the
 * sessions the request names, in one KV round trip. It refuses a client
 * already over budget at once; otherwise it gives the session it found and
 * the step that spends one slot of the budget, which the route calls once
 * the request has passed its other checks, so that requests a cross-site
 * page makes from an editor's browser never spend the editor's budget.
 *
 * Refusals are {@linkcode AccessError}s; the HTTP answers are written by the
 * error mapping (`lib/http/error_response.ts`).
 *
 * @module
 */

import type { Env } from "../http/env.ts";
import { now } from "../http/env.ts";
import { AccessError } from "./access_error.ts";
import { kvOf } from "./kv_binding.ts";
import { peekSlot } from "./rate_window.ts";
import {
  endedSessions,
  endSessions,
  type Session,
  sessionIn,
  sessionKeys,
} from "./session.ts";
import {
  BUDGETS,
  REFUSED_AGAIN_DELAY_MS,
  REFUSED_AGAIN_HELD_MAX,
} from "../limits.ts";
import type { BudgetName, RouteEntry } from "../wire/names.ts";

/** What a request admitted by {@linkcode admit} carries on with. */
export interface Admission {
  /**
   * The open session the request carries, read with the rate window;
   * `undefined` when none is open or the route asked for none.
   */
  readonly session: Session | undefined;
  /**
   * The session, for the routes that require one.
   *
   * @returns the open session
   * @throws {AccessError} `no_session` when the request carries none
   */
  requireSession(): Session;
  /**
   * Spends one slot of the route's budget.
   *
   * @throws {AccessError} `rate_limited` when the slot was lost meanwhile,
   *   `no_session` when the session ended meanwhile
   */
  spend(): Promise<void>;
}

/**
 * Admits a request to a route: refuses a client already over the route's
 * budget, else reads the session (when `request` is given) and returns the
 * step that spends the budget.
 *
 * For an editor this process has served before, the window and the session
 * are taken from what it saw last instead of read, and the spend commits
 * against them: if either changed meanwhile, both are read again and
 * checked before the slot is taken (one round trip in all when nothing
 * changed).
 *
 * @example
 * ```ts
 * import { admit } from "./admission.ts";
 * import { ROUTES } from "../wire/names.ts";
 * import assert from "node:assert/strict";
 *
 * const kv = await Deno.openKv(":memory:");
 * const admission = await admit({ RATE_LIMIT: kv }, ROUTES.auth, "client");
 * assert.equal(admission.session, undefined);
 * await admission.spend();
 * kv.close();
 * ```
 *
 * @param env the host's bindings (`RATE_LIMIT`, `EDITOR_KEY_HASH`, the clock)
 * @param route the route, whose budget is spent
 * @param client the client's tag
 * @param request the request, on the routes that require a session
 * @returns the session and the spending step
 * @throws {AccessError} `rate_limited` when the budget is spent,
 *   `kv_unavailable` when `RATE_LIMIT` is missing or failing
 */
export async function admit(
  env: Env,
  route: RouteEntry,
  client: string,
  request?: Request,
): Promise<Admission> {
  const budget = route.budget;
  const sessions = request ? sessionKeys(request, env) : [];
  const peek = await peekSlot(
    kvOf(env),
    ["editor", "rate", budget, client],
    BUDGETS[budget],
    () => now(env),
    sessions,
    request !== undefined,
  );
  if (!peek.ok) {
    if (peek.remembered) await holdRefusal();
    throw rateLimited(budget, peek.retryAfterSeconds);
  }
  // A session refused because its editor is gone stays refused.
  const ended = endedSessions(sessions, peek.also, env);
  if (ended.length > 0) await endSessions(kvOf(env), ended);
  const session = sessionIn(peek.also, env);
  return {
    session,
    requireSession: () => session ?? noSession(),
    spend: async () => {
      let taken = await peek.take();
      if (taken.ok === "stale") {
        if (sessionIn(taken.also, env) === undefined) noSession();
        taken = await taken.retake();
      }
      if (!taken.ok) throw rateLimited(budget, taken.retryAfterSeconds);
    },
  };
}

function noSession(): never {
  throw new AccessError("no_session", "no valid session");
}

function rateLimited(budget: BudgetName, seconds: number): AccessError {
  return new AccessError(
    "rate_limited",
    `${budget} budget spent, retry after ${seconds} s`,
    { retryAfterSeconds: seconds, budget },
  );
}

let held = 0;

/**
 * The 429s waiting now before they are sent (see `REFUSED_AGAIN_DELAY_MS`).
 *
 * @example
 * ```ts
 * import { refusalsHeld } from "./admission.ts";
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
