/**
 * A page's history in the overlay, apart from the DOM: which fields a past
 * version shows differently, the changes a restore makes (the whole page or
 * one field, against what the page holds now, unsaved changes included), the
 * paging of the history answers. A restore is handed to the edit session as ordinary changes, so it
 * is undoable, kept in the draft and published under the lock.
 *
 * @example
 * ```ts
 * import { restorePage } from "./versions.ts";
 *
 * const now = { title: "New", sections: [{ heading: "A" }] };
 * const then = { title: "Old", sections: [{ heading: "A" }] };
 * const changes = restorePage(now, then);
 * console.assert(changes.size === 1 && changes.get("/title") === "Old");
 * ```
 *
 * @module
 */

import type { HistoryAnswer } from "../../lib/wire/mod.ts";
import { escapeToken } from "../../lib/wire/pointer.ts";
import { getPointer } from "./pointer.ts";
import { isRecord, type PageObject, sameValue } from "./values.ts";

/** One publish of a page, as `/api/history` lists it. */
export type HistoryEntry = HistoryAnswer["entries"][number];

/** How many entries one history answer holds at most. */
export const HISTORY_PAGE = 30;

/** A region's field in a previewed version. */
export interface PreviewField {
  /** The field's JSON Pointer. */
  pointer: string;
  /** Its value in that version; `undefined` when the version lacks it. */
  then: unknown;
  /** Its value now, unsaved changes included. */
  now: unknown;
  /** Whether the version holds another value, which can be restored. */
  differs: boolean;
}

/**
 * The fields regions show, in a past version and now.
 *
 * @param pointers the regions' pointers
 * @param version the page as it was in that version
 * @param now a field's value now (the session's `valueOf`)
 * @returns one entry per pointer, in order
 */
export function previewFields(
  pointers: Iterable<string>,
  version: PageObject,
  now: (pointer: string) => unknown,
): PreviewField[] {
  return [...pointers].map((pointer) => {
    const then = getPointer(version, pointer);
    const current = now(pointer);
    return {
      pointer,
      then,
      now: current,
      differs: then !== undefined && !sameValue(then, current),
    };
  });
}

/**
 * The changes that make a page what it was in a past version, each at the
 * deepest place where the two differ: inside objects with the same keys and
 * arrays of the same length, otherwise the whole object or array (at the
 * top, the whole page when its keys differ).
 *
 * @param now the page now, unsaved changes included
 * @param then the page in that version
 * @returns new values by JSON Pointer; none when they are the same
 */
export function restorePage(
  now: unknown,
  then: unknown,
): Map<string, unknown> {
  const changes = new Map<string, unknown>();
  const walk = (a: unknown, b: unknown, at: string) => {
    if (sameValue(a, b)) return;
    if (Array.isArray(a) && Array.isArray(b) && a.length === b.length) {
      b.forEach((item, index) => walk(a[index], item, `${at}/${index}`));
      return;
    }
    if (
      isRecord(a) && isRecord(b) && sameKeys(a, b)
    ) {
      for (const key of Object.keys(b)) {
        walk(a[key], b[key], `${at}/${escapeToken(key)}`);
      }
      return;
    }
    changes.set(at, structuredClone(b));
  };
  walk(now, then, "");
  return changes;
}

/**
 * The change that gives one field its value of a past version.
 *
 * @param field the field as {@linkcode previewFields} compared it
 * @returns its pointer and old value; none when the version lacks the field
 *   or holds the value it has now
 */
export function restoreField(field: PreviewField): Map<string, unknown> {
  return field.differs
    ? new Map([[field.pointer, structuredClone(field.then)]])
    : new Map();
}

/**
 * Adds a history answer to the entries shown, leaving out any already there.
 *
 * @param shown the entries shown so far, newest first
 * @param answer the next answer's entries
 * @returns every entry, and whether older ones may follow (a full answer)
 */
export function addEntries(
  shown: readonly HistoryEntry[],
  answer: readonly HistoryEntry[],
): { entries: HistoryEntry[]; more: boolean } {
  const seen = new Set(shown.map((entry) => entry.commit));
  return {
    entries: [...shown, ...answer.filter((entry) => !seen.has(entry.commit))],
    more: answer.length >= HISTORY_PAGE,
  };
}

/**
 * Every field a past version holds differently from now, at the deepest
 * place where they differ (see {@linkcode restorePage}): what the History
 * preview offers to restore one by one, whether a region shows it or not
 * (a description, a link's address).
 *
 * @param now the page now, unsaved changes included
 * @param then the page in that version
 * @returns one entry per place, in document order
 */
export function differingFields(now: unknown, then: unknown): PreviewField[] {
  return [...restorePage(now, then)].map(([pointer, value]) => {
    let current: unknown;
    try {
      current = getPointer(now, pointer);
    } catch {
      current = undefined;
    }
    return { pointer, then: value, now: current, differs: true };
  });
}

function sameKeys(
  a: Record<string, unknown>,
  b: Record<string, unknown>,
): boolean {
  const keys = Object.keys(a);
  return keys.length === Object.keys(b).length &&
    keys.every((key) => Object.hasOwn(b, key));
}
