/**
 * One page file being edited, as plain data: the page as read at a
 * version, the changes made to it (JSON Pointer → value; a whole list is
 * one value at the list's pointer), the keys some changes may create, the
 * fields its regions show, and what the server refused in it. Functions
 * here answer a new page, never change one.
 *
 * @example
 * ```ts
 * import { createPage, valueOf, withChange } from "./page.ts";
 *
 * const page = createPage("src/content/pages/en/home.json", "v1", {
 *   title: "Hi",
 *   sections: [{ heading: "A" }],
 * });
 * const changed = withChange(page, "/sections/0/heading", "B");
 * console.assert(valueOf(changed, "/sections/0/heading") === "B");
 * console.assert(valueOf(page, "/sections/0/heading") === "A");
 * ```
 *
 * @module
 */

import { type Fields, NO_FIELDS } from "./fields.ts";
import {
  below,
  getPointer,
  isWithin,
  overlaps,
  setPointer,
} from "./pointer.ts";
import {
  applyChanges,
  type Changes,
  type PageObject,
  sameValue,
} from "./values.ts";

/** A place the server refused, from a 422's `problems`. */
export interface Refusal {
  /** The JSON Pointer into the page. */
  at: string;
  /** The stable reason (`markup`, `link`, …). */
  reason: string;
}

/** A page file being edited. */
export interface PageState {
  /** The page path, from `data-inpage-page`. */
  readonly path: string;
  /** The version the changes apply to. */
  readonly version: string;
  /** The page as read at that version. */
  readonly base: PageObject;
  /** The changed values, by JSON Pointer; none lies inside another. */
  readonly changes: Changes;
  /**
   * The changes made to create a key (a list operation, the Page panel):
   * only these may write where the file held nothing.
   */
  readonly newKeys: ReadonlySet<string>;
  /** The fields the page shows. */
  readonly fields: Fields;
  /** What the server refused at the last publish, until changed. */
  readonly refused: readonly Refusal[];
}

/**
 * A page as read, with no change.
 *
 * @param path the page path
 * @param version the version read
 * @param base the page object read
 * @param fields the fields it shows
 * @returns the page
 */
export function createPage(
  path: string,
  version: string,
  base: PageObject,
  fields: Fields = NO_FIELDS,
): PageState {
  return {
    path,
    version,
    base,
    changes: new Map(),
    newKeys: new Set(),
    fields,
    refused: [],
  };
}

/** The pages now, with their changes applied: computed once per page. */
const current = new WeakMap<PageState, PageObject>();

/**
 * A page as it is now, changes included.
 *
 * @param page the page
 * @returns the page object
 */
export function pageNow(page: PageState): PageObject {
  let now = current.get(page);
  if (!now) {
    now = applyChanges(page.base, page.changes);
    current.set(page, now);
  }
  return now;
}

/**
 * The value a field holds now, changes included.
 *
 * @param page the page
 * @param pointer the field
 * @returns its value (`undefined` where nothing is)
 */
export function valueOf(page: PageState, pointer: string): unknown {
  for (const [at, value] of page.changes) {
    if (isWithin(pointer, at)) return safeGet(value, below(pointer, at));
  }
  return safeGet(pageNow(page), pointer);
}

function safeGet(value: unknown, pointer: string): unknown {
  try {
    return getPointer(value, pointer);
  } catch {
    return undefined;
  }
}

/**
 * A page's changes with one more value recorded so that no change lies
 * inside another: inside an already changed value (a list) it is written
 * into that value; around changed fields it replaces them. A value equal
 * to the stored one is no change.
 *
 * @param page the page
 * @param pointer the field
 * @param value its new value
 * @returns the new changes
 */
export function putChange(
  page: PageState,
  pointer: string,
  value: unknown,
): Map<string, unknown> {
  const changes = new Map(page.changes);
  for (const [at, held] of changes) {
    if (at !== pointer && isWithin(pointer, at)) {
      const next = setPointer(held, below(pointer, at), value);
      if (sameValue(next, safeGet(page.base, at))) changes.delete(at);
      else changes.set(at, next);
      return changes;
    }
  }
  for (const at of [...changes.keys()]) {
    if (at !== pointer && isWithin(at, pointer)) changes.delete(at);
  }
  if (sameValue(value, safeGet(page.base, pointer))) changes.delete(pointer);
  else changes.set(pointer, value);
  return changes;
}

/**
 * A page with one more change (see {@linkcode putChange}); what the
 * server refused at or around the field is forgotten.
 *
 * @param page the page
 * @param pointer the field
 * @param value its new value
 * @param newKey whether the change may create a key the file lacks
 * @returns the new page
 */
export function withChange(
  page: PageState,
  pointer: string,
  value: unknown,
  newKey = false,
): PageState {
  return {
    ...page,
    changes: putChange(page, pointer, value),
    newKeys: newKey && !page.newKeys.has(pointer)
      ? new Set([...page.newKeys, pointer])
      : page.newKeys,
    refused: page.refused.filter((refusal) => !overlaps(refusal.at, pointer)),
  };
}

/**
 * A page with its changes replaced as a whole (undo, redo, a restored
 * draft); what the server refused is forgotten.
 *
 * @param page the page
 * @param changes the new changes
 * @returns the new page
 */
export function withChanges(page: PageState, changes: Changes): PageState {
  return { ...page, changes, refused: [] };
}

/**
 * Whether a page has a change at or around a pointer.
 *
 * @param page the page
 * @param pointer a field
 * @returns true when the field's value is changed
 */
export function hasChangeAt(page: PageState, pointer: string): boolean {
  for (const at of page.changes.keys()) {
    if (isWithin(pointer, at)) return true;
  }
  return false;
}
