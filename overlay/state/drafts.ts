/**
 * Drafts as data: the unsaved changes of a page as a tab keeps them (in
 * the browser's storage, see `io/drafts.ts`), so that a reload, a crash, a
 * failed publish or someone else's publish loses nothing. A draft holds
 * the version it was made against and, for each changed field, the value
 * it started from: a draft made against an older version, or beside
 * changes made meanwhile, is folded into the page field by field
 * (three-way). A draft whose every field the page already holds (its own
 * publish, interrupted by a reload) offers nothing.
 *
 * @example
 * ```ts
 * import { createPage } from "./page.ts";
 * import { decodeDraft, draftOf, encodeDraft, offerOf } from "./drafts.ts";
 *
 * const page = createPage("a.json", "v1", { title: "A" });
 * const draft = draftOf({ ...page, changes: new Map([["/title", "B"]]) }, 5);
 * const read = decodeDraft(encodeDraft(draft));
 * console.assert(read?.changes.get("/title") === "B");
 * console.assert(offerOf(page, read!)?.kind === "same");
 * console.assert(offerOf({ ...page, version: "v2", base: { title: "B" } }, read!) === undefined);
 * ```
 *
 * @module
 */

import { compareFields, type MergeField } from "./merge.ts";
import { pageNow, type PageState } from "./page.ts";
import { valueAt } from "./fields.ts";
import { overlaps } from "./pointer.ts";
import { sameValue } from "./values.ts";

/** Edits kept for one page. */
export interface Draft {
  /** When they were last kept, in milliseconds since the epoch. */
  readonly savedAt: number;
  /** The version the edits were made against. */
  readonly version: string;
  /** Each changed field's value at that version, by JSON Pointer. */
  readonly base: ReadonlyMap<string, unknown>;
  /** The changed values, by JSON Pointer. */
  readonly changes: ReadonlyMap<string, unknown>;
}

/** A draft on offer when a page is opened. */
export type DraftOffer =
  /** Made against the version read now, beside no other change. */
  | { readonly kind: "same"; readonly draft: Draft }
  /**
   * Made against an older version, or beside changes made meanwhile: its
   * fields against the page now.
   */
  | {
    readonly kind: "merge";
    readonly draft: Draft;
    readonly fields: readonly MergeField[];
  };

/**
 * A page's draft: its changes and the values they started from.
 *
 * @param page the page
 * @param savedAt when it is kept
 * @returns the draft (with no change when the page has none)
 */
export function draftOf(page: PageState, savedAt: number): Draft {
  const base = new Map<string, unknown>();
  for (const pointer of page.changes.keys()) {
    base.set(pointer, valueAt(page.base, pointer));
  }
  return { savedAt, version: page.version, base, changes: page.changes };
}

/**
 * A draft as text, for storage.
 *
 * @param draft the draft
 * @returns its JSON
 */
export function encodeDraft(draft: Draft): string {
  return JSON.stringify({
    savedAt: draft.savedAt,
    version: draft.version,
    base: [...draft.base],
    changes: [...draft.changes],
  });
}

function entries(value: unknown): Map<string, unknown> | undefined {
  if (!Array.isArray(value)) return undefined;
  const map = new Map<string, unknown>();
  for (const entry of value) {
    if (
      Array.isArray(entry) && entry.length === 2 && typeof entry[0] === "string"
    ) map.set(entry[0], entry[1]);
  }
  return map;
}

/**
 * A draft read back from its text.
 *
 * @param text the stored text
 * @returns the draft, or `undefined` when it is damaged or holds no change
 */
export function decodeDraft(text: string): Draft | undefined {
  try {
    const value: unknown = JSON.parse(text);
    if (typeof value !== "object" || value === null) return undefined;
    const record = value as Record<string, unknown>;
    const changes = entries(record.changes);
    const base = entries(record.base);
    if (
      typeof record.savedAt !== "number" ||
      typeof record.version !== "string" ||
      !changes || !base || changes.size === 0
    ) return undefined;
    return { savedAt: record.savedAt, version: record.version, base, changes };
  } catch {
    return undefined;
  }
}

/**
 * What a draft offers a page: all of it, when it was made against the
 * version read and the page has no change it touches; else its fields
 * against the page now; nothing when the page already holds every one of
 * its values (a publish of its own, or the same edits made again).
 *
 * @param page the page now
 * @param draft the draft
 * @returns the offer, or `undefined` when it offers nothing
 */
export function offerOf(page: PageState, draft: Draft): DraftOffer | undefined {
  const now = pageNow(page);
  const held = [...draft.changes].every(([pointer, value]) =>
    sameValue(valueAt(now, pointer), value)
  );
  if (held) return undefined;
  const touched = [...draft.changes.keys()].some((pointer) =>
    [...page.changes.keys()].some((at) => overlaps(at, pointer))
  );
  if (draft.version === page.version && !touched) {
    return { kind: "same", draft };
  }
  return {
    kind: "merge",
    draft,
    fields: compareFields(draft.base, draft.changes, now),
  };
}
