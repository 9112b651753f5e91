/**
 * List operations on a page's values, apart from the DOM: copy an item
 * (its ids made fresh), remove one, move one, give an empty list its first
 * item; and the pointer rewriting that keeps a list's markup pointing at
 * the right items. A list operation is one change of the whole list at its
 * pointer in the edit state, made by the commands at the end of this
 * module: one transaction, one undo step.
 *
 * @example
 * ```ts
 * import { copyItem, moveItem, retarget } from "./lists.ts";
 *
 * const page = { sections: [{ id: "a" }, { id: "b" }] };
 * const copied = copyItem(page.sections, 1, page);
 * const id = (item: unknown) => (item as { id: string }).id;
 * console.assert(id(copied[2]) === "b-2");
 * console.assert(id(moveItem(copied, 2, 0)[0]) === "b-2");
 * console.assert(
 *   retarget("/sections/1/heading", "/sections/1", "/sections/2") ===
 *     "/sections/2/heading",
 * );
 * ```
 *
 * @module
 */

import type { EditState } from "./state.ts";
import type { ListOperation, Transaction } from "./transaction.ts";
import { below, isWithin } from "./pointer.ts";

/** What the page rules accept as an id. */
const ID = /^[A-Za-z0-9][A-Za-z0-9_-]{0,63}$/;

/**
 * Every string held under an `id` key (whatever its case) anywhere in a
 * value: the ids a page already uses.
 *
 * @param value a page, or any part of one
 * @returns the ids
 */
export function idsIn(value: unknown): Set<string> {
  const found = new Set<string>();
  const stack: unknown[] = [value];
  while (stack.length > 0) {
    const next = stack.pop();
    if (typeof next !== "object" || next === null) continue;
    if (Array.isArray(next)) {
      stack.push(...next);
      continue;
    }
    for (const [key, child] of Object.entries(next)) {
      if (key.toLowerCase() === "id" && typeof child === "string") {
        found.add(child);
      } else stack.push(child);
    }
  }
  return found;
}

/**
 * An id not yet taken, made from another: `rules` gives `rules-2`, then
 * `rules-3`; `rules-2` gives `rules-3`. It is added to `taken`.
 *
 * @param id the id copied
 * @param taken the ids in use
 * @returns the fresh id
 */
export function freshId(id: string, taken: Set<string>): string {
  const stem = (id.replace(/-\d+$/, "") || "item").slice(0, 56);
  const base = ID.test(stem) ? stem : "item";
  for (let n = 2;; n++) {
    const candidate = `${base}-${n}`;
    if (!taken.has(candidate)) {
      taken.add(candidate);
      return candidate;
    }
  }
}

/** A deep copy of a JSON value whose `id` strings are all made fresh. */
function withFreshIds(value: unknown, taken: Set<string>): unknown {
  if (typeof value !== "object" || value === null) return value;
  if (Array.isArray(value)) return value.map((v) => withFreshIds(v, taken));
  return Object.fromEntries(
    Object.entries(value).map(([key, child]) => [
      key,
      key.toLowerCase() === "id" && typeof child === "string"
        ? freshId(child, taken)
        : withFreshIds(child, taken),
    ]),
  );
}

/**
 * A list with a copy of one item inserted after it; every id in the copy
 * is fresh, unique in the whole page, so the copy is never refused as a
 * `duplicate_id`.
 *
 * @param list the list now
 * @param index the item to copy
 * @param page the whole page now (for the ids in use)
 * @returns the new list (the old one is left alone)
 */
export function copyItem(
  list: readonly unknown[],
  index: number,
  page: unknown,
): unknown[] {
  const copy = withFreshIds(list[index], idsIn(page));
  return [...list.slice(0, index + 1), copy, ...list.slice(index + 1)];
}

/**
 * A list without one item.
 *
 * @param list the list now
 * @param index the item to remove
 * @returns the new list
 */
export function removeItem(list: readonly unknown[], index: number): unknown[] {
  return list.filter((_, at) => at !== index);
}

/**
 * A list with one item moved to another position.
 *
 * @param list the list now
 * @param from the item's index
 * @param to its index afterwards
 * @returns the new list
 */
export function moveItem(
  list: readonly unknown[],
  from: number,
  to: number,
): unknown[] {
  const next = [...list];
  const [item] = next.splice(from, 1);
  next.splice(Math.max(0, Math.min(to, next.length)), 0, item);
  return next;
}

/**
 * A list's first item, from its template's default JSON; ids in it are
 * made fresh when the page already uses them.
 *
 * @param written the `data-inpage-default` attribute
 * @param page the whole page now
 * @returns the list of one item, or `undefined` when the JSON is not valid
 */
export function firstItem(
  written: string,
  page: unknown,
): unknown[] | undefined {
  let value: unknown;
  try {
    value = JSON.parse(written);
  } catch {
    return undefined;
  }
  const taken = idsIn(page);
  const clash = [...idsIn(value)].some((id) => taken.has(id));
  return [clash ? withFreshIds(value, taken) : value];
}

/**
 * A pointer moved with the item holding it.
 *
 * @param pointer a pointer in the markup
 * @param from the item's pointer before
 * @param to the item's pointer after
 * @returns the rewritten pointer (unchanged when not inside `from`)
 */
export function retarget(pointer: string, from: string, to: string): string {
  return isWithin(pointer, from) ? to + below(pointer, from) : pointer;
}

/**
 * The pointer of a list's item.
 *
 * @param list the list's pointer
 * @param index the item's index
 * @returns `/sections/2` for `/sections` and 2
 */
export function itemPointer(list: string, index: number): string {
  return `${list}/${index}`;
}

/**
 * The command of a list operation: the list's new value as one change
 * (which may create the list: a first item), one undo step of its own,
 * with the operation in its metadata for the views that show lists.
 *
 * @param state the edit state
 * @param path the page path
 * @param operation the operation (`copy`, `remove`, `move`, `first`)
 * @param template for `first`: the template's `data-inpage-default`
 * @returns the transaction, or `undefined` when it cannot be done now
 *   (a publish under way, an index outside the list, a template that is
 *   not JSON)
 */
export function listCommand(
  state: EditState,
  path: string,
  operation: ListOperation,
  template?: string,
): Transaction | undefined {
  if (state.busy || !state.page(path)) return undefined;
  const now = state.valueOf(path, operation.list);
  const list = Array.isArray(now) ? now : [];
  const { op, from, to } = operation;
  let next: unknown[] | undefined;
  if (op === "first") {
    next = list.length === 0
      ? firstItem(template ?? "", state.valueOf(path, ""))
      : undefined;
  } else if (from < 0 || from >= list.length) next = undefined;
  else if (op === "copy") next = copyItem(list, from, state.valueOf(path, ""));
  else if (op === "remove") next = removeItem(list, from);
  else if (to >= 0 && to < list.length && to !== from) {
    next = moveItem(list, from, to);
  }
  if (!next) return undefined;
  return state.tr.change(path, operation.list, next, { newKey: true })
    .setMeta("origin", "list").setMeta("list", operation);
}
