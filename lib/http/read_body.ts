/**
 * The received-size check of the JSON routes: the body read within its cap,
 * answered 413 past it and 400 when the stream fails.
 *
 * @module
 */

import {
  badRequest,
  type HttpError,
  requestTimeout,
  tooLarge,
} from "./http_error.ts";
import type { Env } from "./env.ts";
import { BODY_IDLE_MS } from "../limits.ts";
import {
  BodyIdleError,
  BodyTooLargeError,
  BodyUnreadableError,
  declaredLength,
  readCapped,
} from "./read_capped.ts";

/**
 * The declared-size check: a `content-length` over the cap is a 413 before
 * anything else is looked at.
 *
 * @param request the incoming request
 * @param max the cap, in bytes
 * @param refuse the error to throw; default 413 `too_large` (the auth route
 *   answers its 401 instead)
 * @throws {HttpError} 413 `too_large`, or what `refuse` makes
 */
export function checkDeclaredSize(
  request: Request,
  max: number,
  refuse: (detail: string) => HttpError = tooLarge,
): void {
  const declared = declaredLength(request);
  if (declared !== undefined && declared > max) {
    throw refuse(`declared body of ${declared} bytes, over ${max}`);
  }
}

/**
 * How long a request body may stop arriving before it is cut off:
 * `EDITOR_BODY_IDLE_MS` when the env sets it (tests), else
 * {@linkcode BODY_IDLE_MS}.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { bodyIdleMs } from "./read_body.ts";
 * import { BODY_IDLE_MS } from "../limits.ts";
 *
 * assert.equal(bodyIdleMs({}), BODY_IDLE_MS);
 * assert.equal(bodyIdleMs({ EDITOR_BODY_IDLE_MS: 300 }), 300);
 * ```
 *
 * @param env the host's env
 * @returns the idle time, in milliseconds
 */
export function bodyIdleMs(env: Env): number {
  const given = env.EDITOR_BODY_IDLE_MS;
  return given !== undefined && Number.isFinite(given) && given > 0
    ? given
    : BODY_IDLE_MS;
}

/**
 * Reads the body within its cap and its idle time.
 *
 * @param request the incoming request
 * @param max the cap, in bytes
 * @param idleMs how long the body may stop arriving, in milliseconds
 * @returns the bytes
 * @throws {HttpError} 413 past the cap, 400 when the body cannot be read,
 *   408 when it stops arriving
 */
export async function receiveBody(
  request: Request,
  max: number,
  idleMs: number = BODY_IDLE_MS,
): Promise<Uint8Array> {
  try {
    return await readCapped(request.body, max, { idleMs });
  } catch (error) {
    if (error instanceof BodyTooLargeError) throw tooLarge(error.message);
    if (error instanceof BodyUnreadableError) throw badRequest(error.message);
    if (error instanceof BodyIdleError) throw requestTimeout(error.message);
    throw error;
  }
}
