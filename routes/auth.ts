/**
 * `/api/auth`: POST opens a session from the site key, DELETE ends it.
 *
 * @module
 */

import type { Handler } from "../lib/http/env.ts";
import { HttpError } from "../lib/http/http_error.ts";
import { jsonResponse } from "../lib/http/json_response.ts";
import { kvOf } from "../lib/access/kv_binding.ts";
import { admit } from "../lib/access/admission.ts";
import { BodyIdleError, readCapped } from "../lib/http/read_capped.ts";
import { bodyIdleMs, checkDeclaredSize } from "../lib/http/read_body.ts";
import { dispatch, type Exchange, handler } from "../lib/http/route.ts";
import {
  clearedCookies,
  closeSession,
  openSession,
} from "../lib/access/session.ts";
import { isCrossSite } from "../lib/access/cross_site.ts";
import { verifyKey } from "../lib/access/site_key.ts";
import { keyTarget } from "../lib/access/editors.ts";
import { isJsonRequest, parseJsonBytes } from "../lib/http/json_body.ts";
import { logNotice } from "../lib/http/log.ts";
import { AUTH_BODY_MAX } from "../lib/limits.ts";
import { loadWire } from "../lib/wire/load.ts";
import { ROUTES } from "../lib/wire/names.ts";

/** The handlers of `/api/auth`. */
export interface AuthRoute {
  /** Dispatches on the method; 405 for anything but POST and DELETE. */
  onRequest: Handler;
  /** Opens a session from the site key. */
  onRequestPost: Handler;
  /** Ends the session and clears both cookies. */
  onRequestDelete: Handler;
}

const WRONG_KEY = "clé incorrecte";

function wrongKey(detail: string): HttpError {
  return new HttpError(401, { error: WRONG_KEY }, {
    detail,
    code: "wrong_key",
  });
}

async function login(exchange: Exchange): Promise<Response> {
  const { request, env } = exchange;
  const admission = await admit(env, ROUTES.auth, exchange.client);
  checkDeclaredSize(request, AUTH_BODY_MAX, wrongKey);
  if (isCrossSite(request)) throw wrongKey("cross-site login refused");
  await admission.spend();
  let bytes: Uint8Array;
  try {
    bytes = await readCapped(request.body, AUTH_BODY_MAX, {
      idleMs: bodyIdleMs(env),
    });
  } catch (error) {
    if (error instanceof BodyIdleError) throw error; // 408, like every route
    throw wrongKey(`body refused: ${(error as Error).name}`);
  }
  const key = await keyOf(request, bytes);
  if (key === undefined) throw wrongKey("no readable key in the body");
  // One verification: the hash the key's prefix names, else the site key's.
  const target = keyTarget(key, env);
  const matches = await verifyKey(key, target.hash, {
    run: env.EDITOR_ARGON2,
    wasm: env.EDITOR_ARGON2_WASM && env.EDITOR_BLAKE2B_WASM
      ? { argon2: env.EDITOR_ARGON2_WASM, blake2b: env.EDITOR_BLAKE2B_WASM }
      : undefined,
    warn: (message) => logNotice(env, message),
    decoy: target.decoy,
    also: target.also,
  });
  if (!matches) throw wrongKey(target.refused ?? "key does not match");
  exchange.editor = target.editor.id;
  const cookies = await openSession(kvOf(env), env, target.editor);
  return jsonResponse(200, { ok: true }, { "set-cookie": cookies });
}

async function keyOf(
  request: Request,
  bytes: Uint8Array,
): Promise<string | undefined> {
  if (!isJsonRequest(request)) return undefined;
  const body = parseJsonBytes(bytes);
  if (typeof body !== "object" || body === null || Array.isArray(body)) {
    return undefined;
  }
  // The wire shape: a key of 1 to 256 characters (code points).
  const { loginBody } = await loadWire();
  const shape = loginBody.safeParse(body);
  return shape.success ? shape.data.key : undefined;
}

async function logout(exchange: Exchange): Promise<Response> {
  const { request, env } = exchange;
  const kv = env.RATE_LIMIT;
  if (kv) {
    try {
      await closeSession(kv, request);
    } catch (error) {
      logNotice(env, `session could not be deleted: ${(error as Error).name}`);
    }
  }
  return jsonResponse(200, { ok: true }, { "set-cookie": clearedCookies() });
}

/**
 * Creates the `/api/auth` handlers.
 *
 * @returns `onRequest`, `onRequestPost` and `onRequestDelete`
 * @example
 * ```ts
 * import { createAuthRoute } from "@inpage/editor";
 * import assert from "node:assert/strict";
 *
 * const auth = createAuthRoute();
 * const response = await auth.onRequest({
 *   request: new Request("https://site.example/api/auth", { method: "GET" }),
 *   env: {},
 * });
 * assert.equal(response.status, 405);
 * assert.equal(response.headers.get("allow"), "POST, DELETE");
 * ```
 */
export function createAuthRoute(): AuthRoute {
  const onRequestPost = handler(ROUTES.auth, login);
  const onRequestDelete = handler(ROUTES.auth, logout);
  return {
    onRequest: dispatch(ROUTES.auth, {
      POST: onRequestPost,
      DELETE: onRequestDelete,
    }),
    onRequestPost,
    onRequestDelete,
  };
}
