/**
 * The fields a page shows, and whether a region fits its value. A page's
 * fields are the pointers its regions, lists, links and Page panel edit,
 * each with its kind (`text`, `html`, `image`, `link`, `list`, `fields`,
 * from the region contract). A field inside a list item is kept relative
 * to its list (`/sections` + `/heading`), so that the fields of a page
 * follow its lists as items are added, moved, removed, undone or merged:
 * they are expanded against the list's value of the moment, never a stale
 * index.
 *
 * @example
 * ```ts
 * import { expandFields, fieldsFrom } from "./fields.ts";
 *
 * const fields = fieldsFrom(
 *   [["/title", "text"], ["/sections/0/heading", "text"]],
 *   ["/sections"],
 * );
 * const page = { title: "T", sections: [{ heading: "A" }, { heading: "B" }] };
 * console.assert([...expandFields(fields, page)].length === 4);
 * ```
 *
 * @module
 */

import { fitsKind, type RegionKind } from "../../lib/wire/regions.ts";
import { parsePointer } from "../../lib/wire/pointer.ts";
import { below, getPointer, isWithin } from "./pointer.ts";

/** How a page shows a field: a kind of region from the contract. */
export type FieldKind = RegionKind;

/** The fields a page shows (see the module doc). */
export interface Fields {
  /** Fields outside every list (lists themselves included), by pointer. */
  readonly fixed: ReadonlyMap<string, FieldKind>;
  /**
   * Fields inside the items of each list: list pointer → pointer below
   * the item (`/heading`, or `""` for the item itself) → kind.
   */
  readonly lists: ReadonlyMap<string, ReadonlyMap<string, FieldKind>>;
}

/** No field. */
export const NO_FIELDS: Fields = { fixed: new Map(), lists: new Map() };

/** An item's index as a pointer token: `0`, `12`. */
const INDEX = /^\/(?:0|[1-9]\d*)(?=\/|$)/;

/**
 * The fields of a page from the pointers its regions show and its lists.
 *
 * @param entries each field's pointer and kind
 * @param lists the pointers of the page's lists (their items may be
 *   added, moved and removed)
 * @returns the fields
 */
export function fieldsFrom(
  entries: Iterable<readonly [string, FieldKind]>,
  lists: Iterable<string> = [],
): Fields {
  const listPointers = [...lists];
  const fixed = new Map<string, FieldKind>();
  const inLists = new Map<string, Map<string, FieldKind>>();
  for (const list of listPointers) {
    fixed.set(list, "list");
    inLists.set(list, new Map());
  }
  for (const [pointer, kind] of entries) {
    const list = listPointers.find((list) =>
      pointer !== list && isWithin(pointer, list) &&
      INDEX.test(below(pointer, list))
    );
    if (list === undefined) {
      if (!fixed.has(pointer)) fixed.set(pointer, kind);
      continue;
    }
    const rest = below(pointer, list).replace(INDEX, "");
    inLists.get(list)!.set(rest, kind);
  }
  return { fixed, lists: inLists };
}

/**
 * Every field of a page as it is now: the fixed ones, and those of each
 * item its lists hold now.
 *
 * @param fields the page's fields
 * @param page the page now, changes included
 * @returns each field's pointer and kind
 */
export function* expandFields(
  fields: Fields,
  page: unknown,
): Generator<[string, FieldKind]> {
  for (const [pointer, kind] of fields.fixed) yield [pointer, kind];
  for (const [list, inside] of fields.lists) {
    const items = valueAt(page, list);
    if (!Array.isArray(items)) continue;
    for (let index = 0; index < items.length; index++) {
      for (const [rest, kind] of inside) {
        yield [`${list}/${index}${rest}`, kind];
      }
    }
  }
}

/**
 * The kind of the field holding a place: the field at `at`, or the
 * closest one around it.
 *
 * @param fields the page's fields
 * @param page the page now
 * @param at a JSON Pointer
 * @returns the kind and the field's pointer, if a field holds `at`
 */
export function fieldAt(
  fields: Fields,
  page: unknown,
  at: string,
): { pointer: string; kind: FieldKind } | undefined {
  let best: { pointer: string; kind: FieldKind } | undefined;
  for (const [pointer, kind] of expandFields(fields, page)) {
    if (
      isWithin(at, pointer) && (!best || pointer.length > best.pointer.length)
    ) best = { pointer, kind };
  }
  return best;
}

/**
 * The value at a pointer, `undefined` where nothing is (or the pointer is
 * not one).
 *
 * @param page a page object
 * @param pointer a JSON Pointer
 * @returns the value
 */
export function valueAt(page: unknown, pointer: string): unknown {
  try {
    return getPointer(page, pointer);
  } catch {
    return undefined;
  }
}

/** What a value is, for the sentence saying why a region cannot edit it. */
export type HeldKind =
  | "text"
  | "list"
  | "null"
  | "object"
  | "number"
  | "boolean"
  | "nothing";

/**
 * Why a region cannot edit the value its pointer names: `pointer` (not a
 * JSON Pointer), `missing` (the file holds nothing there), `kind` (another
 * kind of value).
 */
export interface Misfit {
  /** The reason. */
  reason: "pointer" | "missing" | "kind";
  /** For `missing`: the key the file lacks, and the pointer above it. */
  key?: string;
  /** For `missing`: the pointer of the object lacking the key. */
  parent?: string;
  /** For `kind`: what the file holds there. */
  held?: HeldKind;
  /** For `kind` and text held: the text. */
  text?: string;
}

/**
 * What a value is.
 *
 * @param value a JSON value, or `undefined`
 * @returns its kind
 */
export function heldKind(value: unknown): HeldKind {
  if (typeof value === "string") return "text";
  if (Array.isArray(value)) return "list";
  if (value === null) return "null";
  if (typeof value === "object") return "object";
  if (typeof value === "number") return "number";
  if (typeof value === "boolean") return "boolean";
  return "nothing";
}

/**
 * Why a region of a kind cannot edit the value its pointer names, or
 * `undefined` when it can (the region contract decides what fits).
 *
 * @param page the page object
 * @param pointer the region's JSON Pointer
 * @param kind the region's kind
 * @returns the misfit, if any
 */
export function regionFit(
  page: unknown,
  pointer: string,
  kind: FieldKind,
): Misfit | undefined {
  let tokens: string[];
  try {
    tokens = parsePointer(pointer);
  } catch {
    return { reason: "pointer" };
  }
  const value = valueAt(page, pointer);
  if (value === undefined) {
    const key = tokens.at(-1);
    if (key === undefined) return { reason: "pointer" };
    return {
      reason: "missing",
      key,
      parent: pointer.slice(0, pointer.lastIndexOf("/")),
    };
  }
  if (fitsKind(kind, value)) return undefined;
  const held = heldKind(value);
  return held === "text"
    ? { reason: "kind", held, text: value as string }
    : { reason: "kind", held };
}

/**
 * Whether a change at `pointer` would write a key the page does not hold
 * (publish refuses such a change unless it was made to create one).
 *
 * @param page the page as read
 * @param pointer the change's pointer
 * @returns true when nothing is there yet
 */
export function createsKey(page: unknown, pointer: string): boolean {
  return valueAt(page, pointer) === undefined;
}
