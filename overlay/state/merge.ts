/**
 * The three-way merge behind "Keep mine": this person's changed fields
 * (mine), the values they started from (base) and the page as someone else
 * published it meanwhile (theirs), compared field by field. A field changed
 * on one side only takes that side; a field changed on both sides to
 * different values is a clash, settled by a choice per field.
 *
 * @module
 */

import type { PageObject } from "./values.ts";
import { getPointer, setPointer } from "./pointer.ts";
import { sameValue } from "./values.ts";

/** One changed field, seen from the three sides. */
export interface MergeField {
  /** Its JSON Pointer. */
  pointer: string;
  /** The value this person started from. */
  base: unknown;
  /** This person's value. */
  mine: unknown;
  /** The value published meanwhile (`undefined` when its place is gone). */
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
 * @param base the values this person started from, by pointer (or a whole
 *   page to read them from)
 * @param mine this person's values, by pointer
 * @param theirs the page published meanwhile
 * @returns one entry per changed field, in the order of `mine`
 */
export function compareFields(
  base: ReadonlyMap<string, unknown> | PageObject,
  mine: ReadonlyMap<string, unknown>,
  theirs: PageObject,
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

/** The outcome of {@linkcode keepMine}. */
export type MergeResult =
  | { ok: true; page: PageObject }
  | { ok: false; clashes: string[] };

/**
 * Re-applies changed fields onto a fresh page, refusing when any field
 * changed on both sides.
 *
 * @param base the page this person started from
 * @param fresh the page published meanwhile
 * @param changes this person's values, by pointer
 * @returns the merged page, or the clashing pointers
 */
export function keepMine(
  base: PageObject,
  fresh: PageObject,
  changes: ReadonlyMap<string, unknown>,
): MergeResult {
  const fields = compareFields(base, changes, fresh);
  const clashes = fields.filter((field) => field.clash).map((f) => f.pointer);
  if (clashes.length > 0) return { ok: false, clashes };
  let page = fresh;
  for (const field of fields) {
    page = setPointer(page, field.pointer, field.mine);
  }
  return { ok: true, page };
}
