/// <reference lib="dom" />
/**
 * Link objects on the page (`data-inpage-link="/nav/0/link"`, an element
 * rendered from `{ "href", "title"? }`): a "Link" control beside each
 * opens a small dialog editing the address and the title, the link rule
 * applied as the address is typed; the site's pages are offered to pick
 * from (the same-site addresses of the links on this page). The element's
 * own text, when it is also a `data-inpage-text`, stays editable in place.
 * The element shows the link's value of the moment (after undo, redo or a
 * merge too).
 *
 * @module
 */

import { INPAGE_ATTRIBUTES } from "../../lib/wire/regions.ts";
import { text } from "../i18n/mod.ts";
import type { EditState } from "../state/state.ts";
import { h, messageDialog, showDialog } from "../ui.ts";
import { linkField } from "./link_field.ts";

const LINK = INPAGE_ATTRIBUTES.link;

const BUTTON_CSS = `
:host { all: initial; display: inline-block; vertical-align: middle; margin-inline: 4px; }
button { all: unset; box-sizing: border-box; display: inline-flex; align-items: center; gap: 4px; height: 28px; padding: 0 8px; border-radius: 6px; background: #fff; color: #1e3a8a; border: 1px solid #2563eb; font: 600 13px/1 system-ui, -apple-system, "Segoe UI", Roboto, sans-serif; cursor: pointer; white-space: nowrap; }
button:hover { background: #dbeafe; }
button:focus-visible { outline: 3px solid #f59e0b; outline-offset: 1px; }
`;

let sheet: CSSStyleSheet | undefined;

/** A link object as the page file holds it. */
type LinkObject = Record<string, unknown> & { href?: unknown; title?: unknown };

/** What the link objects need from the controller. */
export interface LinkHost {
  /** The overlay's shadow root (for the dialog). */
  root: ShadowRoot;
  /** The edit state now. */
  state(): EditState;
  /** Sets a link object's new value. */
  setLink(path: string, pointer: string, value: LinkObject): void;
}

/**
 * The same-site addresses of the page's links (path, query and fragment),
 * sorted: what the link dialog offers to pick from.
 *
 * @param document the page
 * @returns the addresses
 */
export function sitePages(document: Document): string[] {
  const found = new Set<string>([location.pathname]);
  for (const link of document.querySelectorAll<HTMLAnchorElement>("a[href]")) {
    try {
      const url = new URL(link.getAttribute("href") ?? "", location.href);
      if (url.origin !== location.origin) continue;
      url.searchParams.delete("edit");
      found.add(url.pathname + url.search + url.hash);
    } catch {
      // An address the browser cannot read is not offered.
    }
  }
  return [...found].sort();
}

/** The link objects of the page, each with its "Link" control. */
export class Links {
  readonly #host: LinkHost;
  readonly #links = new Map<HTMLElement, string>();

  /**
   * @param host what the link objects need from the controller
   */
  constructor(host: LinkHost) {
    this.#host = host;
  }

  /**
   * Adds the control to every link object inside `scope` (itself included)
   * that belongs to the page `path`.
   *
   * @param path the page path
   * @param scope where to look
   * @param container the page container
   */
  mount(path: string, scope: HTMLElement, container: HTMLElement): void {
    const found = [
      ...(scope.hasAttribute(LINK) ? [scope] : []),
      ...scope.querySelectorAll<HTMLElement>(`[${LINK}]`),
    ].filter((element) =>
      element.closest(`[${INPAGE_ATTRIBUTES.page}]`) === container &&
      !this.#links.has(element)
    );
    for (const element of found) {
      this.#links.set(element, path);
      // A list item that is itself a link has Edit link in its controls.
      if (!element.hasAttribute(INPAGE_ATTRIBUTES.item)) {
        element.after(this.#control(element));
      }
    }
  }

  #control(element: HTMLElement): HTMLElement {
    const host = h("span", { [INPAGE_ATTRIBUTES.linkControl]: "" });
    const root = host.attachShadow({ mode: "open" });
    if (!sheet) {
      sheet = new CSSStyleSheet();
      sheet.replaceSync(BUTTON_CSS);
    }
    root.adoptedStyleSheets = [sheet];
    root.append(
      h(
        "button",
        {
          type: "button",
          "aria-label": text("editLink"),
          title: text("editLinkTitle"),
          onclick: () => void this.edit(element),
        },
        linkIcon(),
        text("linkButton"),
      ),
    );
    return host;
  }

  /**
   * The element of a link object holding a place (its own pointer or one
   * inside it: `/nav/0/link/href`).
   *
   * @param path the page path
   * @param at a JSON Pointer
   * @returns the element, if a link object holds it
   */
  elementAt(path: string, at: string): HTMLElement | undefined {
    for (const [element, page] of this.#links) {
      const pointer = element.getAttribute(LINK) ?? "";
      if (page === path && (at === pointer || at.startsWith(`${pointer}/`))) {
        return element;
      }
    }
    return undefined;
  }

  /**
   * Forgets the link objects inside a removed element.
   *
   * @param scope the removed element
   */
  unmount(scope: HTMLElement): void {
    for (const element of [...this.#links.keys()]) {
      if (scope.contains(element)) this.#links.delete(element);
    }
  }

  /**
   * Shows the state's values on the page's link objects that changed.
   *
   * @param state the state now
   * @param before the state before
   */
  update(state: EditState, before: EditState): void {
    for (const [element, path] of this.#links) {
      if (!element.isConnected) continue;
      const pointer = element.getAttribute(LINK) ?? "";
      const value = state.valueOf(path, pointer);
      if (value !== before.valueOf(path, pointer)) show(element, value);
    }
  }

  /**
   * Opens the dialog for a link object.
   *
   * @param element the element marked with `data-inpage-link`
   * @returns whether the link was changed
   */
  async edit(element: HTMLElement): Promise<boolean> {
    const path = this.#links.get(element);
    const pointer = element.getAttribute(LINK);
    if (path === undefined || pointer === null || this.#host.state().busy) {
      return false;
    }
    const value = this.#host.state().valueOf(path, pointer);
    const current: LinkObject = typeof value === "object" && value !== null &&
        !Array.isArray(value)
      ? value as LinkObject
      : {};
    const answer = await askLink(this.#host.root, current);
    if (!answer) return false;
    this.#host.setLink(path, pointer, answer);
    return true;
  }
}

/** The link dialog of a link object: its address and title. */
async function askLink(
  root: ShadowRoot,
  current: LinkObject,
): Promise<LinkObject | undefined> {
  const id = `inpage-${Math.random().toString(36).slice(2)}`;
  const address = linkField(
    typeof current.href === "string" ? current.href : "",
    "linkObjectHint",
    `${id}-pages`,
  );
  const title = h("input", {
    type: "text",
    value: typeof current.title === "string" ? current.title : "",
  });
  const pages = h(
    "datalist",
    { id: `${id}-pages` },
    ...sitePages(document).map((page) => h("option", { value: page })),
  );
  const dialog = messageDialog(
    text("editLink"),
    [address.label, pages, h("label", {}, text("linkTitleField"), title)],
    [
      { label: text("cancel"), value: "cancel" },
      { label: text("apply"), value: "apply", kind: "primary" },
    ],
    (answer) => {
      if (answer !== "apply" || address.check() === undefined) return undefined;
      address.input.focus();
      return "";
    },
  );
  dialog.classList.add("link-popover");
  address.check("linkTypeAddress");
  if (await showDialog(root, dialog) !== "apply") return undefined;
  const next: LinkObject = { ...current, href: address.input.value.trim() };
  const typed = title.value.trim();
  if (typed === "") delete next.title;
  else next.title = typed;
  return next;
}

/**
 * A chain-link icon, drawn (no emoji font needed).
 *
 * @returns the icon
 */
export function linkIcon(): SVGSVGElement {
  const svg = document.createElementNS("http://www.w3.org/2000/svg", "svg");
  for (
    const [name, value] of Object.entries({
      viewBox: "0 0 24 24",
      width: "14",
      height: "14",
      "aria-hidden": "true",
      fill: "none",
      stroke: "currentColor",
      "stroke-width": "2.2",
      "stroke-linecap": "round",
    })
  ) svg.setAttribute(name, value);
  const path = document.createElementNS("http://www.w3.org/2000/svg", "path");
  path.setAttribute(
    "d",
    "M10 14a4 4 0 0 0 5.7 0l3-3a4 4 0 0 0-5.7-5.7l-1 1M14 10a4 4 0 0 0-5.7 0l-3 3a4 4 0 0 0 5.7 5.7l1-1",
  );
  svg.append(path);
  return svg;
}

/** Shows a link object on its element (or the link inside it). */
function show(element: HTMLElement, value: unknown): void {
  if (typeof value !== "object" || value === null) return;
  const link = value as LinkObject;
  const anchor = element instanceof HTMLAnchorElement
    ? element
    : element.querySelector("a");
  if (!anchor) return;
  if (typeof link.href === "string") anchor.setAttribute("href", link.href);
  if (typeof link.title === "string") anchor.setAttribute("title", link.title);
  else anchor.removeAttribute("title");
}
