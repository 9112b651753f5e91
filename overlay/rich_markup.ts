/// <reference lib="dom" />
/**
 * What a paste into rich text, or the preview of a rich text value, may
 * bring: links the link rule refuses are unwrapped; and the text of a rich
 * text value. Kept apart from
 * `rich_text.ts`, the editor itself (Tiptap), which is a lazily loaded part
 * of the overlay: the preview uses it before any editor is loaded, and the
 * regions hand it to the editor, which imports nothing the overlay's entry
 * has (a module both import would be one more request before the overlay
 * is ready).
 *
 * @module
 */

import { linkProblem } from "./state/checks.ts";

/**
 * Pasted markup with every link the link rule refuses unwrapped: its text
 * stays, the link goes.
 *
 * @param html the pasted markup
 * @returns the markup to insert
 */
export function dropRefusedLinks(html: string): string {
  const template = document.createElement("template");
  template.innerHTML = html;
  for (const link of template.content.querySelectorAll("a")) {
    const href = link.getAttribute("href");
    if (href === null || linkProblem(href)) {
      link.replaceWith(...link.childNodes);
    }
  }
  return template.innerHTML;
}

/**
 * The text of markup, read in an inert template (nothing in it loads or
 * runs).
 *
 * @param html the markup
 * @returns its text
 */
export function markupText(html: string): string {
  const template = document.createElement("template");
  template.innerHTML = html;
  return template.content.textContent ?? "";
}
