/// <reference lib="dom" />
/**
 * Dragging a list item by its grip to another place in its list: the
 * place it would drop at is shown on the items, and a drop moves it (one
 * list operation, as Move up and Move down make).
 *
 * @module
 */

import { INPAGE_ATTRIBUTES } from "../../../lib/wire/regions.ts";
import type { ListView } from "./arrange.ts";

const DROP = INPAGE_ATTRIBUTES.drop;

/** The item being dragged, shared by a page's lists. */
export interface Dragged {
  /** The list and item being dragged, if one is. */
  current: { list: ListView; item: HTMLElement } | undefined;
}

/** The index an item dragged over a list would drop at. */
function dropIndex(list: ListView, event: DragEvent): number {
  const items = list.items;
  const across = items.length > 1 &&
    Math.abs(
        items[0]!.getBoundingClientRect().top -
          items[1]!.getBoundingClientRect().top,
      ) < 4;
  for (const [at, item] of items.entries()) {
    const box = item.getBoundingClientRect();
    const middle = across ? box.left + box.width / 2 : box.top + box.height / 2;
    if ((across ? event.clientX : event.clientY) < middle) return at;
  }
  return items.length;
}

/**
 * Lets a list's items be dropped at another place.
 *
 * @param list the list
 * @param dragged the item being dragged
 * @param move moves an item to an index
 */
export function acceptDrops(
  list: ListView,
  dragged: Dragged,
  move: (item: HTMLElement, to: number) => void,
): void {
  const clear = () => {
    for (const item of list.items) item.removeAttribute(DROP);
  };
  list.element.addEventListener("dragover", (event) => {
    if (dragged.current?.list !== list) return;
    const index = dropIndex(list, event);
    event.preventDefault();
    if (event.dataTransfer) event.dataTransfer.dropEffect = "move";
    clear();
    const before = list.items[index];
    if (before) before.setAttribute(DROP, "before");
    else list.items.at(-1)?.setAttribute(DROP, "after");
  });
  list.element.addEventListener("dragleave", (event) => {
    if (!list.element.contains(event.relatedTarget as Node)) clear();
  });
  list.element.addEventListener("drop", (event) => {
    const current = dragged.current;
    if (current?.list !== list) return;
    const index = dropIndex(list, event);
    event.preventDefault();
    clear();
    const from = list.items.indexOf(current.item);
    endDrag(dragged);
    move(current.item, index > from ? index - 1 : index);
  });
}

/**
 * Starts dragging an item from its grip.
 *
 * @param dragged the shared state
 * @param list the item's list
 * @param item the item
 * @param event the grip's dragstart
 * @param noun what an item is called
 */
export function startDrag(
  dragged: Dragged,
  list: ListView,
  item: HTMLElement,
  event: DragEvent,
  noun: string,
): void {
  dragged.current = { list, item };
  item.setAttribute(INPAGE_ATTRIBUTES.dragging, "");
  event.dataTransfer?.setData("text/plain", noun);
  if (event.dataTransfer) {
    event.dataTransfer.effectAllowed = "move";
    event.dataTransfer.setDragImage(item, 12, 12);
  }
}

/**
 * Ends a drag.
 *
 * @param dragged the shared state
 */
export function endDrag(dragged: Dragged): void {
  const current = dragged.current;
  current?.item.removeAttribute(INPAGE_ATTRIBUTES.dragging);
  for (const item of current?.list.items ?? []) item.removeAttribute(DROP);
  dragged.current = undefined;
}
