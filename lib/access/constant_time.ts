/**
 * The constant-time comparison of the key check, with `node:crypto`'s
 * `timingSafeEqual`. A module of its own, loaded with the first key check:
 * `node:crypto` costs about 40 ms of a cold start that no other request
 * needs.
 *
 * @module
 */

import { timingSafeEqual } from "node:crypto";

/**
 * Compares two byte strings in time that depends only on their lengths.
 *
 * @example
 * ```ts
 * import { constantTimeEqual } from "./constant_time.ts";
 * import assert from "node:assert/strict";
 *
 * assert.equal(constantTimeEqual(new Uint8Array([1]), new Uint8Array([1])), true);
 * ```
 *
 * @param a first bytes
 * @param b second bytes
 * @returns whether they are equal
 */
export function constantTimeEqual(a: Uint8Array, b: Uint8Array): boolean {
  return a.byteLength === b.byteLength && timingSafeEqual(a, b);
}
