/// <reference lib="dom" />
/**
 * The marks on the page's regions, written from `marksOf` (a pure function
 * of the state, `../state/marks.ts`) once per transaction: changed regions
 * outlined as changed, regions with a problem outlined in red with
 * `aria-invalid` and their reasons, and each refused link inside rich text
 * outlined itself.
 *
 * @module
 */

import { INPAGE_ATTRIBUTES } from "../../lib/wire/regions.ts";
import type { Region } from "../regions.ts";
import { linkProblem } from "../state/checks.ts";
import { marksOf } from "../state/marks.ts";
import type { EditState } from "../state/state.ts";
import { problemWords } from "./words.ts";

/**
 * Writes the marks of the state on the regions.
 *
 * @param state the edit state
 * @param regions the page's regions
 */
export function drawMarks(state: EditState, regions: readonly Region[]): void {
  const marks = marksOf(state, regions);
  regions.forEach((region, index) => {
    const mark = marks[index]!;
    const element = region.element;
    element.toggleAttribute(INPAGE_ATTRIBUTES.changed, mark.changed);
    element.toggleAttribute(
      INPAGE_ATTRIBUTES.invalid,
      mark.problems.length > 0,
    );
    const target = region.rich
      ? region.rich.editor.view.dom as HTMLElement
      : element;
    if (mark.problems.length > 0) {
      target.setAttribute("aria-invalid", "true");
      element.setAttribute(
        INPAGE_ATTRIBUTES.problem,
        [...new Set(mark.problems.map(problemWords))].join(" "),
      );
    } else {
      target.removeAttribute("aria-invalid");
      element.removeAttribute(INPAGE_ATTRIBUTES.problem);
    }
    if (region.kind !== "html") return;
    // A refused link in rich text is outlined itself.
    for (const link of element.querySelectorAll("a")) {
      link.toggleAttribute(
        INPAGE_ATTRIBUTES.invalid,
        linkProblem(link.getAttribute("href") ?? "") !== undefined,
      );
    }
  });
}
