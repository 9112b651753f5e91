/**
 * The marks of the page's regions, computed from the edit state: which
 * regions are changed (outlined as changed), and which hold a problem
 * (outlined in red, with its reasons). A problem belongs to the region
 * whose field holds its place: the region at its pointer, or the closest
 * one around it. The view (`views/marks.ts`) writes them on the page, once
 * per transaction.
 *
 * @example
 * ```ts
 * import { EditState } from "./state.ts";
 * import { createPage } from "./page.ts";
 * import { fieldsFrom } from "./fields.ts";
 * import { marksOf } from "./marks.ts";
 *
 * let state = EditState.create();
 * const page = createPage("a.json", "v1", { title: "A" }, fieldsFrom([["/title", "text"]]));
 * state = state.apply(state.tr.addPage(page));
 * state = state.apply(state.tr.change("a.json", "/title", "<b>"));
 * const [mark] = marksOf(state, [{ path: "a.json", pointer: "/title", kind: "text" }]);
 * console.assert(mark?.changed && mark.problems[0]?.reason === "markup");
 * ```
 *
 * @module
 */

import type { FieldKind } from "./fields.ts";
import { valueAt } from "./fields.ts";
import { isWithin } from "./pointer.ts";
import { type Problem, problemsOf } from "./problems.ts";
import type { EditState } from "./state.ts";
import { sameValue } from "./values.ts";

/** A region as the marks see it. */
export interface RegionRef {
  /** The page path. */
  readonly path: string;
  /** Its JSON Pointer. */
  readonly pointer: string;
  /** Its kind. */
  readonly kind: FieldKind;
}

/** The marks of one region. */
export interface RegionMarks {
  /** Whether its value differs from the one read. */
  readonly changed: boolean;
  /** The problems it holds. */
  readonly problems: readonly Problem[];
}

/**
 * The region holding a place: the one whose pointer is `at` or its
 * longest prefix, on the same page.
 *
 * @param regions the regions
 * @param path the page path
 * @param at a JSON Pointer
 * @returns its index, or -1
 */
export function regionIndexAt(
  regions: readonly RegionRef[],
  path: string,
  at: string,
): number {
  let best = -1;
  regions.forEach((region, index) => {
    if (
      region.path === path && isWithin(at, region.pointer) &&
      (best < 0 || region.pointer.length > regions[best]!.pointer.length)
    ) best = index;
  });
  return best;
}

/**
 * Each region's marks, in the order of the regions.
 *
 * @param state the edit state
 * @param regions the page's regions
 * @returns one entry per region
 */
export function marksOf(
  state: EditState,
  regions: readonly RegionRef[],
): RegionMarks[] {
  const problems: Problem[][] = regions.map(() => []);
  for (const problem of problemsOf(state)) {
    const index = regionIndexAt(regions, problem.path, problem.at);
    if (index >= 0) problems[index]!.push(problem);
  }
  return regions.map((region, index) => {
    const page = state.page(region.path);
    return {
      changed: page !== undefined &&
        !sameValue(
          state.valueOf(region.path, region.pointer),
          valueAt(page.base, region.pointer),
        ),
      problems: problems[index]!,
    };
  });
}
