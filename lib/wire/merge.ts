/**
 * The per-field three-way merge, the one implementation of the package:
 * the overlay's "Keep mine" (a person's changed fields re-applied onto the
 * page someone else published meanwhile) and the server's publish of a
 * review (the review's field changes applied onto the site branch's
 * current file) both compare fields here. Three sides: the base (what the
 * change was made from), mine (the change) and theirs (the page as it is
 * now). A field changed on one side only takes that side; a field changed
 * on both sides to different values is a clash. Pure functions over JSON
 * values, no host API: it runs in the browser as on the server.
 *
 * @example
 * ```ts
 * import { mergePages } from "./merge.ts";
 * import assert from "node:assert/strict";
 *
 * const base = { title: "Home", intro: "Hello" };
 * const mine = { title: "Welcome", intro: "Hello" };
 * const theirs = { title: "Home", intro: "Hi there" };
 * assert.deepEqual(mergePages(base, mine, theirs), {
 *   ok: true,
 *   page: { title: "Welcome", intro: "Hi there" },
 * });
 * ```
 *
 * @module
 */

import {
  formatPointer,
  getPointer,
  parsePointer,
  setPointer,
} from "./pointer.ts";

/** A JSON object, as a page file's top level. */
export type JsonObject = { [key: string]: unknown };

/**
 * Whether two JSON values are equal, deeply.
 *
 * @example
 * ```ts
 * import { sameValue } from "./merge.ts";
 * import assert from "node:assert/strict";
 *
 * assert.ok(sameValue({ a: [1, { b: "c" }] }, { a: [1, { b: "c" }] }));
 * assert.ok(!sameValue([], {}));
 * ```
 *
 * @param a one value
 * @param b the other
 * @returns true when they hold the same JSON
 */
export function sameValue(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (typeof a !== "object" || typeof b !== "object" || !a || !b) return false;
  if (Array.isArray(a) !== Array.isArray(b)) return false;
  const left = a as Record<string, unknown>;
  const right = b as Record<string, unknown>;
  const keys = Object.keys(left);
  if (keys.length !== Object.keys(right).length) return false;
  return keys.every((key) =>
    Object.hasOwn(right, key) && sameValue(left[key], right[key])
  );
}

/** One changed field, seen from the three sides. */
export interface MergeField {
  /** Its JSON Pointer. */
  pointer: string;
  /** The value the change started from. */
  base: unknown;
  /** The changed value (`undefined`: the key removed). */
  mine: unknown;
  /** The value now (`undefined` when its place is gone). */
  theirs: unknown;
  /** Whether both sides changed it to different values. */
  clash: boolean;
  /** Whether its place no longer exists in theirs, so mine cannot be kept. */
  gone: boolean;
}

/** Which side to keep for a clashing field. */
export type Choice = "mine" | "theirs";

/**
 * Compares every changed field on the three sides.
 *
 * @example
 * ```ts
 * import { compareFields } from "./merge.ts";
 * import assert from "node:assert/strict";
 *
 * const [field] = compareFields(
 *   { title: "Home" },
 *   new Map([["/title", "Mine"]]),
 *   { title: "Theirs" },
 * );
 * assert.equal(field?.clash, true);
 * ```
 *
 * @param base the values the change started from, by pointer (or a whole
 *   page to read them from)
 * @param mine the changed values, by pointer
 * @param theirs the page as it is now
 * @returns one entry per changed field, in the order of `mine`
 */
export function compareFields(
  base: ReadonlyMap<string, unknown> | JsonObject,
  mine: ReadonlyMap<string, unknown>,
  theirs: JsonObject,
): MergeField[] {
  const baseOf = (pointer: string) =>
    base instanceof Map ? base.get(pointer) : getPointer(base, pointer);
  const fields: MergeField[] = [];
  for (const [pointer, value] of mine) {
    const before = baseOf(pointer);
    const now = getPointer(theirs, pointer);
    let gone = false;
    try {
      setPointer(theirs, pointer, value);
    } catch {
      gone = true;
    }
    const clash = gone ||
      (!sameValue(before, now) && !sameValue(now, value));
    fields.push({
      pointer,
      base: before,
      mine: value,
      theirs: now,
      clash,
      gone,
    });
  }
  return fields;
}

/**
 * The changes to make on top of theirs: every field changed on this side
 * only, and each clashing field whose choice is "mine".
 *
 * @example
 * ```ts
 * import { compareFields, resolveFields } from "./merge.ts";
 * import assert from "node:assert/strict";
 *
 * const fields = compareFields(
 *   { title: "Home" },
 *   new Map([["/title", "Mine"]]),
 *   { title: "Theirs" },
 * );
 * assert.deepEqual(resolveFields(fields), { ok: false, undecided: ["/title"] });
 * ```
 *
 * @param fields the compared fields
 * @param choices the choice for each clashing field (missing: none yet)
 * @returns the changes, or the pointers still waiting for a choice
 */
export function resolveFields(
  fields: readonly MergeField[],
  choices: ReadonlyMap<string, Choice> = new Map(),
): { ok: true; changes: Map<string, unknown> } | {
  ok: false;
  undecided: string[];
} {
  const changes = new Map<string, unknown>();
  const undecided: string[] = [];
  for (const field of fields) {
    if (!field.clash) {
      if (!sameValue(field.mine, field.theirs)) {
        changes.set(field.pointer, field.mine);
      }
      continue;
    }
    const choice = field.gone ? "theirs" : choices.get(field.pointer);
    if (choice === undefined) undecided.push(field.pointer);
    else if (choice === "mine") changes.set(field.pointer, field.mine);
  }
  return undecided.length > 0
    ? { ok: false, undecided }
    : { ok: true, changes };
}

/** The outcome of {@linkcode keepMine} and {@linkcode mergePages}. */
export type MergeResult<T = JsonObject> =
  | { ok: true; page: T }
  | { ok: false; clashes: string[] };

/**
 * Re-applies changed fields onto a fresh page, refusing when any field
 * changed on both sides.
 *
 * @example
 * ```ts
 * import { keepMine } from "./merge.ts";
 * import assert from "node:assert/strict";
 *
 * const result = keepMine(
 *   { title: "Home", intro: "Hello" },
 *   { title: "Home", intro: "Hi" },
 *   new Map([["/title", "Welcome"]]),
 * );
 * assert.deepEqual(result, { ok: true, page: { title: "Welcome", intro: "Hi" } });
 * ```
 *
 * @param base the page the change started from
 * @param fresh the page published meanwhile
 * @param changes the changed values, by pointer
 * @returns the merged page, or the clashing pointers
 */
export function keepMine<T extends JsonObject>(
  base: JsonObject,
  fresh: T,
  changes: ReadonlyMap<string, unknown>,
): MergeResult<T> {
  const fields = compareFields(base, changes, fresh);
  const clashes = fields.filter((field) => field.clash).map((f) => f.pointer);
  if (clashes.length > 0) return { ok: false, clashes };
  let page = fresh;
  for (const field of fields) {
    page = setPointer(page, field.pointer, field.mine);
  }
  return { ok: true, page };
}

/** An object that stands for an image: compared and merged as one field. */
function isMedia(value: unknown): boolean {
  return isObject(value) && typeof value.src === "string";
}

function isObject(value: unknown): value is JsonObject {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/** The `id` of an array item, when it has one. */
function idOf(item: unknown): unknown {
  return isObject(item) ? item.id : undefined;
}

/**
 * Whether two arrays hold the same items in the same places (same length,
 * and the same `id` at each index where items have one), so that a field
 * inside an item names the same item on both sides.
 */
function sameItems(a: readonly unknown[], b: readonly unknown[]): boolean {
  return a.length === b.length &&
    a.every((item, index) => sameValue(idOf(item), idOf(b[index])));
}

/**
 * The fields a change made, as a pointer → new value map (`undefined`: the
 * key was removed). Objects are compared key by key; an array whose items
 * kept their places (same length, same `id`s) item by item; anything else
 * (a list reordered, grown or shrunk; a value of another type; an image,
 * an object with a `src`) is one field, changed as a whole, as the overlay
 * changes a list or an image.
 *
 * @example
 * ```ts
 * import { changedFields } from "./merge.ts";
 * import assert from "node:assert/strict";
 *
 * const base = { title: "Home", list: [{ id: "a", t: "x" }], old: 1 };
 * const mine = { title: "Home", list: [{ id: "a", t: "y" }], added: true };
 * assert.deepEqual(
 *   [...changedFields(base, mine)],
 *   [["/list/0/t", "y"], ["/old", undefined], ["/added", true]],
 * );
 * ```
 *
 * @param base the value the change started from
 * @param mine the changed value
 * @returns the changed fields, in document order (removed keys before added)
 */
export function changedFields(
  base: unknown,
  mine: unknown,
): Map<string, unknown> {
  const changes = new Map<string, unknown>();
  const walk = (
    before: unknown,
    after: unknown,
    tokens: (string | number)[],
  ) => {
    if (sameValue(before, after)) return;
    if (
      isObject(before) && isObject(after) && !isMedia(before) &&
      !isMedia(after)
    ) {
      for (const key of Object.keys(before)) {
        walk(before[key], Object.hasOwn(after, key) ? after[key] : undefined, [
          ...tokens,
          key,
        ]);
      }
      for (const key of Object.keys(after)) {
        if (!Object.hasOwn(before, key)) {
          changes.set(formatPointer([...tokens, key]), after[key]);
        }
      }
      return;
    }
    if (
      Array.isArray(before) && Array.isArray(after) &&
      sameItems(before, after)
    ) {
      before.forEach((item, index) =>
        walk(item, after[index], [...tokens, index])
      );
      return;
    }
    changes.set(formatPointer(tokens), after);
  };
  walk(base, mine, []);
  return changes;
}

/**
 * Whether a pointer names the same place in theirs as in the base: every
 * array on its way kept its items in their places.
 */
function samePlace(base: unknown, theirs: unknown, pointer: string): boolean {
  let left = base;
  let right = theirs;
  for (const token of parsePointer(pointer)) {
    if (Array.isArray(left) || Array.isArray(right)) {
      if (
        !Array.isArray(left) || !Array.isArray(right) ||
        !sameItems(left, right)
      ) {
        return false;
      }
    }
    left = isObject(left) || Array.isArray(left)
      ? (left as Record<string, unknown>)[token]
      : undefined;
    right = isObject(right) || Array.isArray(right)
      ? (right as Record<string, unknown>)[token]
      : undefined;
  }
  return true;
}

/**
 * Applies a change made from `base` (giving `mine`) onto `theirs`, field by
 * field (see {@linkcode changedFields}): a field changed on one side only
 * takes that side; a field changed on both sides to different values, or
 * whose place moved or is gone in theirs (an item of a list reordered
 * there), is a clash, and nothing is merged.
 *
 * @example
 * ```ts
 * import { mergePages } from "./merge.ts";
 * import assert from "node:assert/strict";
 *
 * const base = { title: "Home" };
 * assert.deepEqual(
 *   mergePages(base, { title: "Mine" }, { title: "Theirs" }),
 *   { ok: false, clashes: ["/title"] },
 * );
 * ```
 *
 * With `choices`, a clash that has one is settled: `theirs` keeps the
 * value now, `mine` takes the change's (unless its place is gone or moved
 * now: then it stays a clash).
 *
 * @param base the page the change started from
 * @param mine the changed page
 * @param theirs the page as it is now
 * @param choices a choice for clashing fields, by pointer (none: every
 *   clash refuses the merge)
 * @returns the merged page (a fresh JSON value), or the clashing pointers in
 *   document order
 */
export function mergePages(
  base: JsonObject,
  mine: JsonObject,
  theirs: JsonObject,
  choices: ReadonlyMap<string, Choice> = new Map(),
): MergeResult {
  const changes = changedFields(base, mine);
  const clashes: string[] = [];
  let page: JsonObject = theirs;
  for (const field of compareFields(base, changes, theirs)) {
    // A value equal to mine in an item that moved there is another item's.
    const placed = !field.gone && samePlace(base, theirs, field.pointer);
    if (placed && sameValue(field.theirs, field.mine)) continue;
    if (!placed || !sameValue(field.base, field.theirs)) {
      const choice = choices.get(field.pointer);
      if (choice === "theirs") continue;
      if (choice !== "mine" || !placed) {
        clashes.push(field.pointer);
        continue;
      }
    }
    page = setPointer(page, field.pointer, field.mine);
  }
  if (clashes.length > 0) return { ok: false, clashes };
  // A removed key was set to `undefined`: a JSON round trip drops it.
  return { ok: true, page: JSON.parse(JSON.stringify(page)) };
}
