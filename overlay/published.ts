/// <reference lib="dom" />
/**
 * "Published" across the site's own reload: a site's dev server (Astro's
 * live reload) or the editor reloads the page after a publish, and the new
 * page view would say "No unsaved changes". The last publish is kept in
 * the tab's `sessionStorage` and shown again by the next view of the tab,
 * for a few minutes and until the next change.
 *
 * @module
 */

import type { EditSession, Published } from "./session/session.ts";

const KEY = "inpage-editor:published";

/** How long a publish is shown again on the next page views. */
export const SHOWN_FOR_MS = 5 * 60_000;

function store(): Storage | undefined {
  try {
    return globalThis.sessionStorage;
  } catch {
    return undefined;
  }
}

/**
 * Keeps the session's last publish for the next page view of this tab
 * (forgotten at the next change), and shows a publish kept by the previous
 * one when nothing is unsaved.
 *
 * @param session the edit session, with its pages open
 * @param now the clock
 */
export function keepPublishedAcrossReloads(
  session: EditSession,
  now: () => number = Date.now,
): void {
  const storage = store();
  if (!storage) return;
  try {
    const kept = JSON.parse(storage.getItem(KEY) ?? "null") as
      | Published
      | null;
    if (
      kept && typeof kept.message === "string" &&
      typeof kept.at === "number" && now() - kept.at < SHOWN_FOR_MS &&
      session.count === 0
    ) session.showPublished(kept);
  } catch {
    // Nothing kept, or damaged: nothing to show.
  }
  session.subscribe((event) => {
    if (event.type !== "state") return;
    try {
      if (session.status.tone === "published" && session.published) {
        storage.setItem(KEY, JSON.stringify(session.published));
      } else if (session.status.tone === "dirty") storage.removeItem(KEY);
    } catch {
      // Storage refused: the next view says what it sees.
    }
  });
}
