/// <reference lib="dom" />
/**
 * The page shown from the edit state, once per transaction: the lists in
 * the order their values hold (new items mounted, removed ones gone), each
 * region's value where it changed (not the region typing it), the link
 * objects, and the marks. Images uploaded by a publish are shown under
 * their stored names.
 *
 * @module
 */

import type { Region } from "../regions/region.ts";
import type { EditState } from "../state/state.ts";
import type { Transaction } from "../state/transaction.ts";
import { drawMarks } from "./marks.ts";

/** What the page shows of the state. */
export interface RenderedPage {
  /** Its regions. */
  readonly regions: readonly Region[];
  /** Its lists. */
  readonly lists: {
    update(state: EditState, before: EditState, tr: Transaction): void;
  };
  /** Its link objects. */
  readonly links: { update(state: EditState, before: EditState): void };
}

/**
 * Shows a transaction on the page.
 *
 * @param page the page being edited
 * @param state the state after it
 * @param before the state before it
 * @param tr the transaction
 */
export function render(
  page: RenderedPage,
  state: EditState,
  before: EditState,
  tr: Transaction,
): void {
  for (const step of tr.steps) {
    if (step.type !== "storeImages") continue;
    for (const region of page.regions) {
      for (const [from, to] of step.images) region.alias?.(from, to.src);
    }
  }
  page.lists.update(state, before, tr);
  const typedIn = tr.getMeta("typedIn");
  for (const region of page.regions) {
    if (typedIn === `${region.path} ${region.pointer}`) continue;
    const value = state.valueOf(region.path, region.pointer);
    if (value !== before.valueOf(region.path, region.pointer)) {
      region.show(value);
    }
  }
  page.links.update(state, before);
  drawMarks(state, page.regions);
}
