/**
 * Unsaved edits kept in the browser's storage, per page file and version,
 * so that a reload, a crash or a failed publish loses nothing.
 *
 * @module
 */

const PREFIX = "inpage-editor:draft:";

/** Edits kept for one page at one version. */
export interface Draft {
  /** When they were last kept, in milliseconds since the epoch. */
  savedAt: number;
  /** The changed values, by JSON Pointer. */
  changes: Map<string, unknown>;
}

/**
 * The storage key of a page's draft at a version.
 *
 * @param path the page path
 * @param version the version the edits started from
 * @returns the key
 */
export function draftKey(path: string, version: string): string {
  return `${PREFIX}${path}@${version}`;
}

/**
 * Keeps a page's changes, or forgets them when there are none.
 *
 * @param storage where to keep them (`localStorage`)
 * @param path the page path
 * @param version the version the edits started from
 * @param changes the changed values, by JSON Pointer
 * @param now the time to record
 */
export function saveDraft(
  storage: Storage,
  path: string,
  version: string,
  changes: ReadonlyMap<string, unknown>,
  now: number = Date.now(),
): void {
  const key = draftKey(path, version);
  try {
    if (changes.size === 0) storage.removeItem(key);
    else {
      storage.setItem(
        key,
        JSON.stringify({ savedAt: now, changes: [...changes] }),
      );
    }
  } catch {
    // Storage full or refused: editing goes on, only the safety net is gone.
  }
}

/**
 * Reads a page's kept changes.
 *
 * @param storage where they were kept
 * @param path the page path
 * @param version the version read now
 * @returns the draft, or `undefined` when none is kept for this version
 */
export function loadDraft(
  storage: Storage,
  path: string,
  version: string,
): Draft | undefined {
  try {
    const text = storage.getItem(draftKey(path, version));
    if (text === null) return undefined;
    const value: unknown = JSON.parse(text);
    if (typeof value !== "object" || value === null) return undefined;
    const { savedAt, changes } = value as Record<string, unknown>;
    if (typeof savedAt !== "number" || !Array.isArray(changes)) {
      return undefined;
    }
    const map = new Map<string, unknown>();
    for (const entry of changes) {
      if (
        Array.isArray(entry) && entry.length === 2 &&
        typeof entry[0] === "string"
      ) {
        map.set(entry[0], entry[1]);
      }
    }
    return map.size > 0 ? { savedAt, changes: map } : undefined;
  } catch {
    return undefined;
  }
}

/**
 * Forgets a page's kept changes.
 *
 * @param storage where they were kept
 * @param path the page path
 * @param version the version they started from
 */
export function clearDraft(
  storage: Storage,
  path: string,
  version: string,
): void {
  try {
    storage.removeItem(draftKey(path, version));
  } catch {
    // Nothing to do.
  }
}
