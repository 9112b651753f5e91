/// <reference lib="dom" />
/**
 * What the regions edited as rich text (`data-inpage-html`,
 * `data-inpage-markdown`) share: loading their editor's part, busy
 * meanwhile and said when it fails, and their keys: Alt+F10 moves to the
 * formatting toolbar and Ctrl+K (⌘K) asks for a link, once the region's
 * editor is there, which they load first when it is not.
 *
 * @module
 */

import type { Region, RegionHooks } from "./region.ts";

/**
 * The keydown listener of a rich-text or markdown region.
 *
 * @param region the region
 * @param hooks what it tells the controller
 * @param wake loads the region's editor (once) and puts it in place
 * @returns the listener
 * @example
 * ```ts ignore
 * element.addEventListener("keydown", richKeys(region, hooks, () => wake(state)));
 * ```
 */
export function richKeys(
  region: Region,
  hooks: RegionHooks,
  wake: () => Promise<void>,
): (event: KeyboardEvent) => void {
  return (event) => {
    const ask = event.altKey && event.key === "F10"
      ? hooks.richToolbar
      : (event.ctrlKey || event.metaKey) && event.key.toLowerCase() === "k"
      ? hooks.richLink
      : undefined;
    if (!ask) return;
    event.preventDefault();
    if (region.rich) ask(region);
    else void wake().then(() => region.rich && ask(region));
  };
}

/**
 * Loads a region's editor part, the region busy meanwhile; a failure is
 * told to the controller (the part is tried again on the next wake).
 *
 * @param region the region
 * @param hooks what it tells the controller
 * @param load the part's loader
 * @returns the part's exports, or undefined when it could not be loaded
 * @example
 * ```ts ignore
 * const part = await loadPart(region, hooks, loadRichText);
 * if (!part) return; // the overlay said so
 * ```
 */
export async function loadPart<T>(
  region: Region,
  hooks: RegionHooks,
  load: () => Promise<T>,
): Promise<T | undefined> {
  region.element.setAttribute("aria-busy", "true");
  try {
    return await load();
  } catch {
    region.element.removeAttribute("aria-busy");
    hooks.richUnavailable(region);
    return undefined;
  }
}
