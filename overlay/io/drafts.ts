/**
 * Drafts in the browser's storage (`localStorage`): one per page file and
 * per tab, so that two tabs editing one page never overwrite each other's
 * work. A tab keeps its own draft up to date as its changes change
 * ({@linkcode keepDrafts}); when a page is opened, its own draft (same tab,
 * after a reload) and the drafts of tabs no longer open are offered back
 * (`../flows/drafts.ts`). A draft an earlier overlay kept per page
 * (`…{path}`, or `…{path}@{version}`) belongs to no tab: it is offered like
 * a closed tab's.
 *
 * @module
 */

import {
  decodeDraft,
  type Draft,
  draftOf,
  encodeDraft,
} from "../state/drafts.ts";
import type { Store } from "../store.ts";

const PREFIX = "inpage-editor:draft:";

/** The little of the Web Storage API drafts use (`localStorage`). */
export interface DraftStorage {
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

/** A draft kept in storage, with the tab that keeps it. */
export interface KeptDraft {
  /** The tab's id; `""` for a draft kept by an earlier overlay. */
  tab: string;
  /** The draft. */
  draft: Draft;
}

/**
 * The storage key of a page's draft in a tab.
 *
 * @param path the page path
 * @param tab the tab's id
 * @returns the key
 */
export function draftKey(path: string, tab: string): string {
  return `${PREFIX}${path}#${tab}`;
}

/** The drafts of one tab, and the others' to offer. */
export class Drafts {
  readonly #storage: DraftStorage | undefined;
  /** This tab's id. */
  readonly tab: string;

  /**
   * @param storage where drafts are kept; none: nothing is kept
   * @param tab this tab's id
   */
  constructor(storage: DraftStorage | undefined, tab: string) {
    this.#storage = storage;
    this.tab = tab;
  }

  /**
   * Keeps this tab's draft of a page, or forgets it when it holds no
   * change. Storage full or refused: editing goes on without it.
   *
   * @param path the page path
   * @param draft the draft
   */
  save(path: string, draft: Draft): void {
    this.put(path, this.tab, draft);
  }

  /**
   * Keeps a tab's draft of a page (its images renamed after a reload).
   *
   * @param path the page path
   * @param tab the tab's id
   * @param draft the draft
   */
  put(path: string, tab: string, draft: Draft): void {
    try {
      if (draft.changes.size === 0) {
        this.#storage?.removeItem(draftKey(path, tab));
      } else {
        this.#storage?.setItem(draftKey(path, tab), encodeDraft(draft));
      }
    } catch {
      // Only the safety net is gone.
    }
  }

  /**
   * Every draft kept for a page, this tab's first, then the others' (an
   * earlier overlay's as tab `""`), oldest first.
   *
   * @param path the page path
   * @returns the drafts
   */
  all(path: string): KeptDraft[] {
    const found: KeptDraft[] = [];
    for (const key of this.#keys(path)) {
      const text = this.#read(key);
      const draft = text === null ? undefined : decodeDraft(text);
      if (draft) found.push({ tab: tabOf(key, path), draft });
    }
    return found.sort((a, b) =>
      Number(b.tab === this.tab) - Number(a.tab === this.tab) ||
      a.draft.savedAt - b.draft.savedAt
    );
  }

  /**
   * This tab's drafts of the pages it does not show now: the work it did
   * on other page views, which Send for review carries too. The drafts it
   * set aside, and the other tabs', are not among them.
   *
   * @param shown the page paths shown now
   * @returns each page path with this tab's draft, oldest first
   */
  elsewhere(shown: Iterable<string>): Array<{ path: string; draft: Draft }> {
    const skip = new Set(shown);
    const suffix = `#${this.tab}`;
    const found: Array<{ path: string; draft: Draft }> = [];
    try {
      const storage = this.#storage;
      for (let index = 0; storage && index < storage.length; index++) {
        const key = storage.key(index);
        if (!key?.startsWith(PREFIX) || !key.endsWith(suffix)) continue;
        const path = key.slice(PREFIX.length, -suffix.length);
        const text = this.#read(key);
        const draft = text === null ? undefined : decodeDraft(text);
        if (draft && !skip.has(path)) found.push({ path, draft });
      }
    } catch {
      // Storage refused: no draft.
    }
    return found.sort((a, b) => a.draft.savedAt - b.draft.savedAt);
  }

  /**
   * Forgets a tab's draft of a page (this tab's when none is named).
   *
   * @param path the page path
   * @param tab the tab's id (`""`: an earlier overlay's drafts)
   */
  clear(path: string, tab: string = this.tab): void {
    for (const key of this.#keys(path)) {
      if (tabOf(key, path) !== tab) continue;
      try {
        this.#storage?.removeItem(key);
      } catch {
        // Nothing to do.
      }
    }
  }

  /**
   * Sets this tab's draft of a page aside, unanswered: kept under an id no
   * tab holds, it is offered again at the next opening, and the changes
   * made meanwhile do not overwrite it.
   *
   * @param path the page path
   */
  setAside(path: string): void {
    const key = draftKey(path, this.tab);
    const text = this.#read(key);
    if (text === null) return;
    const aside = `aside-${crypto.getRandomValues(new Uint32Array(1))[0]}`;
    try {
      this.#storage?.setItem(draftKey(path, aside), text);
      this.#storage?.removeItem(key);
    } catch {
      // Kept where it is.
    }
  }

  /** The storage keys of a page's drafts. */
  #keys(path: string): string[] {
    const keys: string[] = [];
    const own = `${PREFIX}${path}`;
    try {
      const storage = this.#storage;
      for (let index = 0; storage && index < storage.length; index++) {
        const key = storage.key(index);
        if (
          key === own || key?.startsWith(`${own}#`) ||
          key?.startsWith(`${own}@`)
        ) keys.push(key);
      }
    } catch {
      // Storage refused: no draft.
    }
    return keys;
  }

  #read(key: string): string | null {
    try {
      return this.#storage?.getItem(key) ?? null;
    } catch {
      return null;
    }
  }
}

/** The tab a key belongs to: after `#`, or `""` for an earlier overlay's. */
function tabOf(key: string, path: string): string {
  const rest = key.slice(PREFIX.length + path.length);
  return rest.startsWith("#") ? rest.slice(1) : "";
}

/**
 * Keeps this tab's drafts as its changes change: a page's draft is written
 * whenever its changes or its version change (a page just opened is left
 * alone: its draft is offered first), with the address of the page view.
 *
 * @param store the store
 * @param drafts this tab's drafts
 * @param now the clock drafts are stamped with
 * @param address the address of the page view (`/en/about/`), if known
 * @returns a function that stops it
 */
export function keepDrafts(
  store: Store,
  drafts: Drafts,
  now: () => number = Date.now,
  address?: string,
): () => void {
  return store.subscribe((state, before) => {
    for (const page of state.pages) {
      const was = before.page(page.path);
      if (
        !was || (was.changes === page.changes && was.version === page.version)
      ) continue;
      drafts.save(page.path, draftOf(page, now(), address));
    }
  });
}
