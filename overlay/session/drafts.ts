/**
 * Unsaved edits kept in the browser's storage, one draft per page file, so
 * that a reload, a crash, a failed publish or someone else's publish loses
 * nothing. A draft holds the version it was made against and, for each
 * changed field, the value it started from: a draft made against an older
 * version can still be folded into the current one (three-way, field by
 * field).
 *
 * @module
 */

const PREFIX = "inpage-editor:draft:";

/** The little of the Web Storage API drafts use (`localStorage`). */
export interface DraftStore {
  /** Reads an item. */
  getItem(key: string): string | null;
  /** Writes an item. */
  setItem(key: string, value: string): void;
  /** Removes an item. */
  removeItem(key: string): void;
  /** The key at an index. */
  key(index: number): string | null;
  /** How many items there are. */
  readonly length: number;
}

/** Edits kept for one page. */
export interface Draft {
  /** When they were last kept, in milliseconds since the epoch. */
  savedAt: number;
  /** The version the edits were made against. */
  version: string;
  /** Each changed field's value at that version, by JSON Pointer. */
  base: Map<string, unknown>;
  /** The changed values, by JSON Pointer. */
  changes: Map<string, unknown>;
}

/**
 * The storage key of a page's draft.
 *
 * @param path the page path
 * @returns the key
 */
export function draftKey(path: string): string {
  return `${PREFIX}${path}`;
}

/**
 * Keeps a page's draft, or forgets it when it holds no change.
 *
 * @param storage where to keep it
 * @param path the page path
 * @param draft the draft
 */
export function saveDraft(
  storage: DraftStore,
  path: string,
  draft: Draft,
): void {
  try {
    if (draft.changes.size === 0) storage.removeItem(draftKey(path));
    else {
      storage.setItem(
        draftKey(path),
        JSON.stringify({
          savedAt: draft.savedAt,
          version: draft.version,
          base: [...draft.base],
          changes: [...draft.changes],
        }),
      );
    }
  } catch {
    // Storage full or refused: editing goes on, only the safety net is gone.
  }
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
 * Reads a page's draft, whatever version it was made against.
 *
 * @param storage where it was kept
 * @param path the page path
 * @returns the draft, or `undefined` when none is kept (or it is damaged)
 */
export function loadDraft(
  storage: DraftStore,
  path: string,
): Draft | undefined {
  try {
    const text = storage.getItem(draftKey(path));
    if (text === null) return undefined;
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
 * Forgets a page's draft, and any draft an earlier overlay kept for it per
 * version (`…{path}@{version}`).
 *
 * @param storage where it was kept
 * @param path the page path
 */
export function clearDraft(storage: DraftStore, path: string): void {
  try {
    const key = draftKey(path);
    const stale: string[] = [];
    for (let index = 0; index < storage.length; index++) {
      const name = storage.key(index);
      if (name === key || name?.startsWith(`${key}@`)) stale.push(name);
    }
    for (const name of stale) storage.removeItem(name);
  } catch {
    // Nothing to do.
  }
}
