/**
 * The received-size check of the JSON routes: the body read within its cap,
 * answered 413 past it and 400 when the stream fails.
 *
 * @module
 */

import { badRequest, type HttpError, tooLarge } from "./http_error.ts";
import {
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
 * Reads the body within its cap.
 *
 * @param request the incoming request
 * @param max the cap, in bytes
 * @returns the bytes
 * @throws {HttpError} 413 past the cap, 400 when the body cannot be read
 */
export async function receiveBody(
  request: Request,
  max: number,
): Promise<Uint8Array> {
  try {
    return await readCapped(request.body, max);
  } catch (error) {
    if (error instanceof BodyTooLargeError) throw tooLarge(error.message);
    if (error instanceof BodyUnreadableError) throw badRequest(error.message);
    throw error;
  }
}
