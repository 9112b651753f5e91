/**
 * The wire schemas, loaded when first needed: zod, with the npm resolution
 * it starts, costs about 30 ms of a cold start, and only a login and a
 * publish check a body against a schema.
 *
 * @module
 */

let wire: Promise<typeof import("./mod.ts")> | undefined;

/**
 * Loads `./mod.ts` once.
 *
 * @example
 * ```ts
 * import { loadWire } from "./load.ts";
 * import assert from "node:assert/strict";
 *
 * const { loginBody } = await loadWire();
 * assert.equal(loginBody.safeParse({ key: "k" }).success, true);
 * ```
 *
 * @returns the module
 */
export function loadWire(): Promise<typeof import("./mod.ts")> {
  return wire ??= import("./mod.ts");
}

let review: Promise<typeof import("./review.ts")> | undefined;

/**
 * Loads `./review.ts`, the review routes' shapes, once.
 *
 * @example
 * ```ts
 * import { loadReviewWire } from "./load.ts";
 * import assert from "node:assert/strict";
 *
 * const { reviewIdBody } = await loadReviewWire();
 * assert.equal(reviewIdBody.safeParse({ id: "x" }).success, false);
 * ```
 *
 * @returns the module
 */
export function loadReviewWire(): Promise<typeof import("./review.ts")> {
  return review ??= import("./review.ts");
}
