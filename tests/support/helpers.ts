/**
 * Shared test support: a real in-memory KV, fast key hashes, request
 * builders, log capture and the checks every answer must pass.
 *
 * @module
 */

import assert from "node:assert/strict";
import type { ClientInfo, Env } from "../../lib/http/env.ts";
import { hashKey } from "../../lib/access/site_key.ts";
import { HttpError } from "../../lib/http/http_error.ts";
import { toHttpError } from "../../lib/http/error_response.ts";

/** The site of the tests. */
export const ORIGIN = "https://site.example";

/** Locales of the test site. */
export const LOCALES = ["en", "fr"] as const;

/** Cheap argon2id parameters, so tests stay fast (the defaults are tested too). */
export const FAST_PARAMS = { memory: 64, iterations: 1, parallelism: 1 };

const hashes = new Map<string, Promise<string>>();

/**
 * A PHC string of the key with cheap parameters, made once per key.
 *
 * @param key the site key
 * @returns the PHC string
 */
export function fastHash(key: string): Promise<string> {
  let hash = hashes.get(key);
  if (!hash) {
    hash = hashKey(key, FAST_PARAMS);
    hashes.set(key, hash);
  }
  return hash;
}

/** An env for tests, with its captured log lines. */
export interface TestEnv extends Env {
  /** Every log line written. */
  logs: string[];
}

/**
 * Builds an env over a KV with a log capture.
 *
 * @param kv the KV
 * @param extra more entries
 * @returns the env
 */
export function testEnv(kv: Deno.Kv | undefined, extra: Env = {}): TestEnv {
  const logs: string[] = [];
  return {
    ...(kv ? { RATE_LIMIT: kv } : {}),
    EDITOR_LOG: (line: string) => logs.push(line),
    ...extra,
    logs,
  };
}

/** Connection info from an address. */
export function from(hostname: string): { remoteAddr: { hostname: string } } {
  return { remoteAddr: { hostname } };
}

/**
 * A JSON POST to the test site, with the `content-length` a real client
 * declares (`new Request` does not add one).
 *
 * @param path the route path
 * @param body serialised as JSON unless already a string
 * @param headers more headers
 * @returns the request
 */
export function postJson(
  path: string,
  body: unknown,
  headers: Record<string, string> = {},
): Request {
  const bytes = new TextEncoder().encode(
    typeof body === "string" ? body : JSON.stringify(body),
  );
  return new Request(ORIGIN + path, {
    method: "POST",
    headers: {
      "content-type": "application/json",
      "content-length": String(bytes.byteLength),
      ...headers,
    },
    body: bytes,
  });
}

/**
 * A read (`GET /api/content`) of a page of the test site with a cookie
 * header.
 *
 * @param path the page path
 * @param cookie the cookie header
 * @returns the request
 */
export function readRequest(path: string, cookie: string): Request {
  return new Request(`${ORIGIN}/api/content?path=${path}`, {
    headers: { cookie },
  });
}

/**
 * A log-out (`DELETE /api/auth`) to the test site with a cookie header.
 *
 * @param cookie the cookie header
 * @returns the request
 */
export function logoutRequest(cookie: string): Request {
  return new Request(`${ORIGIN}/api/auth`, {
    method: "DELETE",
    headers: { cookie },
  });
}

/**
 * Asserts the headers every answer carries.
 *
 * @param response the answer
 */
export function assertCommonHeaders(response: Response): void {
  assert.equal(
    response.headers.get("content-type"),
    "application/json; charset=utf-8",
  );
  assert.equal(response.headers.get("cache-control"), "no-store");
  assert.equal(response.headers.get("x-content-type-options"), "nosniff");
}

/**
 * Reads an answer's status and body after checking its common headers.
 *
 * @param response the answer
 * @returns status, parsed body and headers
 */
export async function answer(
  response: Response,
): Promise<{ status: number; body: unknown; headers: Headers }> {
  assertCommonHeaders(response);
  return {
    status: response.status,
    body: await response.json(),
    headers: response.headers,
  };
}

/**
 * The `cookie` header a browser would send after a login answer.
 *
 * @param response the login answer
 * @returns `editor_session=…; editor_edit=1`
 */
export function cookieFrom(response: Response): string {
  return response.headers.getSetCookie()
    .map((cookie) => cookie.split(";")[0])
    .join("; ");
}

/**
 * Logs in through a router and returns the cookie header.
 *
 * @param handle the router's handle
 * @param env the env
 * @param key the key to send
 * @param client the client address
 * @returns the cookie header
 */
export async function login(
  handle: (
    request: Request,
    env: Env,
    info?: ClientInfo,
  ) => Promise<Response>,
  env: Env,
  key: string,
  client = "192.0.2.1",
): Promise<string> {
  const response = await handle(
    postJson("/api/auth", { key }),
    env,
    from(client),
  );
  assert.equal(response.status, 200, "login should succeed");
  await response.body?.cancel();
  return cookieFrom(response);
}

/**
 * Logs in over HTTP, as a browser does, and asserts a 200.
 *
 * @param origin the server's base URL, with or without its final `/`
 * @param key the key to send
 * @returns the cookie header
 */
export async function logInOver(origin: string, key: string): Promise<string> {
  const response = await fetch(new URL("api/auth", withSlash(origin)), {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ key }),
  });
  assert.equal(response.status, 200, await response.clone().text());
  await response.body?.cancel();
  return cookieFrom(response);
}

/**
 * Publishes a page over HTTP, as the overlay does, and asserts a 200.
 *
 * @param origin the server's base URL, with or without its final `/`
 * @param cookie the session's cookie header
 * @param save the body of `POST /api/save`
 */
export async function assertPublishedOver(
  origin: string,
  cookie: string,
  save: { path: string; content: string; version: string; message?: string },
): Promise<void> {
  const response = await fetch(new URL("api/save", withSlash(origin)), {
    method: "POST",
    headers: { "content-type": "application/json", cookie },
    body: JSON.stringify(save),
  });
  assert.equal(response.status, 200, await response.clone().text());
  await response.body?.cancel();
}

const withSlash = (url: string) => url.endsWith("/") ? url : `${url}/`;

/**
 * An env over a KV whose key hash is the key's, and a session opened with
 * the key through the router.
 *
 * @param router the router under test (anything with its `handle`)
 * @param kv the KV, or `undefined` for none
 * @param key the site key
 * @param extra more env entries (they replace the defaults)
 * @param client the client address that logs in
 * @returns the env and the cookie header
 */
export async function signedInEnv(
  router: { handle: Parameters<typeof login>[0] },
  kv: Deno.Kv | undefined,
  key: string,
  extra: Env = {},
  client?: string,
): Promise<{ env: TestEnv; cookie: string }> {
  const env = testEnv(kv, { EDITOR_KEY_HASH: await fastHash(key), ...extra });
  const cookie = await login(router.handle, env, key, client);
  return { env, cookie };
}

/**
 * Asserts that none of the texts contains any of the secrets.
 *
 * @param texts response bodies, headers and log lines
 * @param secrets keys, hashes, tokens, cookie values
 */
export function assertNoSecrets(texts: string[], secrets: string[]): void {
  for (const secret of secrets.filter((s) => s.length >= 8)) {
    for (const text of texts) {
      assert.ok(
        !text.includes(secret),
        `a secret leaked into: ${text.slice(0, 200)}`,
      );
    }
  }
}

/**
 * A controllable clock for `EDITOR_CLOCK`.
 *
 * @param start the first time, in milliseconds
 * @returns the clock and a way to move it
 */
export function manualClock(start = Date.UTC(2026, 10, 22, 12)): {
  now: () => number;
  advance: (ms: number) => void;
} {
  let time = start;
  return { now: () => time, advance: (ms) => void (time += ms) };
}

/**
 * What a thrown domain error is answered with, through the one mapping
 * (`toHttpError`); any other thrown value is given back as it is.
 */
export function answered(thrown: unknown): unknown {
  const mapped = toHttpError(thrown);
  return mapped.status === 500 && !(thrown instanceof HttpError)
    ? thrown
    : mapped;
}
