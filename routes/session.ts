/**
 * `/api/session` (beyond the reference): who is logged in, so the overlay
 * can show it. A session is required (401 without); a budget of its own
 * (120 per 5 minutes, `BUDGETS.session`), checked in the same order as the
 * content route.
 *
 * @module
 */

import type { Handler } from "../lib/http/env.ts";
import { jsonResponse } from "../lib/http/json_response.ts";
import { admit } from "../lib/access/admission.ts";
import { dispatch, handler } from "../lib/http/route.ts";
import { ROUTES } from "../lib/wire/names.ts";

/** The handlers of `/api/session`. */
export interface SessionRoute {
  /** Dispatches on the method; 405 for anything but GET. */
  onRequest: Handler;
  /** The session's editor: `{ editor: { id, name, role } }`. */
  onRequestGet: Handler;
}

/**
 * Creates the `/api/session` handlers.
 *
 * @returns `onRequest` and `onRequestGet`
 * @example
 * ```ts
 * import { createSessionRoute } from "@inpage/editor";
 * import assert from "node:assert/strict";
 *
 * const session = createSessionRoute();
 * const response = await session.onRequest({
 *   request: new Request("https://site.example/api/session", { method: "POST" }),
 *   env: {},
 * });
 * assert.equal(response.status, 405);
 * assert.equal(response.headers.get("allow"), "GET");
 * ```
 */
export function createSessionRoute(): SessionRoute {
  const onRequestGet = handler(ROUTES.session, async (exchange) => {
    const { request, env, client } = exchange;
    const admission = await admit(env, ROUTES.session, client, request);
    const { editor } = admission.requireSession();
    exchange.editor = editor.id;
    await admission.spend();
    return jsonResponse(200, {
      editor: { id: editor.id, name: editor.name, role: editor.role },
    });
  });
  return {
    onRequest: dispatch(ROUTES.session, { GET: onRequestGet }),
    onRequestGet,
  };
}
