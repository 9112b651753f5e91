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

import { REGION_KINDS } from "../../lib/wire/regions.ts";
import { compareFields, type MergeField } from "./merge.ts";
import { createPage, pageNow, type PageState } from "./page.ts";
import { type FieldKind, type Fields, NO_FIELDS, valueAt } from "./fields.ts";
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
  /**
   * The address of the page view the edits were made on (`/en/about/`),
   * to name it when the page is not open; a draft of an earlier overlay
   * has none.
   */
  readonly address?: string | undefined;
  /**
   * The fields that page view showed, so that the same checks as before a
   * publish run on the draft when the page is not open.
   */
  readonly fields?: Fields | undefined;
  /** The changes made to create a key (see `PageState.newKeys`). */
  readonly newKeys?: ReadonlySet<string> | undefined;
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
 * A page's draft: its changes, the values they started from, the fields
 * the page shows and the address of the page view.
 *
 * @param page the page
 * @param savedAt when it is kept
 * @param address the address of the page view (`/en/about/`), if known
 * @returns the draft (with no change when the page has none)
 */
export function draftOf(
  page: PageState,
  savedAt: number,
  address?: string,
): Draft {
  const base = new Map<string, unknown>();
  for (const pointer of page.changes.keys()) {
    base.set(pointer, valueAt(page.base, pointer));
  }
  return {
    savedAt,
    version: page.version,
    base,
    changes: page.changes,
    address,
    fields: page.fields,
    newKeys: page.newKeys,
  };
}

/**
 * The page a draft makes of a page file read again when the page is not
 * open: the file at the version read, the draft's changes (or those it
 * was rebased to) on top, with the fields the draft's page view showed.
 *
 * @param path the page path
 * @param version the version read
 * @param base the page read
 * @param draft the draft
 * @param changes the changes to hold (the draft's by default)
 * @returns the page
 */
export function draftPage(
  path: string,
  version: string,
  base: PageState["base"],
  draft: Draft,
  changes: ReadonlyMap<string, unknown> = draft.changes,
): PageState {
  return {
    ...createPage(path, version, base, draft.fields ?? NO_FIELDS),
    changes,
    newKeys: draft.newKeys ?? new Set(),
  };
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
    ...(draft.address === undefined ? {} : { address: draft.address }),
    ...(draft.fields === undefined ? {} : {
      fields: {
        fixed: [...draft.fields.fixed],
        lists: [...draft.fields.lists].map(([list, inside]) => [list, [
          ...inside,
        ]]),
      },
    }),
    ...(draft.newKeys === undefined ? {} : { newKeys: [...draft.newKeys] }),
  });
}

/** Fields read back, or `undefined` when damaged. */
function decodeFields(value: unknown): Fields | undefined {
  if (typeof value !== "object" || value === null) return undefined;
  const record = value as Record<string, unknown>;
  const kinds = (entries: unknown) => {
    if (!Array.isArray(entries)) return undefined;
    const map = new Map<string, FieldKind>();
    for (const entry of entries) {
      if (
        !Array.isArray(entry) || typeof entry[0] !== "string" ||
        typeof entry[1] !== "string"
      ) return undefined;
      if (!Object.hasOwn(REGION_KINDS, entry[1])) return undefined;
      map.set(entry[0], entry[1] as FieldKind);
    }
    return map;
  };
  const fixed = kinds(record.fixed);
  if (!fixed || !Array.isArray(record.lists)) return undefined;
  const lists = new Map<string, ReadonlyMap<string, FieldKind>>();
  for (const entry of record.lists) {
    const inside = Array.isArray(entry) ? kinds(entry[1]) : undefined;
    if (!inside || typeof entry[0] !== "string") return undefined;
    lists.set(entry[0], inside);
  }
  return { fixed, lists };
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
    const newKeys = Array.isArray(record.newKeys)
      ? new Set(record.newKeys.filter((key) => typeof key === "string"))
      : undefined;
    return {
      savedAt: record.savedAt,
      version: record.version,
      base,
      changes,
      address: typeof record.address === "string" ? record.address : undefined,
      fields: decodeFields(record.fields),
      newKeys,
    };
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
