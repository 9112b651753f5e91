/**
 * The other tabs of this browser, in the edit state: how many show one of
 * this tab's pages (the bar says the page is open in another tab), and
 * another tab's publish taken as the new version of the page, this tab's
 * changes kept on top where they do not clash (where they do, this tab's
 * next publish shows the conflict view). Each tab keeps its own draft, so
 * neither loses the other's work.
 *
 * @module
 */

import type { TabMessage, Tabs } from "../io/tab_types.ts";
import { compareFields, resolveFields } from "../state/merge.ts";
import type { PageObject } from "../state/values.ts";
import type { Store } from "../store.ts";

/**
 * Follows the other tabs: says which pages this tab shows, counts those
 * showing one of them, and takes their publishes.
 *
 * @param store the store, with the pages open
 * @param tabs this tab
 * @returns a function that stops it
 */
export function followTabs(store: Store, tabs: Tabs): () => void {
  const paths = () => store.state.pages.map((page) => page.path);
  const others = new Map<string, string[]>();
  const count = () => {
    const mine = new Set(paths());
    const n =
      [...others.values()].filter((theirs) =>
        theirs.some((path) => mine.has(path))
      ).length;
    if (n !== store.state.others) store.dispatch(store.state.tr.setOthers(n));
  };
  const stop = tabs.listen((message: TabMessage) => {
    if (message.type === "hello" || message.type === "here") {
      others.set(message.tab, message.paths);
      if (message.type === "hello") {
        tabs.say({ type: "here", tab: tabs.id, paths: paths() });
      }
    } else if (message.type === "bye") others.delete(message.tab);
    else {
      takePublished(store, message.path, message.version, message.content);
    }
    count();
  });
  tabs.say({ type: "hello", tab: tabs.id, paths: paths() });
  return stop;
}

/**
 * Another tab published a page: this tab reads it at that version, its
 * own changes on top, unless one clashes.
 *
 * @param store the store
 * @param path the page path
 * @param version the version published
 * @param content the page published, as JSON text
 */
export function takePublished(
  store: Store,
  path: string,
  version: string,
  content: string,
): void {
  const page = store.state.page(path);
  if (!page || page.version === version || store.state.busy) return;
  let theirs: PageObject;
  try {
    theirs = JSON.parse(content) as PageObject;
  } catch {
    return;
  }
  const resolved = resolveFields(
    compareFields(page.base, page.changes, theirs),
  );
  if (!resolved.ok) return;
  store.dispatch(
    store.state.tr.rebase(path, version, theirs, resolved.changes)
      .setMeta("addToHistory", false).setMeta("origin", "tab"),
  );
}
