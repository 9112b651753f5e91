/**
 * Signed preview links: a token names a review and when it stops working,
 * signed with HMAC-SHA-256 under `EDITOR_PREVIEW_SECRET`, so that whoever
 * holds the link (without a session) can see that review, read-only, until
 * then, and nobody can make one for another review or a later time.
 *
 * A token is `{id}.{expires}.{signature}`: the review's id (32 hex digits),
 * the expiry in seconds since the epoch, and the base64url HMAC-SHA-256 of
 * `inpage-preview v1 {id} {expires}`. Its form is checked before anything
 * is computed; the signature is compared in constant time. WebCrypto only:
 * it runs on every host.
 *
 * @module
 */

import type { Env } from "../http/env.ts";
import { encodeBase64 } from "../encoding/bytes.ts";
import { PREVIEW_SECRET_MIN } from "../limits.ts";

const TOKEN = /^([0-9a-f]{32})\.([1-9][0-9]{0,11})\.([A-Za-z0-9_-]{43})$/;
const encoder = new TextEncoder();

/** Why a token is refused. */
export type PreviewRefusal = "malformed" | "signature" | "expired";

/** A token read: the review it names and its expiry, or why it is refused. */
export type PreviewRead =
  | { readonly ok: true; readonly id: string; readonly expiresAt: number }
  | { readonly ok: false; readonly reason: PreviewRefusal };

/**
 * The preview secret of the env, when usable: `EDITOR_PREVIEW_SECRET`, at
 * least {@linkcode PREVIEW_SECRET_MIN} characters.
 *
 * @example
 * ```ts
 * import { previewSecret } from "./preview_token.ts";
 * import assert from "node:assert/strict";
 *
 * assert.equal(previewSecret({ EDITOR_PREVIEW_SECRET: "short" }), undefined);
 * assert.equal(previewSecret({ EDITOR_PREVIEW_SECRET: "s".repeat(32) }), "s".repeat(32));
 * ```
 *
 * @param env the host's variables
 * @returns the secret, or `undefined` when links cannot be made or read
 */
export function previewSecret(env: Env): string | undefined {
  const secret = env.EDITOR_PREVIEW_SECRET;
  return typeof secret === "string" && secret.length >= PREVIEW_SECRET_MIN
    ? secret
    : undefined;
}

let lastKey: { secret: string; key: Promise<CryptoKey> } | undefined;

function keyOf(secret: string): Promise<CryptoKey> {
  if (lastKey?.secret !== secret) {
    lastKey = {
      secret,
      key: crypto.subtle.importKey(
        "raw",
        encoder.encode(secret),
        { name: "HMAC", hash: "SHA-256" },
        false,
        ["sign"],
      ),
    };
  }
  return lastKey.key;
}

async function signature(
  secret: string,
  id: string,
  expires: number,
): Promise<Uint8Array> {
  const mac = await crypto.subtle.sign(
    "HMAC",
    await keyOf(secret),
    encoder.encode(`inpage-preview v1 ${id} ${expires}`),
  );
  return new Uint8Array(mac);
}

function base64url(bytes: Uint8Array): string {
  return encodeBase64(bytes).replace(/\+/g, "-").replace(/\//g, "_")
    .replace(/=+$/, "");
}

/**
 * Signs a preview token for a review until a time (rounded down to the
 * second).
 *
 * @example
 * ```ts
 * import { readPreviewToken, signPreviewToken } from "./preview_token.ts";
 * import assert from "node:assert/strict";
 *
 * const secret = "a preview secret of at least 32 characters";
 * const id = "0123456789abcdef0123456789abcdef";
 * const token = await signPreviewToken(secret, id, 3_600_000);
 * assert.deepEqual(await readPreviewToken(secret, token, 0), {
 *   ok: true,
 *   id,
 *   expiresAt: 3_600_000,
 * });
 * assert.deepEqual(await readPreviewToken(secret, token, 3_600_000), {
 *   ok: false,
 *   reason: "expired",
 * });
 * ```
 *
 * @param secret the preview secret
 * @param id the review's id, 32 hex digits
 * @param expiresAt when the token stops working, in milliseconds
 * @returns the token
 * @throws {TypeError} for an id that is not 32 hex digits or an expiry
 *   outside 1 s to year 9999
 */
export async function signPreviewToken(
  secret: string,
  id: string,
  expiresAt: number,
): Promise<string> {
  const expires = Math.floor(expiresAt / 1000);
  if (!/^[0-9a-f]{32}$/.test(id) || !(expires >= 1 && expires < 253402300800)) {
    throw new TypeError("A preview token needs a review id and an expiry");
  }
  return `${id}.${expires}.${base64url(await signature(secret, id, expires))}`;
}

/**
 * Reads a preview token: its form, then its signature (in constant time),
 * then its expiry.
 *
 * @param secret the preview secret
 * @param token the token as received
 * @param now the time, in milliseconds
 * @returns the review's id and the expiry, or why the token is refused
 */
export async function readPreviewToken(
  secret: string,
  token: string,
  now: number,
): Promise<PreviewRead> {
  const match = TOKEN.exec(token);
  if (!match) return { ok: false, reason: "malformed" };
  const [, id = "", seconds = "", given = ""] = match;
  const expires = Number(seconds);
  const expected = base64url(await signature(secret, id, expires));
  if (!sameText(expected, given)) return { ok: false, reason: "signature" };
  if (expires * 1000 <= now) return { ok: false, reason: "expired" };
  return { ok: true, id, expiresAt: expires * 1000 };
}

/** Two strings of the same length compared in time that depends on it only. */
function sameText(a: string, b: string): boolean {
  if (a.length !== b.length) return false;
  let difference = 0;
  for (let i = 0; i < a.length; i++) {
    difference |= a.charCodeAt(i) ^ b.charCodeAt(i);
  }
  return difference === 0;
}
