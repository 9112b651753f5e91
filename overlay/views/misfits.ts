/// <reference lib="dom" />
/**
 * Regions that cannot be edited (a pointer that names nothing in the page
 * file, or a value of another kind): each is outlined with its sentence
 * beside it and left as the site rendered it, and the console shows one
 * grouped warning listing them all, for the site's developer.
 *
 * @module
 */

import { INPAGE_ATTRIBUTES, kindSelector } from "../../lib/wire/regions.ts";
import { h } from "../ui.ts";
import { type MisfitLine, misfitReport } from "./words.ts";

/** The fields a person works in. */
const FIELDS = kindSelector(["text", "html", "image", "link"]);

/** A region left as it is, with its element. */
export interface FlaggedRegion extends MisfitLine {
  /** The page's element. */
  element: HTMLElement;
}

/** The attribute that outlines a region that cannot be edited. */
export const UNRESOLVED_ATTRIBUTE: string = INPAGE_ATTRIBUTES.unresolved;

/**
 * Outlines the regions, puts each one's sentence beside it (in the
 * overlay's shadow root, following the region as the page scrolls), and
 * logs the grouped warning.
 *
 * @param layer where the sentences go, inside the overlay's shadow root
 * @param flagged the regions
 * @returns a function that removes the outlines and sentences
 */
export function showMisfits(
  layer: HTMLElement,
  flagged: readonly FlaggedRegion[],
): () => void {
  const report = misfitReport(flagged);
  if (!report) return () => {};
  console.groupCollapsed(report.title);
  for (const line of report.lines) console.warn(line);
  console.groupEnd();
  const notes = flagged.map((region) => {
    region.element.setAttribute(UNRESOLVED_ATTRIBUTE, region.sentence);
    const note = h("p", { class: "misfit", role: "note" }, region.sentence);
    layer.append(note);
    return [region.element, note] as const;
  });
  let frame = 0;
  const place = () => {
    frame = 0;
    // The field the person is working in, which no sentence covers.
    const working = document.activeElement?.closest(FIELDS)
      ?.getBoundingClientRect();
    for (const [element, note] of notes) {
      const box = element.getBoundingClientRect();
      note.hidden = box.width === 0 && box.height === 0;
      const width = Math.min(Math.max(box.width, 240), innerWidth - 16);
      note.style.width = `${width}px`;
      note.style.left = `${
        Math.max(8, Math.min(box.left, innerWidth - width - 8))
      }px`;
      // Over the region's own lower part when it is tall enough (it shows
      // nothing editable), else just below it.
      const tall = box.height >= note.offsetHeight + 12;
      note.style.top = `${
        tall ? box.bottom - note.offsetHeight - 6 : box.bottom + 6
      }px`;
      if (working && !note.hidden) {
        const over = note.getBoundingClientRect();
        note.hidden = over.left < working.right &&
          working.left < over.right && over.top < working.bottom &&
          working.top < over.bottom;
      }
    }
  };
  const schedule = () => {
    if (!frame) frame = requestAnimationFrame(place);
  };
  place();
  addEventListener("scroll", schedule, { passive: true, capture: true });
  addEventListener("focusin", schedule);
  addEventListener("resize", schedule);
  const watcher = new ResizeObserver(schedule);
  watcher.observe(document.documentElement);
  for (const [element] of notes) watcher.observe(element);
  return () => {
    removeEventListener("scroll", schedule, { capture: true });
    removeEventListener("focusin", schedule);
    removeEventListener("resize", schedule);
    watcher.disconnect();
    if (frame) cancelAnimationFrame(frame);
    for (const [element, note] of notes) {
      element.removeAttribute(UNRESOLVED_ATTRIBUTE);
      note.remove();
    }
  };
}
