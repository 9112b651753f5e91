/**
 * "Keep mine" after a conflict: this person's changed fields, re-applied
 * onto the version someone else published meanwhile, refused for any field
 * that changed on both sides.
 *
 * @module
 */

import { getPointer, type PageObject, setPointer } from "../client/mod.ts";

/** The outcome of re-applying changes onto a fresh version. */
export type MergeResult =
  | { ok: true; page: PageObject }
  | { ok: false; clashes: string[] };

/**
 * Re-applies changed fields onto a fresh page.
 *
 * @param base the page as it was when this person started editing
 * @param fresh the page as published meanwhile
 * @param changes this person's new values, by JSON Pointer
 * @returns the merged page, or the pointers that changed on both sides
 */
export function keepMine(
  base: PageObject,
  fresh: PageObject,
  changes: ReadonlyMap<string, unknown>,
): MergeResult {
  const clashes: string[] = [];
  let page = fresh;
  for (const [pointer, mine] of changes) {
    const before = getPointer(base, pointer);
    const theirs = getPointer(fresh, pointer);
    if (!sameValue(before, theirs) && !sameValue(theirs, mine)) {
      clashes.push(pointer);
      continue;
    }
    try {
      page = setPointer(page, pointer, mine);
    } catch {
      clashes.push(pointer);
    }
  }
  return clashes.length > 0 ? { ok: false, clashes } : { ok: true, page };
}

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
