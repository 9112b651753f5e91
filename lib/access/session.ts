/**
 * `lib/access/`, the access concern: who may edit and how often (the site
 * key, sessions, the cross-site guard, rate windows). This file holds
 * editing sessions in KV: a 256-bit token in the `editor_session` cookie,
 * only its SHA-256 stored, with an expiry checked on read, the editor it
 * was opened for, and a fingerprint of that editor's key hash, so that
 * rotating `EDITOR_KEY_HASH` ends every plain-key session, and removing a
 * named editor (or changing their hash) ends theirs (`editors.ts`).
 *
 * @module
 */

import { sha256Hex } from "../digest.ts";
import {
  type EditorIdentity,
  editorOfSession,
  hasKeyConfig,
  PLAIN_EDITOR,
  sessionFingerprint,
} from "./editors.ts";
import type { Env, KvEntry, KvKey, KvStore } from "../http/env.ts";
import { now } from "../http/env.ts";
import { isCrossSite } from "./cross_site.ts";
import { getEntries, retryBusy } from "./kv_binding.ts";
import { forgetSeen } from "./rate_window.ts";
import { randomToken } from "./random_token.ts";
import { COOKIE_HEADER_MAX, SESSION_SECONDS } from "../limits.ts";
import { EDIT_COOKIE, SESSION_COOKIE } from "../wire/names.ts";

const TOKEN = /^[A-Za-z0-9_-]{43}$/;
const ATTRIBUTES = "Secure; SameSite=Strict; Path=/";

/** A session as stored in KV under the hash of its token. */
interface StoredSession {
  /** When it ends, in milliseconds since the epoch. */
  expiresAt: number;
  /** The fingerprint of the editor's key hash. */
  key: string;
  /** The editor's id (absent in sessions opened before named editors). */
  editor?: string;
}

/** An open session, as read from KV: still valid for its editor. */
export interface Session {
  /** When it ends, in milliseconds since the epoch. */
  readonly expiresAt: number;
  /** The fingerprint of its editor's key hash, which it was opened under. */
  readonly key: string;
  /** Its editor: the id it was opened for, with their current name and email. */
  readonly editor: EditorIdentity;
}

/**
 * Opens a session: stores the token's hash and returns the two cookies.
 *
 * @param kv the store
 * @param env the host's variables (`EDITOR_KEY_HASH`, `EDITOR_KEYS`, the clock)
 * @param editor the editor whose key matched; default the plain site key's
 * @returns the `set-cookie` values
 */
export async function openSession(
  kv: KvStore,
  env: Env,
  editor: EditorIdentity = PLAIN_EDITOR,
): Promise<string[]> {
  const token = randomToken(32);
  const value: StoredSession = {
    expiresAt: now(env) + SESSION_SECONDS * 1000,
    key: sessionFingerprint(editor.id, env) ?? "",
    editor: editor.id,
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
 * token, found, not expired, and opened under its editor's current key hash.
 * A session ended because of its editor is deleted ({@linkcode endedSessions}).
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
  const keys = sessionKeys(request, env);
  if (keys.length === 0) return false;
  const entries = await getEntries(kv, keys);
  const ended = endedSessions(keys, entries, env);
  if (ended.length > 0) await endSessions(kv, ended);
  return sessionIn(entries, env) !== undefined;
}

/**
 * The KV keys of the sessions a request names: none for a cross-site request
 * or without any key configured (no session is valid then).
 *
 * @param request the incoming request
 * @param env the host's variables
 * @returns the keys, one per well-formed token
 */
export function sessionKeys(request: Request, env: Env): KvKey[] {
  if (isCrossSite(request) || !hasKeyConfig(env)) return [];
  return sessionTokens(request).map(sessionKey);
}

/**
 * The first of the entries read at {@linkcode sessionKeys} that is a session
 * not expired and open under its editor's current key hash (the editor is
 * still configured, with the same hash: `editors.ts`).
 *
 * @param entries the entries
 * @param env the host's variables
 * @returns the session, or `undefined` when none is open
 */
export function sessionIn(
  entries: readonly KvEntry<unknown>[],
  env: Env,
): Session | undefined {
  if (entries.length === 0) return undefined;
  const time = now(env);
  for (const { value } of entries) {
    const stored = value as Partial<StoredSession> | null;
    if (
      stored === null || typeof stored !== "object" ||
      typeof stored.expiresAt !== "number" || stored.expiresAt <= time
    ) continue;
    const editor = editorOfSession(stored.editor, stored.key, env);
    if (editor) {
      return { expiresAt: stored.expiresAt, key: stored.key!, editor };
    }
  }
  return undefined;
}

/**
 * The sessions among the entries read at {@linkcode sessionKeys} that have
 * ended because of their editor: not expired, but their editor is no longer
 * configured, or is configured with another key hash. They are to be
 * deleted ({@linkcode endSessions}), so that putting the same entry back (an
 * undo, a rollback, an older environment deployed again) does not bring
 * them back: removing an editor ends their sessions for good.
 *
 * Only called with the keys a well-formed key configuration gives (a
 * malformed `EDITOR_KEYS` names no session to read): a configuration error
 * refuses every session, and deletes none.
 *
 * @param keys the keys read
 * @param entries the entries, in the order of `keys`
 * @param env the host's variables
 * @returns the keys of the sessions to delete
 */
export function endedSessions(
  keys: readonly KvKey[],
  entries: readonly KvEntry<unknown>[],
  env: Env,
): KvKey[] {
  const time = now(env);
  return keys.filter((_, index) => {
    const stored = entries[index]?.value as Partial<StoredSession> | null;
    return stored !== null && typeof stored === "object" &&
      typeof stored.expiresAt === "number" && stored.expiresAt > time &&
      editorOfSession(stored.editor, stored.key, env) === undefined;
  });
}

/**
 * Deletes sessions, and what this process remembers of them.
 *
 * @param kv the store
 * @param keys the sessions' keys
 */
export async function endSessions(
  kv: KvStore,
  keys: readonly KvKey[],
): Promise<void> {
  forgetSeen(kv, keys);
  await Promise.all(keys.map((key) => retryBusy(() => kv.delete(key))));
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
  // Read first, then delete only what exists: planted tokens name nothing.
  const keys = sessionTokens(request).map(sessionKey);
  const entries = await getEntries(kv, keys);
  await Promise.all(
    keys.filter((_, index) => entries[index]?.versionstamp != null)
      .map((key) => retryBusy(() => kv.delete(key))),
  );
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

/**
 * The session tokens of a request's `cookie` header, when well formed and
 * distinct, every one in its first 64 KiB (at most 1,130). A sibling
 * subdomain can plant `editor_session` cookies that the browser sends before
 * the real one (a longer `Path` comes first), as many as it likes: every one
 * is tried, so planted cookies cannot hide the real one, and the work stays
 * bounded by the header's size.
 *
 * @param request the incoming request
 * @returns the tokens, in order
 */
export function sessionTokens(request: Request): string[] {
  const header = request.headers.get("cookie")?.slice(0, COOKIE_HEADER_MAX);
  if (!header || !header.includes(SESSION_COOKIE)) return [];
  const tokens = new Set<string>();
  for (const pair of header.split(";")) {
    const at = pair.indexOf("=");
    if (at < 0 || pair.slice(0, at).trim() !== SESSION_COOKIE) continue;
    const value = pair.slice(at + 1).trim();
    if (TOKEN.test(value)) tokens.add(value);
  }
  return [...tokens];
}

function sessionKey(token: string): KvKey {
  return ["editor", "session", sha256Hex(token)];
}
