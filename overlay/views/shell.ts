/// <reference lib="dom" />
/**
 * The overlay's shell: its host element at the end of the body, an open
 * shadow root holding its styles and its interface, an announcer for
 * screen readers, and the page's own editing rules; all taken back by
 * `close`.
 *
 * @module
 */

import { INPAGE_ATTRIBUTES } from "../../lib/wire/regions.ts";
import { OVERLAY_CSS, PAGE_CSS } from "../styles.ts";
import { h } from "../ui.ts";
import { PAGE_PANEL_CSS } from "./page_panel.ts";

/** The overlay's place on the page. */
export interface Shell {
  /** The host element (the last child of the body). */
  readonly host: HTMLElement;
  /** Its shadow root. */
  readonly root: ShadowRoot;
  /** The interface's element in the shadow root. */
  readonly ui: HTMLElement;
  /** Says a sentence to screen readers. */
  announce(text: string): void;
  /** Marks the page as being edited (its regions outlined), or not. */
  editing(on: boolean): void;
  /** Takes everything back. */
  close(): void;
}

/**
 * Builds the shell and puts it on the page.
 *
 * @returns the shell
 */
export function createShell(): Shell {
  const host = h("div", { [INPAGE_ATTRIBUTES.overlay]: "" });
  const root = host.attachShadow({ mode: "open" });
  const sheet = new CSSStyleSheet();
  sheet.replaceSync(OVERLAY_CSS + PAGE_PANEL_CSS);
  root.adoptedStyleSheets = [sheet];
  const pageSheet = new CSSStyleSheet();
  pageSheet.replaceSync(PAGE_CSS);
  document.adoptedStyleSheets = [...document.adoptedStyleSheets, pageSheet];
  const announcer = h("div", { class: "announce", "aria-live": "polite" });
  const ui = h("div", { class: "ui" }, announcer);
  root.append(ui);
  document.body.append(host);
  const html = document.documentElement;
  return {
    host,
    root,
    ui,
    announce(text) {
      announcer.textContent = "";
      setTimeout(() => announcer.textContent = text, 50);
    },
    editing(on) {
      html.toggleAttribute(INPAGE_ATTRIBUTES.editing, on);
    },
    close() {
      html.removeAttribute(INPAGE_ATTRIBUTES.editing);
      document.adoptedStyleSheets = document.adoptedStyleSheets.filter((
        each,
      ) => each !== pageSheet);
      host.remove();
    },
  };
}
