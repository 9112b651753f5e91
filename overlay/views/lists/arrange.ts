/// <reference lib="dom" />
/**
 * A list's items on the page, put in the order its value holds: kept items
 * moved (every `data-inpage-*` pointer in them rewritten), new ones cloned
 * from the markup of their source item as the page was served, the others
 * removed. Which element shows which item comes from the operation that
 * made the value (a copy of item 2 is a clone of item 2), or from a value
 * shown before (undo, redo), or by `id`, else by place.
 *
 * @module
 */

import {
  INPAGE_ATTRIBUTES,
  POINTER_ATTRIBUTES,
} from "../../../lib/wire/regions.ts";
import { itemPointer, retarget } from "../../state/lists.ts";
import type { ListOperation } from "../../state/transaction.ts";
import { companions } from "./controls.ts";

/** The markup an item is cloned from, as the page was served. */
export interface Source {
  /** The item's markup. */
  node: HTMLElement;
  /** Its pointer in that markup. */
  pointer: string;
  /** The `id` of its value then, if any. */
  id: string | undefined;
}

/** One list on the page. */
export interface ListView {
  /** The page path. */
  path: string;
  /** The list's pointer. */
  pointer: string;
  /** The element whose children are the items. */
  element: HTMLElement;
  /** Where the items begin. */
  marker: Comment;
  /** The items' elements, in order. */
  items: HTMLElement[];
  /** The markup of a first item, from the list's `<template>`. */
  template: Source | undefined;
  /** The template's first item, as JSON. */
  defaults: string | undefined;
  /** Which elements showed a list value (its JSON). */
  snapshots: Map<string, HTMLElement[]>;
  /** The list value when the items were last arranged. */
  last: unknown[];
  /** The "Add a …" button of an empty list. */
  empty: HTMLElement | undefined;
}

/** What an arrangement does to the regions and controls of its items. */
export interface ArrangeHooks {
  /** The source each item element was cloned from. */
  sources: WeakMap<HTMLElement, Source>;
  /** A removed item's regions go. */
  unmount(item: HTMLElement): void;
  /** A moved item's regions follow. */
  repoint(item: HTMLElement, from: string, to: string): void;
  /** A new item's regions and controls are made. */
  mount(list: ListView, item: HTMLElement, pointer: string): void;
}

/**
 * The `id` of a list item's value, when it has one.
 *
 * @param value the item's value
 * @returns its id
 */
export function idOf(value: unknown): string | undefined {
  if (typeof value !== "object" || value === null) return undefined;
  const id = (value as Record<string, unknown>).id;
  return typeof id === "string" ? id : undefined;
}

/**
 * Rewrites every pointer of an item's markup from one place to another.
 *
 * @param item the item's element
 * @param from its pointer before
 * @param to its pointer after
 */
export function rewrite(item: HTMLElement, from: string, to: string): void {
  for (const name of POINTER_ATTRIBUTES) {
    for (const element of [item, ...item.querySelectorAll(`[${name}]`)]) {
      const value = element.getAttribute(name);
      if (value !== null) element.setAttribute(name, retarget(value, from, to));
    }
  }
}

/**
 * The elements (kept) and sources (to clone) of a list value, in order.
 *
 * @param list the list on the page
 * @param value its new value
 * @param sources the source of each item element
 * @param operation the operation that made it, if it was one of this list
 * @returns one entry per item
 */
export function wanted(
  list: ListView,
  value: unknown[],
  sources: WeakMap<HTMLElement, Source>,
  operation?: ListOperation,
): Array<HTMLElement | Source> {
  const items = list.items;
  const sourceOf = (item: HTMLElement | undefined) =>
    (item && sources.get(item)) ?? list.template!;
  if (operation && value.length === operationLength(operation, items)) {
    const { op, from, to } = operation;
    if (op === "first") return [list.template!];
    if (op === "remove") return items.filter((_, index) => index !== from);
    const next: Array<HTMLElement | Source> = [...items];
    if (op === "copy") next.splice(to, 0, sourceOf(items[from]));
    else next.splice(to, 0, ...next.splice(from, 1));
    return next;
  }
  const snapshot = list.snapshots.get(JSON.stringify(value));
  if (snapshot) {
    return snapshot.map((item) => items.includes(item) ? item : sourceOf(item));
  }
  return match(list, value, sourceOf);
}

function operationLength(operation: ListOperation, items: unknown[]): number {
  return operation.op === "first" ? 1 : items.length +
    (operation.op === "copy" ? 1 : operation.op === "remove" ? -1 : 0);
}

/** Items for a list value no snapshot knows: by id, else by place. */
function match(
  list: ListView,
  value: unknown[],
  sourceOf: (item: HTMLElement | undefined) => Source,
): Array<HTMLElement | Source> {
  const byId = new Map<string, HTMLElement>();
  list.last.forEach((item, index) => {
    const id = idOf(item);
    const element = list.items[index];
    if (id !== undefined && element) byId.set(id, element);
  });
  const used = new Set<HTMLElement>();
  return value.map((item, index) => {
    const id = idOf(item);
    const found = id === undefined ? undefined : byId.get(id);
    if (found && !used.has(found)) {
      used.add(found);
      return found;
    }
    const same = list.items[index];
    if (same && !used.has(same) && idOf(list.last[index]) === id) {
      used.add(same);
      return same;
    }
    return sourceOf(list.items[index] ?? list.items.at(-1));
  });
}

/**
 * Shows a list's items in order: kept items moved (their pointers
 * rewritten), new ones cloned from their source, the others removed.
 *
 * @param list the list on the page
 * @param want the elements and sources, in order
 * @param value the list's value
 * @param hooks what happens to the items' regions and controls
 * @returns the items now
 */
export function arrange(
  list: ListView,
  want: Array<HTMLElement | Source>,
  value: unknown[],
  hooks: ArrangeHooks,
): HTMLElement[] {
  const keep = new Set(want.filter((item) => item instanceof HTMLElement));
  for (const item of list.items) {
    if (keep.has(item)) continue;
    hooks.unmount(item);
    for (const companion of companions(item)) companion.remove();
    item.remove();
  }
  let anchor: ChildNode = list.marker;
  const created: Array<[HTMLElement, string]> = [];
  const next = want.map((entry, index) => {
    const to = itemPointer(list.pointer, index);
    const element = entry instanceof HTMLElement
      ? kept(entry, to, hooks)
      : cloned(entry, to, value[index], hooks);
    if (!(entry instanceof HTMLElement)) created.push([element, to]);
    const group = [element, ...companions(element)];
    if (anchor.nextSibling !== element) anchor.after(...group);
    anchor = group.at(-1)!;
    return element;
  });
  list.items = next;
  list.last = value;
  for (const [element, pointer] of created) hooks.mount(list, element, pointer);
  list.snapshots.set(JSON.stringify(value), [...next]);
  return next;
}

/** A kept item, its pointers rewritten to its new place. */
function kept(element: HTMLElement, to: string, hooks: ArrangeHooks) {
  const from = element.getAttribute(INPAGE_ATTRIBUTES.item) ?? to;
  if (from !== to) {
    rewrite(element, from, to);
    hooks.repoint(element, from, to);
  }
  return element;
}

/** A new item cloned from its source, its pointers and id rewritten. */
function cloned(
  source: Source,
  to: string,
  value: unknown,
  hooks: ArrangeHooks,
): HTMLElement {
  const element = source.node.cloneNode(true) as HTMLElement;
  hooks.sources.set(element, source);
  rewrite(element, source.pointer, to);
  const id = idOf(value);
  if (source.id !== undefined && id !== undefined) {
    for (const tagged of [element, ...element.querySelectorAll("[id]")]) {
      if (tagged.id === source.id) tagged.id = id;
    }
  }
  return element;
}
