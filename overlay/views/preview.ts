/// <reference lib="dom" />
/**
 * Preview: the page as a visitor will see it, changes included. The
 * outlines go (the `data-inpage-editing` mark of `<html>` is removed), the
 * regions stop being editable, each rich-text region shows its current
 * value as plain markup in place of its editor (what the page rules' markup
 * rule accepts of it: `RichText.markup`), and links are live. Back
 * in Edit, the editors come back as they were. In Edit, Ctrl+click
 * (⌘+click) on a link follows it, in a new tab.
 *
 * @module
 */

import { INPAGE_ATTRIBUTES } from "../../lib/wire/regions.ts";
import { dropRefusedLinks } from "../rich_markup.ts";
import type { Region } from "../regions.ts";

/** Where the page's editing mark lives. */
const EDITING = INPAGE_ATTRIBUTES.editing;

/** The preview switch of a page. */
export interface Preview {
  /** Whether the page is shown as a visitor sees it. */
  readonly on: boolean;
  /**
   * Shows the page as a visitor sees it, or back for editing.
   *
   * @param on preview or edit
   */
  set(on: boolean): void;
}

/**
 * Makes the preview switch of a page's regions.
 *
 * @param regions the regions, as they are when the switch is used
 * @param valueOf the current value of a region
 * @returns the switch
 */
export function createPreview(
  regions: () => readonly Region[],
  valueOf: (region: Region) => unknown,
): Preview {
  let on = false;
  const kept = new Map<Region, Node[]>();
  return {
    get on() {
      return on;
    },
    set(next) {
      if (next === on) return;
      on = next;
      document.documentElement.toggleAttribute(EDITING, !on);
      for (const region of regions()) {
        // The editing roles and names go too: a link is a link again.
        for (const name of ["role", "aria-label"]) {
          const attribute = `${INPAGE_ATTRIBUTES.kept}-${name}`;
          if (on && region.element.hasAttribute(name)) {
            region.element.setAttribute(
              attribute,
              region.element.getAttribute(name)!,
            );
            region.element.removeAttribute(name);
          } else if (!on && region.element.hasAttribute(attribute)) {
            region.element.setAttribute(
              name,
              region.element.getAttribute(attribute)!,
            );
            region.element.removeAttribute(attribute);
          }
        }
        if (region.kind === "text") {
          region.element.contentEditable = on ? "false" : "plaintext-only";
        } else if (region.kind === "html" && region.rich) {
          if (on) {
            kept.set(region, [...region.element.childNodes]);
            const value = valueOf(region);
            // Through the page rules' markup rule first: a value written
            // by hand in git, or an old one, may hold any markup.
            const template = document.createElement("template");
            template.innerHTML = dropRefusedLinks(
              region.rich.markup(typeof value === "string" ? value : ""),
            );
            region.element.replaceChildren(template.content);
          } else {
            region.element.replaceChildren(...(kept.get(region) ?? []));
          }
        } else if (region.kind === "html") {
          // Not loaded yet: the site's own markup of the stored value.
          region.setEditable?.(!on);
        }
        if (region.kind === "image") {
          if (on) region.element.removeAttribute("tabindex");
          else region.element.tabIndex = 0;
        }
      }
      if (!on) kept.clear();
    },
  };
}

/**
 * In Edit, Ctrl+click (⌘+click) on a link of the page follows it in a new
 * tab, where a plain click only places the caret.
 *
 * @param previewing whether the page is in preview (links work by themselves)
 * @returns a function that stops it
 */
export function followLinksOnModifiedClick(
  previewing: () => boolean,
): () => void {
  const onClick = (event: MouseEvent) => {
    if (previewing() || !(event.ctrlKey || event.metaKey)) return;
    const target = event.target;
    if (!(target instanceof Element)) return;
    const link = target.closest("a[href]");
    if (!(link instanceof HTMLAnchorElement) || !link.isContentEditable) return;
    event.preventDefault();
    event.stopPropagation();
    open(link.href, "_blank", "noopener");
  };
  addEventListener("click", onClick, true);
  return () => removeEventListener("click", onClick, true);
}
