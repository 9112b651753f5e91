/**
 * A review's publish that clashed (a 409 listing the fields changed on both
 * sides), in the shape of the per-field view of a publish that clashed:
 * the review's field changes seen against each page as published now (in
 * the three-way shape of "Keep mine": mine is the review's value, theirs
 * the value now); each field the server listed is a clash to choose, every
 * other field the review changes is published as the review has it. The
 * choices then go back to the server's publish of the review (`settle`).
 *
 * @example
 * ```ts
 * import { reviewMergeFields } from "./review_merge.ts";
 * import { resolveFields } from "./merge.ts";
 *
 * const fields = reviewMergeFields(
 *   { title: "Review's title", intro: "Review's intro" },
 *   ["/title", "/intro"],
 *   new Set(["/title"]),
 *   { title: "Published title", intro: "Old intro" },
 * );
 * const resolved = resolveFields(fields, new Map([["/title", "theirs"]]));
 * console.assert(resolved.ok && resolved.changes.size === 1);
 * console.assert(resolved.ok && resolved.changes.get("/intro") === "Review's intro");
 * ```
 *
 * @module
 */

import { valueAt } from "./fields.ts";
import { setPointer } from "./pointer.ts";
import type { MergeField } from "./merge.ts";
import type { PageObject } from "./values.ts";

/**
 * The fields a review changes in one page, seen against the page now.
 *
 * @param review the page as the review has it
 * @param changed the pointers of the fields the review changes (the
 *   review's `changed`, the same fields the server's merge compares)
 * @param clashes the pointers the server listed for this page in its 409
 * @param now the page as published now
 * @returns one field per change: `mine` the review's value, `theirs` the
 *   value now, a clash when listed or when its place is gone now
 */
export function reviewMergeFields(
  review: PageObject,
  changed: readonly string[],
  clashes: ReadonlySet<string>,
  now: PageObject,
): MergeField[] {
  return changed.map((pointer) => {
    const mine = valueAt(review, pointer);
    let gone = false;
    try {
      setPointer(now, pointer, mine);
    } catch {
      gone = true;
    }
    return {
      pointer,
      base: undefined,
      mine,
      theirs: valueAt(now, pointer),
      clash: gone || clashes.has(pointer),
      gone,
    };
  });
}
