/**
 * JSON values as page files hold them: the page object's type, deep
 * equality, and a page's changes (pointer → value) applied in order.
 *
 * @example
 * ```ts
 * import { applyChanges, sameValue } from "./values.ts";
 *
 * console.assert(sameValue({ a: [1] }, { a: [1] }));
 * const page = applyChanges({ title: "A" }, new Map([["/title", "B"]]));
 * console.assert(page.title === "B");
 * ```
 *
 * @module
 */

import { setPointer } from "./pointer.ts";

export type { JsonValue, PageObject } from "../../lib/wire/mod.ts";
import type { PageObject } from "../../lib/wire/mod.ts";
export { sameValue } from "../../lib/wire/merge.ts";

/** Changed values by JSON Pointer; none lies inside another. */
export type Changes = ReadonlyMap<string, unknown>;

/**
 * A page with changes applied, in their order.
 *
 * @param base the page as read
 * @param changes new values by JSON Pointer
 * @returns the changed page (the base is left alone)
 */
export function applyChanges(base: PageObject, changes: Changes): PageObject {
  let page = base;
  for (const [pointer, value] of changes) {
    page = setPointer(page, pointer, value);
  }
  return page;
}

/**
 * Whether a value is a JSON object (not an array, not null).
 *
 * @param value any value
 * @returns true for `{…}`
 */
export function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}
