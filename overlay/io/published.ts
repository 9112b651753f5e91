/// <reference lib="dom" />
/**
 * "Published" across the site's own reload: a site's dev server (Astro's
 * live reload) reloads the page after a publish, sometimes before the
 * publish's answer arrives. The last publish is kept in the tab's
 * `sessionStorage` and shown again by the next view of the tab, for a few
 * minutes, on a page showing a page file it published, and until the next
 * change. A publish under way is kept too ({@linkcode pendingPublish}):
 * when the reload interrupted it after the server wrote the page, the
 * next view finds its draft already published and says "Published".
 *
 * @module
 */

import type { Published } from "../state/notices.ts";
import { changeCount } from "../state/count.ts";
import type { Store } from "../store.ts";

const KEY = "inpage-editor:published";
const PENDING = "inpage-editor:publishing";

/** How long a publish is shown again on the next page views. */
export const SHOWN_FOR_MS = 5 * 60_000;

function store(): Storage | undefined {
  try {
    return globalThis.sessionStorage;
  } catch {
    return undefined;
  }
}

function read(key: string): Published | undefined {
  try {
    const kept = JSON.parse(store()?.getItem(key) ?? "null") as
      | Published
      | null;
    return kept && typeof kept.message === "string" &&
        typeof kept.at === "number" && Array.isArray(kept.paths)
      ? kept
      : undefined;
  } catch {
    return undefined;
  }
}

function write(key: string, value: Published | undefined): void {
  try {
    if (value) store()?.setItem(key, JSON.stringify(value));
    else store()?.removeItem(key);
  } catch {
    // Storage refused: the next view says what it sees.
  }
}

/** The publish under way, kept until it is answered. */
export const pendingPublish = {
  /**
   * Keeps a publish about to be sent.
   *
   * @param published its message, time and page files
   */
  start(published: Published): void {
    write(PENDING, published);
  },
  /**
   * The publish kept, when it is recent.
   *
   * @param now the time now
   * @returns the publish, if any
   */
  read(now: number = Date.now()): Published | undefined {
    const kept = read(PENDING);
    return kept && now - kept.at < SHOWN_FOR_MS ? kept : undefined;
  },
  /** Forgets it (answered). */
  clear(): void {
    write(PENDING, undefined);
  },
};

/**
 * Keeps the state's last publish for the next page view of this tab
 * (forgotten at the next change), and shows one kept by the previous view
 * when this page shows a page file it published and nothing is unsaved.
 *
 * @param store the store, with its pages open
 * @param now the clock
 * @returns a function that stops keeping it
 */
export function keepPublishedAcrossReloads(
  store: Store,
  now: () => number = Date.now,
): () => void {
  const kept = read(KEY);
  const state = store.state;
  if (
    kept && now() - kept.at < SHOWN_FOR_MS && changeCount(state) === 0 &&
    kept.paths.some((path) => state.page(path))
  ) {
    store.dispatch(
      state.tr.setNotice({ code: "published", published: kept }),
    );
  }
  return store.subscribe((next, before) => {
    const notice = next.notice;
    if (notice?.code === "published" && notice !== before.notice) {
      write(KEY, notice.published);
    } else if (before.notice?.code === "published" && !next.notice) {
      write(KEY, undefined);
    }
  });
}
