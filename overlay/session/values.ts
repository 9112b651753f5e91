/**
 * JSON values as page files hold them: deep equality, and a page's changes
 * (pointer → value) applied in order.
 *
 * @module
 */

import type { PageObject } from "../../client/mod.ts";
import { setPointer } from "./pointer.ts";

/**
 * Whether two JSON values are equal, deeply.
 *
 * @param a one value
 * @param b the other
 * @returns true when they hold the same JSON
 */
export function sameValue(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (typeof a !== "object" || typeof b !== "object" || !a || !b) return false;
  if (Array.isArray(a) !== Array.isArray(b)) return false;
  const left = a as Record<string, unknown>;
  const right = b as Record<string, unknown>;
  const keys = Object.keys(left);
  if (keys.length !== Object.keys(right).length) return false;
  return keys.every((key) =>
    Object.hasOwn(right, key) && sameValue(left[key], right[key])
  );
}

/**
 * A page with changes applied, in their order.
 *
 * @param base the page as read
 * @param changes new values by JSON Pointer
 * @returns the changed page (the base is left alone)
 */
export function applyChanges(
  base: PageObject,
  changes: ReadonlyMap<string, unknown>,
): PageObject {
  let page = base;
  for (const [pointer, value] of changes) {
    page = setPointer(page, pointer, value);
  }
  return page;
}
