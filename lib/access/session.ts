/**
 * `lib/access/`, the access concern: who may edit and how often (the site
 * key, sessions, the cross-site guard, rate windows). This file holds
 * editing sessions in KV: a 256-bit token in the `editor_session` cookie,
 * only its SHA-256 stored, with an expiry checked on read and a fingerprint
 * of the key hash so that rotating `EDITOR_KEY_HASH` ends every session.
 *
 * @module
 */

import { sha256Hex } from "../digest.ts";
import type { Env, KvKey, KvStore } from "../http/env.ts";
import { now } from "../http/env.ts";
import { isCrossSite } from "./cross_site.ts";
import { kvOf, retryBusy } from "./kv_binding.ts";
import { randomToken } from "./random_token.ts";
import { unauthorized } from "../http/http_error.ts";
import { SESSION_SECONDS } from "../limits.ts";
export { SESSION_SECONDS };

/** The HttpOnly cookie that carries the session token. */
export const SESSION_COOKIE = "editor_session";

/** The script-readable cookie that tells the page an edit session is open. */
export const EDIT_COOKIE = "editor_edit";

const TOKEN = /^[A-Za-z0-9_-]{43}$/;
const ATTRIBUTES = "Secure; SameSite=Strict; Path=/";

interface StoredSession {
  expiresAt: number;
  key: string;
}

/**
 * Opens a session: stores the token's hash and returns the two cookies.
 *
 * @param kv the store
 * @param env the host's variables (`EDITOR_KEY_HASH`, the clock)
 * @returns the `set-cookie` values
 */
export async function openSession(kv: KvStore, env: Env): Promise<string[]> {
  const token = randomToken(32);
  const value: StoredSession = {
    expiresAt: now(env) + SESSION_SECONDS * 1000,
    key: keyFingerprint(env.EDITOR_KEY_HASH),
  };
  const key = sessionKey(token);
  await retryBusy(() =>
    kv.set(key, value, { expireIn: SESSION_SECONDS * 1000 })
  );
  return [
    `${SESSION_COOKIE}=${token}; ${ATTRIBUTES}; Max-Age=${SESSION_SECONDS}; HttpOnly`,
    `${EDIT_COOKIE}=1; ${ATTRIBUTES}; Max-Age=${SESSION_SECONDS}`,
  ];
}

/**
 * Whether the request carries a valid session: same site, a well-formed
 * token, found, not expired, and opened under the current key hash.
 *
 * @param kv the store
 * @param request the incoming request
 * @param env the host's variables
 * @returns true when the session is valid
 */
export async function hasSession(
  kv: KvStore,
  request: Request,
  env: Env,
): Promise<boolean> {
  if (isCrossSite(request) || !env.EDITOR_KEY_HASH) return false;
  const fingerprint = keyFingerprint(env.EDITOR_KEY_HASH);
  for (const token of sessionTokens(request)) {
    const key = sessionKey(token);
    const stored = (await retryBusy(() => kv.get<StoredSession>(key))).value;
    if (
      stored && typeof stored.expiresAt === "number" &&
      stored.expiresAt > now(env) && stored.key === fingerprint
    ) {
      return true;
    }
  }
  return false;
}

/**
 * Ends the sessions a same-site request names (every well-formed
 * `editor_session` it carries, so a cookie planted beside the real one cannot
 * keep it alive).
 *
 * @param kv the store
 * @param request the incoming request
 */
export async function closeSession(
  kv: KvStore,
  request: Request,
): Promise<void> {
  // A cross-site request never carries the Strict cookie of a real session:
  // nothing to end, and no KV operation spent on it.
  if (isCrossSite(request)) return;
  for (const token of sessionTokens(request)) {
    const key = sessionKey(token);
    await retryBusy(() => kv.delete(key));
  }
}

/**
 * The two cookies cleared: same attributes, `Max-Age=0`.
 *
 * @returns the `set-cookie` values
 */
export function clearedCookies(): string[] {
  return [
    `${SESSION_COOKIE}=; ${ATTRIBUTES}; Max-Age=0; HttpOnly`,
    `${EDIT_COOKIE}=; ${ATTRIBUTES}; Max-Age=0`,
  ];
}

/** How many `editor_session` cookies of one request are looked at. */
const TOKENS_MAX = 4;

/**
 * The session tokens of a request's `cookie` header, when well formed: a
 * sibling subdomain can set a second `editor_session` that the browser sends
 * first, so each is tried (at most four).
 *
 * @param request the incoming request
 * @returns the tokens, in order
 */
export function sessionTokens(request: Request): string[] {
  const header = request.headers.get("cookie");
  if (!header) return [];
  const tokens: string[] = [];
  for (const pair of header.split(";")) {
    const at = pair.indexOf("=");
    if (at < 0 || pair.slice(0, at).trim() !== SESSION_COOKIE) continue;
    const value = pair.slice(at + 1).trim();
    if (TOKEN.test(value) && !tokens.includes(value)) tokens.push(value);
    if (tokens.length === TOKENS_MAX) break;
  }
  return tokens;
}

function sessionKey(token: string): KvKey {
  return ["editor", "session", sha256Hex(token)];
}

function keyFingerprint(hash: string | undefined): string {
  return sha256Hex(`inpage-editor key ${hash ?? ""}`);
}

/**
 * The identity check of the protected routes.
 *
 * @param env the host's bindings
 * @param request the incoming request
 * @throws {HttpError} 401 `unauthorized` without a valid session
 */
export async function requireSession(
  env: Env,
  request: Request,
): Promise<void> {
  if (!await hasSession(kvOf(env), request, env)) {
    throw unauthorized("no valid session");
  }
}
