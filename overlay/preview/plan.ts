/**
 * What a review's preview does to the live page, as data: for each region
 * the page shows (its page file, kind and pointer), the review's value to
 * put in and whether the review changed it. No DOM here: `mode.ts` reads
 * the regions and applies the plan. The overlay's open review (a review
 * shown in place to an editor) asks {@linkcode reviewFields} the same
 * question in the shape of History's preview.
 *
 * @example
 * ```ts
 * import { previewPlan } from "./plan.ts";
 *
 * const [entry] = previewPlan(
 *   [{ path: "a.json", content: '{"title":"New"}', changed: ["/title"] }],
 *   [{ path: "a.json", kind: "text", pointer: "/title" }],
 * );
 * console.assert(entry?.value === "New" && entry.changed);
 * ```
 *
 * @module
 */

import { getPointer } from "../../lib/wire/pointer.ts";
import { isWithin } from "../state/pointer.ts";
import { type PreviewField, previewFields } from "../state/versions.ts";
import type { PageObject } from "../state/values.ts";

/** A review's page as the preview needs it. */
export interface PreviewPage {
  /** Its page file. */
  path: string;
  /** The page as the review has it, the whole file as text. */
  content: string;
  /** The pointers of the fields the review changes (`[""]`: a new page). */
  changed: readonly string[];
}

/** A region of the live page. */
export interface PreviewRegion {
  /** The page file its container names. */
  path: string;
  /** Its kind: `text`, `html`, `markdown`, `image`, `link`, `list`, … */
  kind: string;
  /** Its JSON Pointer. */
  pointer: string;
}

/** What the preview does to one region. */
export interface PreviewEntry {
  /** The region. */
  region: PreviewRegion;
  /** The review's value at its pointer (`undefined`: none). */
  value: unknown;
  /** Whether the review changed it, or something inside it. */
  changed: boolean;
}

/** Structure (a list, an item) shows a change only of itself or around it. */
const STRUCTURE = new Set(["list", "item"]);

/**
 * Whether a changed field shows in a region: the region lies in it, or
 * (a field the person sees) it lies in the region.
 */
function touches(region: PreviewRegion, at: string): boolean {
  return isWithin(region.pointer, at) ||
    (!STRUCTURE.has(region.kind) && isWithin(at, region.pointer));
}

/**
 * The plan of a preview: one entry per region of a page of the review.
 *
 * @param pages the review's pages
 * @param regions the regions of the live page
 * @returns an entry for each region whose page the review holds
 */
export function previewPlan(
  pages: readonly PreviewPage[],
  regions: readonly PreviewRegion[],
): PreviewEntry[] {
  const byPath = new Map<
    string,
    { doc: unknown; changed: readonly string[] }
  >();
  for (const page of pages) {
    try {
      byPath.set(page.path, {
        doc: JSON.parse(page.content),
        changed: page.changed,
      });
    } catch {
      // A page that is not JSON is shown as published.
    }
  }
  const entries: PreviewEntry[] = [];
  for (const region of regions) {
    const page = byPath.get(region.path);
    if (!page) continue;
    let value: unknown;
    try {
      value = getPointer(page.doc, region.pointer);
    } catch {
      value = undefined;
    }
    const changed = page.changed.some((at) => touches(region, at));
    entries.push({ region, value, changed });
  }
  return entries;
}

/**
 * The page fields a review changes that no region of the live page shows.
 *
 * @param pages the review's pages
 * @param regions the regions of the live page
 * @returns `path` and `pointer` of each
 */
export function unseenChanges(
  pages: readonly PreviewPage[],
  regions: readonly PreviewRegion[],
): { path: string; pointer: string }[] {
  return pages.flatMap((page) =>
    page.changed.filter((at) =>
      !regions.some((region) =>
        region.path === page.path && touches(region, at)
      )
    ).map((pointer) => ({ path: page.path, pointer }))
  );
}

/**
 * A review's fields in the shape of History's preview (see
 * `../state/versions.ts`): for each region of one of its pages, the
 * review's value where the review changes the region (`then`), the value
 * now, and whether it differs, so outlined. A region the review does not
 * change keeps its value now (`then` is `undefined`): what the site
 * published since the review was sent stays in view.
 *
 * @example
 * ```ts
 * import { reviewFields } from "./plan.ts";
 *
 * const page = { path: "a.json", content: '{"title":"New","intro":"Hi"}', changed: ["/title"] };
 * const [title, intro] = reviewFields(
 *   [{ path: "a.json", kind: "text", pointer: "/title" }, { path: "a.json", kind: "text", pointer: "/intro" }],
 *   page,
 *   (pointer) => (pointer === "/title" ? "Old" : "Hello"),
 * );
 * console.assert(title?.then === "New" && title.differs);
 * console.assert(intro?.then === undefined && intro?.differs === false);
 * ```
 *
 * @param regions the regions of that page, in order
 * @param page the review's page
 * @param now a field's value now
 * @returns one entry per region, in order
 */
export function reviewFields(
  regions: readonly PreviewRegion[],
  page: PreviewPage,
  now: (pointer: string) => unknown,
): PreviewField[] {
  let doc: PageObject = {};
  try {
    doc = JSON.parse(page.content);
  } catch {
    // A page that is not JSON shows as it is now.
  }
  return previewFields(regions.map((region) => region.pointer), doc, now)
    .map((field, index) =>
      page.changed.some((at) => touches(regions[index]!, at))
        ? field
        : { ...field, then: undefined, differs: false }
    );
}
