/// <reference lib="dom" />
/**
 * The page's editable regions, made editable in place: plain text
 * (`data-inpage-text`, one line, pasted as text), rich text
 * (`data-inpage-html`, a Tiptap editor) and images (`data-inpage-image`,
 * replaced through the image dialog). Each region reports its edits to the
 * overlay through {@linkcode RegionHooks}.
 *
 * @module
 */

import { getPointer, type PageObject } from "../client/mod.ts";
import { unescapeToken } from "../lib/wire/pointer.ts";
import { createRichText, type RichText } from "./rich_text.ts";

/** A page file being edited: its container, base version and changes. */
export interface PageState {
  /** The page path, from `data-inpage-page`. */
  path: string;
  /** The element holding its regions. */
  container: HTMLElement;
  /** The version the changes apply to. */
  version: string;
  /** The page as read at that version. */
  base: PageObject;
  /** The changed values, by JSON Pointer. */
  changes: Map<string, unknown>;
  /** Its regions. */
  regions: Region[];
}

/** One editable region. */
export interface Region {
  /** Which attribute marked it. */
  kind: "text" | "html" | "image";
  /** Its JSON Pointer into the page file. */
  pointer: string;
  /** The page's element. */
  element: HTMLElement;
  /** The page file it belongs to. */
  page: PageState;
  /** Shows a value without counting it as an edit. */
  show(value: unknown): void;
  /** Makes the element plain again. */
  destroy(): void;
  /** The editor of a rich-text region. */
  rich?: RichText;
}

/** What regions tell the overlay. */
export interface RegionHooks {
  /** A region's value changed (or went back to the stored one). */
  change(
    page: PageState,
    pointer: string,
    value: unknown,
    element: HTMLElement,
  ): void;
  /** A rich-text region gained focus. */
  richFocus(region: Region): void;
  /** The selection of a rich-text region changed. */
  richSelection(region: Region): void;
  /** Alt+F10 in a rich-text region. */
  richToolbar(region: Region): void;
  /** Ctrl+K in a rich-text region. */
  richLink(region: Region): void;
  /** Another kind of region gained focus. */
  otherFocus(): void;
  /** An image region asks for a new image. */
  replaceImage(
    page: PageState,
    region: Region,
    image: HTMLImageElement | null,
  ): void;
}

/**
 * Makes every region of a page editable.
 *
 * @param page the page, whose `regions` are filled
 * @param hooks what the regions report to
 */
export function mountRegions(page: PageState, hooks: RegionHooks): void {
  const own = (element: Element) =>
    element.closest("[data-inpage-page]") === page.container;
  const found = (name: string) =>
    [...page.container.querySelectorAll<HTMLElement>(`[${name}]`)].filter(own);
  for (const [name, make] of MAKERS) {
    for (const element of found(name)) {
      const pointer = element.getAttribute(name) ?? "";
      page.regions.push(make(page, element, pointer, hooks));
    }
  }
}

/** Makes one region of an element marked with its pointer. */
type RegionMaker = (
  page: PageState,
  element: HTMLElement,
  pointer: string,
  hooks: RegionHooks,
) => Region;

const textRegion: RegionMaker = (page, element, pointer, hooks) => {
  const value = getPointer(page.base, pointer);
  if (typeof value === "string" && element.textContent !== value) {
    element.textContent = value;
  }
  element.contentEditable = "plaintext-only";
  element.spellcheck = true;
  element.setAttribute("role", "textbox");
  element.setAttribute("aria-label", `Edit ${fieldName(pointer)}`);
  const onInput = () =>
    hooks.change(page, pointer, element.textContent ?? "", element);
  const onKey = (event: KeyboardEvent) => {
    if (event.key === "Enter") event.preventDefault();
  };
  const onFocus = () => hooks.otherFocus();
  element.addEventListener("input", onInput);
  element.addEventListener("keydown", onKey);
  element.addEventListener("focus", onFocus);
  return {
    kind: "text",
    pointer,
    element,
    page,
    show(next) {
      element.textContent = typeof next === "string" ? next : "";
    },
    destroy() {
      element.removeEventListener("input", onInput);
      element.removeEventListener("keydown", onKey);
      element.removeEventListener("focus", onFocus);
      element.removeAttribute("contenteditable");
    },
  };
};

const htmlRegion: RegionMaker = (page, element, pointer, hooks) => {
  const value = getPointer(page.base, pointer);
  const region: Region = {
    kind: "html",
    pointer,
    element,
    page,
    show: (next) => region.rich?.setHtml(typeof next === "string" ? next : ""),
    destroy: () => region.rich?.destroy(),
  };
  let initial = "";
  region.rich = createRichText(
    element,
    typeof value === "string" ? value : "",
    {
      label: `Edit ${
        fieldName(pointer)
      } (rich text: Alt+F10 for the toolbar, Ctrl+K for a link)`,
      onChange: (html) => {
        // An untouched field keeps its stored markup, even where the
        // editor would write it differently.
        const next = html === initial ? getPointer(page.base, pointer) : html;
        hooks.change(page, pointer, next, element);
      },
      onFocus: () => hooks.richFocus(region),
      onSelection: () => hooks.richSelection(region),
    },
  );
  initial = region.rich.html();
  element.addEventListener("keydown", (event) => {
    if (event.altKey && event.key === "F10") {
      event.preventDefault();
      hooks.richToolbar(region);
    } else if (
      (event.ctrlKey || event.metaKey) && event.key.toLowerCase() === "k"
    ) {
      event.preventDefault();
      hooks.richLink(region);
    }
  });
  return region;
};

const imageRegion: RegionMaker = (page, element, pointer, hooks) => {
  const image = element instanceof HTMLImageElement
    ? element
    : element.querySelector("img");
  element.tabIndex = 0;
  element.setAttribute("role", "button");
  element.setAttribute("aria-label", `Replace image: ${fieldName(pointer)}`);
  // New names are resolved where the site serves its current image.
  const folder = new URL(image?.getAttribute("src") ?? "", location.href);
  const onKey = (event: KeyboardEvent) => {
    if (event.key === "Enter" || event.key === " ") {
      event.preventDefault();
      hooks.replaceImage(page, region, image);
    }
  };
  const onClick = (event: Event) => {
    event.preventDefault();
    hooks.replaceImage(page, region, image);
  };
  const onFocus = () => hooks.otherFocus();
  element.addEventListener("click", onClick);
  element.addEventListener("keydown", onKey);
  element.addEventListener("focus", onFocus);
  const region: Region = {
    kind: "image",
    pointer,
    element,
    page,
    show(next) {
      if (!image || typeof next !== "object" || next === null) return;
      const media = next as Record<string, unknown>;
      if (typeof media.src === "string") {
        image.removeAttribute("srcset");
        image.src = new URL(media.src, folder).href;
      }
    },
    destroy() {
      element.removeEventListener("click", onClick);
      element.removeEventListener("keydown", onKey);
      element.removeEventListener("focus", onFocus);
    },
  };
  return region;
};

/** The region makers, by the attribute that marks their elements. */
const MAKERS: readonly (readonly [string, RegionMaker])[] = [
  ["data-inpage-text", textRegion],
  ["data-inpage-html", htmlRegion],
  ["data-inpage-image", imageRegion],
];

/**
 * The region holding the place a 422 names: the one whose pointer is `at`
 * or its longest prefix.
 *
 * @param page the page
 * @param at the answer's JSON Pointer
 * @returns the region, if any
 */
export function findRegion(page: PageState, at: string): Region | undefined {
  let best: Region | undefined;
  for (const region of page.regions) {
    const inside = at === region.pointer || at.startsWith(`${region.pointer}/`);
    if (inside && (!best || region.pointer.length > best.pointer.length)) {
      best = region;
    }
  }
  return best;
}

/**
 * A field's name in words: `/sections/0/heading` is "sections 1 heading".
 *
 * @param pointer the field's JSON Pointer
 * @returns its name
 */
export function fieldName(pointer: string): string {
  const words = pointer.split("/").slice(1).map((part) =>
    /^\d+$/.test(part)
      ? String(Number(part) + 1)
      : unescapeToken(part).replaceAll(/[_-]/g, " ")
  );
  return words.join(" ") || "page";
}
