/**
 * `/api/history` (beyond the reference): the commits that changed a page,
 * newest first, at most 30 per answer; `before` pages back. The same
 * session and path rules as `/api/content`, a budget of its own (30 per 5
 * minutes, `BUDGETS.history`).
 *
 * @module
 */

import type { Env, Handler } from "../lib/http/env.ts";
import { notFound } from "../lib/http/http_error.ts";
import { commitParameter } from "../lib/http/history_request.ts";
import { jsonResponse } from "../lib/http/json_response.ts";
import { pathParameter } from "../lib/http/page_request.ts";
import { admit } from "../lib/access/admission.ts";
import { requireRepository } from "../lib/repository/from_env.ts";
import {
  type HistoryEntry,
  RepositoryError,
} from "../lib/repository/repository.ts";
import { dispatch, handler } from "../lib/http/route.ts";
import { ROUTES } from "../lib/wire/names.ts";
import { checkLocales, type RouterOptions } from "../lib/pages/locales.ts";
import { HISTORY_PAGE_MAX } from "../lib/limits.ts";
export { HISTORY_PAGE_MAX };

/** The handlers of `/api/history`. */
export interface HistoryRoute {
  /** Dispatches on the method; 405 for anything but GET. */
  onRequest: Handler;
  /** Lists a page's commits: `{ entries }`. */
  onRequestGet: Handler;
}

/**
 * Creates the `/api/history` handlers for a site's locales.
 *
 * @param options `{ locales }`
 * @returns `onRequest` and `onRequestGet`
 * @throws {TypeError} on an empty or malformed locales list
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
 * assert.equal(response.headers.get("allow"), "GET");
 * ```
 */
export function createHistoryRoute(options: RouterOptions): HistoryRoute {
  const locales = checkLocales(options);
  const onRequestGet = handler(ROUTES.history, async (exchange) => {
    const { request, env, client } = exchange;
    // Its own budget (ROUTES): the content route's reads stay for pages.
    const admission = await admit(env, ROUTES.history, client, request);
    exchange.editor = admission.requireSession().editor.id;
    const listing = listHistory(env, request, locales);
    await Promise.all([admission.spend(), listing.catch(() => {})]);
    return jsonResponse(200, { entries: await listing });
  });
  return {
    onRequest: dispatch(ROUTES.history, { GET: onRequestGet }),
    onRequestGet,
  };
}

async function listHistory(
  env: Env,
  request: Request,
  locales: readonly string[],
): Promise<HistoryEntry[]> {
  const path = pathParameter(request, locales);
  const before = commitParameter(request, "before");
  const repository = requireRepository(env);
  if (typeof repository.history !== "function") {
    throw new RepositoryError(
      "unavailable",
      "this repository has no history (no history method)",
    );
  }
  const entries = await repository.history(path, {
    before,
    limit: HISTORY_PAGE_MAX,
  });
  if (entries === null) throw notFound(`no commit ${before}`);
  return checkedEntries(entries);
}

const ENTRY_FIELDS = [
  "commit",
  "version",
  "date",
  "author",
  "message",
] as const;

/** The entries as the wire has them; a repository's malformed answer is 502. */
function checkedEntries(entries: unknown): HistoryEntry[] {
  if (!Array.isArray(entries)) {
    throw new RepositoryError("unavailable", "history is not a list");
  }
  return entries.slice(0, HISTORY_PAGE_MAX).map((entry: unknown) => {
    const fields = entry as Record<string, unknown> | null;
    if (
      typeof fields !== "object" || fields === null ||
      ENTRY_FIELDS.some((name) => typeof fields[name] !== "string")
    ) {
      throw new RepositoryError("unavailable", "history entry is malformed");
    }
    return {
      commit: fields.commit as string,
      version: fields.version as string,
      date: fields.date as string,
      author: fields.author as string,
      message: fields.message as string,
    };
  });
}
