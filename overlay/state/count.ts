/**
 * How many changes the bar counts: one per field changed; for a list, one
 * per item added, removed or moved, and one per field changed inside the
 * items kept (an image or a link object counts as one field). Items are
 * matched by their `id`, else by their value, else in order, so that
 * adding two copies counts two and undoing one counts one.
 *
 * @example
 * ```ts
 * import { countChange } from "./count.ts";
 *
 * const before = [{ id: "a" }, { id: "b" }];
 * console.assert(countChange(before, [{ id: "a" }, { id: "a-2" }, { id: "b" }]) === 1);
 * console.assert(countChange(before, [{ id: "b" }, { id: "a" }]) === 1);
 * console.assert(countChange("Hi", "Hello") === 1);
 * ```
 *
 * @module
 */

import type { EditState } from "./state.ts";
import { valueAt } from "./fields.ts";
import { isRecord, sameValue } from "./values.ts";

/**
 * The number of changes of every page.
 *
 * @param state the edit state
 * @returns the count the bar shows
 */
export function changeCount(state: EditState): number {
  let count = 0;
  for (const page of state.pages) {
    for (const [pointer, value] of page.changes) {
      count += Math.max(1, countChange(valueAt(page.base, pointer), value));
    }
  }
  return count;
}

/**
 * The number of changes between two values of one field.
 *
 * @param before the value as read
 * @param after the value now
 * @returns 0 when they are the same
 */
export function countChange(before: unknown, after: unknown): number {
  if (sameValue(before, after)) return 0;
  if (Array.isArray(before) && Array.isArray(after)) {
    return countList(before, after);
  }
  if (
    isRecord(before) && isRecord(after) && !isLeaf(before) && !isLeaf(after)
  ) {
    const keys = new Set([...Object.keys(before), ...Object.keys(after)]);
    let count = 0;
    for (const key of keys) count += countChange(before[key], after[key]);
    return count;
  }
  return 1;
}

/** A media or link object counts as one field. */
function isLeaf(value: Record<string, unknown>): boolean {
  return Object.hasOwn(value, "src") || Object.hasOwn(value, "href");
}

function idOf(value: unknown): string | undefined {
  return isRecord(value) && typeof value.id === "string" ? value.id : undefined;
}

/** Items added, removed and moved, and fields changed in items kept. */
function countList(before: unknown[], after: unknown[]): number {
  const pairs = matchItems(before, after);
  const matched = [...pairs.entries()].sort(([a], [b]) => a - b);
  const order = matched.map(([, from]) => from);
  let count = (after.length - pairs.size) + (before.length - pairs.size) +
    (order.length - longestRising(order));
  for (const [to, from] of matched) {
    count += countChange(before[from], after[to]);
  }
  return count;
}

/** Each item of `after` kept from `before`: after index → before index. */
function matchItems(before: unknown[], after: unknown[]): Map<number, number> {
  const pairs = new Map<number, number>();
  const used = new Set<number>();
  const pass = (same: (a: unknown, b: unknown) => boolean) => {
    after.forEach((item, to) => {
      if (pairs.has(to)) return;
      const from = before.findIndex((other, index) =>
        !used.has(index) && same(other, item)
      );
      if (from >= 0) {
        pairs.set(to, from);
        used.add(from);
      }
    });
  };
  pass((a, b) => idOf(a) !== undefined && idOf(a) === idOf(b));
  pass((a, b) => idOf(b) === undefined && sameValue(a, b));
  // What is left pairs in order: the same items, their fields edited.
  const left = before.map((_, index) => index).filter((index) =>
    !used.has(index) && idOf(before[index]) === undefined
  );
  after.forEach((item, to) => {
    if (pairs.has(to) || idOf(item) !== undefined) return;
    const from = left.shift();
    if (from !== undefined) pairs.set(to, from);
  });
  return pairs;
}

/** The length of the longest rising run (not contiguous) of numbers. */
function longestRising(values: number[]): number {
  const tails: number[] = [];
  for (const value of values) {
    let low = 0;
    let high = tails.length;
    while (low < high) {
      const middle = (low + high) >> 1;
      if (tails[middle]! < value) low = middle + 1;
      else high = middle;
    }
    tails[low] = value;
  }
  return tails.length;
}
