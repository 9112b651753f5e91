/**
 * JSON values as page files hold them: deep equality, and a page's changes
 * (pointer → value) applied in order.
 *
 * @module
 */

import type { PageObject } from "../../client/mod.ts";
import { setPointer } from "./pointer.ts";

export { sameValue } from "../../lib/wire/merge.ts";

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
