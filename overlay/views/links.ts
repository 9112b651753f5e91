/// <reference lib="dom" />
/**
 * Link objects on the page (`data-inpage-link="/nav/0/link"`, an element
 * rendered from `{ "href", "title"? }`): an "Edit link" control beside each
 * opens a small dialog editing the address and the title. The link rule is
 * applied as the person types; the site's pages are offered to pick from:
 * the same-site addresses of the links on this page (a datalist). The
 * element's own text, when it is also a `data-inpage-text`, stays editable
 * in place.
 *
 * @module
 */

import { INPAGE_ATTRIBUTES } from "../../lib/wire/names.ts";
import { text } from "../i18n/mod.ts";
import { reasonSentence } from "../messages.ts";
import { linkProblem } from "../session/checks.ts";
import type { EditSession } from "../session/session.ts";
import { h, messageDialog, showDialog } from "../ui.ts";

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

/** The link objects of the page, each with its "Edit link" control. */
export class Links {
  readonly #root: ShadowRoot;
  readonly #session: EditSession;
  readonly #links = new Map<HTMLElement, string>();

  /**
   * @param root the overlay's shadow root (for the dialog)
   * @param session the edit session
   */
  constructor(root: ShadowRoot, session: EditSession) {
    this.#root = root;
    this.#session = session;
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
      element.closest("[data-inpage-page]") === container &&
      !this.#links.has(element)
    );
    for (const element of found) {
      this.#links.set(element, path);
      // A list item that is itself a link has Edit link in its controls.
      if (element.hasAttribute(INPAGE_ATTRIBUTES.item)) continue;
      const host = h("span", { "data-inpage-link-control": "" });
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
          "Link",
        ),
      );
      element.after(host);
    }
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
   * Shows the session's values on the page's link objects (after undo, redo
   * or a merge).
   *
   * @param path the page path
   */
  refresh(path: string): void {
    for (const [element, page] of this.#links) {
      if (page !== path || !element.isConnected) continue;
      const pointer = element.getAttribute(LINK) ?? "";
      show(element, this.#session.valueOf(path, pointer));
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
    if (path === undefined || pointer === null || this.#session.busy) {
      return false;
    }
    const value = this.#session.valueOf(path, pointer);
    const current: LinkObject = typeof value === "object" && value !== null &&
        !Array.isArray(value)
      ? value as LinkObject
      : {};
    const id = `inpage-${Math.random().toString(36).slice(2)}`;
    const problem = h("p", {
      class: "hint",
      id: `${id}-problem`,
      "aria-live": "polite",
    });
    const href = h("input", {
      type: "text",
      value: typeof current.href === "string" ? current.href : "",
      list: `${id}-pages`,
      "aria-describedby": `${id}-hint ${id}-problem`,
      autocomplete: "off",
      spellcheck: "false",
    });
    const title = h("input", {
      type: "text",
      value: typeof current.title === "string" ? current.title : "",
    });
    const pages = h(
      "datalist",
      { id: `${id}-pages` },
      ...sitePages(document).map((page) => h("option", { value: page })),
    );
    const check = () => {
      const address = href.value.trim();
      const refused = address === "" || linkProblem(address) !== undefined;
      href.toggleAttribute("aria-invalid", refused);
      if (refused) href.setAttribute("aria-invalid", "true");
      problem.textContent = address === ""
        ? text("linkTypeAddress")
        : refused
        ? reasonSentence("link")
        : "";
      problem.classList.toggle("error", refused);
      return refused;
    };
    href.addEventListener("input", check);
    const dialog = messageDialog(
      text("editLink"),
      [
        h(
          "label",
          {},
          text("address"),
          href,
          h(
            "span",
            { class: "hint", id: `${id}-hint` },
            text("linkObjectHint"),
          ),
        ),
        pages,
        problem,
        h("label", {}, text("linkTitleField"), title),
      ],
      [
        { label: text("cancel"), value: "cancel" },
        { label: text("apply"), value: "apply", kind: "primary" },
      ],
      (answer) => {
        if (answer !== "apply" || !check()) return undefined;
        href.focus();
        // The reason is already shown under the address.
        return "";
      },
    );
    dialog.classList.add("link-popover");
    check();
    if (await showDialog(this.#root, dialog) !== "apply") return false;
    const next: LinkObject = { ...current, href: href.value.trim() };
    const typed = title.value.trim();
    if (typed === "") delete next.title;
    else next.title = typed;
    this.#session.seal();
    this.#session.change(path, pointer, next);
    this.#session.seal();
    show(element, next);
    return true;
  }
}

/** A chain-link icon, drawn (no emoji font needed). */
export function linkIcon(): SVGSVGElement {
  const svg = document.createElementNS("http://www.w3.org/2000/svg", "svg");
  svg.setAttribute("viewBox", "0 0 24 24");
  svg.setAttribute("width", "14");
  svg.setAttribute("height", "14");
  svg.setAttribute("aria-hidden", "true");
  svg.setAttribute("fill", "none");
  svg.setAttribute("stroke", "currentColor");
  svg.setAttribute("stroke-width", "2.2");
  svg.setAttribute("stroke-linecap", "round");
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
