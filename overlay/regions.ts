/// <reference lib="dom" />
/**
 * The page's editable regions, made editable in place: plain text
 * (`data-inpage-text`, one line, pasted as text), rich text
 * (`data-inpage-html`, a Tiptap editor) and images (`data-inpage-image`,
 * replaced through the image dialog). Each region reports its edits to the
 * overlay through {@linkcode RegionHooks}.
 *
 * The rich text editor is a lazily loaded part (`rich_text.ts`): until a
 * rich text region is first focused, it is the site's own markup made
 * editable by the browser. The part is fetched when the pointer first comes
 * over such a region; on focus the editor takes the region's place, with
 * what was typed meanwhile and the caret where it was.
 *
 * @module
 */

import { IMAGES_FOLDER } from "../lib/wire/names.ts";
import type { FieldKind } from "./session/fields.ts";
import { fieldName, isWithin } from "./session/pointer.ts";
import type { RichText } from "./rich_text.ts";
import { dropRefusedLinks, markupText } from "./rich_markup.ts";
import { lazyPart } from "./lazy_part.ts";
import { text } from "./i18n/mod.ts";

/** A page container and the values its file holds as read. */
export interface RegionPage {
  /** The page path, from `data-inpage-page`. */
  path: string;
  /** The element holding its regions. */
  container: HTMLElement;
  /** The value at a pointer as read from the file. */
  stored(pointer: string): unknown;
  /** Where to look for regions (itself included); default: the container. */
  scope?: HTMLElement;
}

/** One editable region. */
export interface Region {
  /** Which attribute marked it. */
  kind: "text" | "html" | "image";
  /** Its JSON Pointer into the page file. */
  pointer: string;
  /** The page's element. */
  element: HTMLElement;
  /** The page path it belongs to. */
  path: string;
  /** Shows a value without counting it as an edit (when it differs). */
  show(value: unknown): void;
  /** Makes the element plain again. */
  destroy(): void;
  /** Points the region at another field (its list item moved). */
  repoint(pointer: string): void;
  /** The editor of a rich-text region, once loaded. */
  rich?: RichText;
  /**
   * For a rich-text region: editable or read-only, before and after its
   * editor is loaded.
   */
  setEditable?(on: boolean): void;
  /**
   * For an image region: shows a chosen image itself (an object URL) until
   * the site renders the published one its own way.
   */
  preview?(image: Blob, src: string): void;
  /**
   * For an image region: a chosen image named `from` (its object URL) is
   * stored as `to`; a value naming `to` goes on showing the chosen image,
   * since the site may serve its file only once it is built again.
   */
  alias?(from: string, to: string): void;
}

/** What regions tell the overlay. */
export interface RegionHooks {
  /** A region's value changed (or went back to the stored one). */
  change(region: Region, value: unknown): void;
  /** A region lost the focus: the next change is a new undo step. */
  leave(region: Region): void;
  /** A rich-text region gained focus. */
  richFocus(region: Region): void;
  /** The selection of a rich-text region changed. */
  richSelection(region: Region): void;
  /** Alt+F10 in a rich-text region. */
  richToolbar(region: Region): void;
  /** Ctrl+K in a rich-text region. */
  richLink(region: Region): void;
  /** Another kind of region gained focus (or a rich-text region before
   * its editor is loaded). */
  otherFocus(region: Region): void;
  /** The rich text editor could not be loaded (it is tried again). */
  richUnavailable(region: Region): void;
  /** A rich-text region's editor took its place. */
  richReady(region: Region): void;
  /** An image region asks for a new image. */
  replaceImage(region: Region, image: HTMLImageElement | null): void;
}

/**
 * Makes every region of a page editable.
 *
 * @param page the page container and its stored values
 * @param hooks what the regions report to
 * @param refuse says which elements are left as they are (a pointer that
 *   names nothing, or a value of another kind)
 * @returns its regions
 */
export function mountRegions(
  page: RegionPage,
  hooks: RegionHooks,
  refuse: (
    element: HTMLElement,
    pointer: string,
    kind: FieldKind,
  ) => boolean = () => false,
): Region[] {
  const own = (element: Element) =>
    element.closest("[data-inpage-page]") === page.container;
  const scope = page.scope ?? page.container;
  const found = (name: string) =>
    [
      ...(scope.hasAttribute(name) ? [scope] : []),
      ...scope.querySelectorAll<HTMLElement>(`[${name}]`),
    ].filter(own);
  const regions: Region[] = [];
  for (const [name, make] of MAKERS) {
    for (const element of found(name)) {
      const pointer = element.getAttribute(name) ?? "";
      if (refuse(element, pointer, KINDS[name]!)) continue;
      regions.push(make(page, element, pointer, hooks));
    }
  }
  return regions;
}

/** Makes one region of an element marked with its pointer. */
type RegionMaker = (
  page: RegionPage,
  element: HTMLElement,
  pointer: string,
  hooks: RegionHooks,
) => Region;

const textRegion: RegionMaker = (page, element, pointer, hooks) => {
  const value = page.stored(pointer);
  if (typeof value === "string" && element.textContent !== value) {
    element.textContent = value;
  }
  element.contentEditable = "plaintext-only";
  element.spellcheck = true;
  element.setAttribute("role", "textbox");
  element.setAttribute(
    "aria-label",
    text("editField", { field: fieldName(pointer) }),
  );
  const onInput = () => hooks.change(region, element.textContent ?? "");
  const onKey = (event: KeyboardEvent) => {
    if (event.key === "Enter") event.preventDefault();
  };
  const onFocus = () => hooks.otherFocus(region);
  const onBlur = () => hooks.leave(region);
  element.addEventListener("input", onInput);
  element.addEventListener("keydown", onKey);
  element.addEventListener("focus", onFocus);
  element.addEventListener("blur", onBlur);
  const region: Region = {
    kind: "text",
    pointer,
    element,
    path: page.path,
    show(next) {
      const text = typeof next === "string" ? next : "";
      if (element.textContent !== text) element.textContent = text;
    },
    destroy() {
      element.removeEventListener("input", onInput);
      element.removeEventListener("keydown", onKey);
      element.removeEventListener("focus", onFocus);
      element.removeEventListener("blur", onBlur);
      element.removeAttribute("contenteditable");
    },
    repoint(next) {
      region.pointer = next;
      element.setAttribute(
        "aria-label",
        text("editField", { field: fieldName(next) }),
      );
    },
  };
  return region;
};

/**
 * Loads the rich text editor, a lazily loaded part: at most once, and again
 * after a failure, under a URL of its own.
 */
const loadRichText = lazyPart(() => import("./rich_text.ts"), import.meta.url);

/** Text with its runs of white space made one space, trimmed. */
const squeeze = (value: string) => value.replace(/\s+/g, " ").trim();

/**
 * Where the selection is in an element, as numbers of characters of its
 * text before its anchor and before its focus.
 */
function selectionOffsets(element: HTMLElement): [number, number] | [] {
  const selection = getSelection();
  const { anchorNode, focusNode } = selection ?? {};
  if (
    !selection || !anchorNode || !focusNode ||
    !element.contains(anchorNode) || !element.contains(focusNode)
  ) return [];
  const before = (node: Node, offset: number) => {
    const range = document.createRange();
    range.selectNodeContents(element);
    range.setEnd(node, offset);
    // The editor makes runs of white space one space, none at the start.
    return range.toString().replace(/\s+/g, " ").replace(/^ /, "").length;
  };
  return [
    before(anchorNode, selection.anchorOffset),
    before(focusNode, selection.focusOffset),
  ];
}

const htmlRegion: RegionMaker = (page, element, pointer, hooks) => {
  const value = page.stored(pointer);
  const stored = typeof value === "string" ? value : "";
  /** A value to show once the editor is loaded. */
  let wanted: string | undefined;
  /** Whether something was typed before the editor was loaded. */
  let typed = false;
  let editable = true;
  let destroyed = false;
  let waking: Promise<void> | undefined;
  /** The editor's own form of the stored value. */
  let initial = "";

  // Until its editor is loaded, the region is the site's own markup,
  // editable by the browser.
  const dormant = {
    contenteditable: "true",
    role: "textbox",
    "aria-multiline": "true",
    "aria-label": richLabel(pointer),
  };
  for (const [name, value] of Object.entries(dormant)) {
    element.setAttribute(name, value);
  }
  const onInput = () => typed = true;
  const onFocus = () => {
    if (region.rich) return;
    hooks.otherFocus(region);
    void wake();
  };
  const onBlur = () => {
    if (!region.rich) hooks.leave(region);
  };
  const prefetch = () => void loadRichText().catch(() => {});
  const onKey = (event: KeyboardEvent) => {
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
  element.addEventListener("input", onInput);
  element.addEventListener("focus", onFocus);
  element.addEventListener("blur", onBlur);
  element.addEventListener("pointerenter", prefetch);
  element.addEventListener("touchstart", prefetch, { passive: true });
  element.addEventListener("keydown", onKey);

  /** Loads the editor and puts it in the region's place. */
  const wake = (): Promise<void> =>
    waking ??= (async () => {
      element.setAttribute("aria-busy", "true");
      let part: typeof import("./rich_text.ts");
      try {
        part = await loadRichText();
      } catch {
        element.removeAttribute("aria-busy");
        waking = undefined;
        hooks.richUnavailable(region);
        return;
      }
      if (destroyed) return;
      const focused = element.contains(document.activeElement);
      const selected = focused ? selectionOffsets(element) : [];
      const typedHtml = typed ? element.innerHTML : undefined;
      for (const name of [...Object.keys(dormant), "aria-busy"]) {
        element.removeAttribute(name);
      }
      element.removeAttribute("aria-invalid");
      const rich = part.createRichText(element, stored, {
        label: richLabel(region.pointer),
        onChange: (html) => {
          // An untouched field keeps its stored markup, even where the
          // editor would write it differently.
          const next = html === initial ? value : html;
          hooks.change(region, next);
        },
        onFocus: () => hooks.richFocus(region),
        onBlur: () => hooks.leave(region),
        onSelection: () => hooks.richSelection(region),
        paste: dropRefusedLinks,
      });
      initial = rich.html();
      region.rich = rich;
      if (wanted !== undefined) region.show(wanted);
      if (typedHtml !== undefined) rich.edit(typedHtml);
      if (!editable) rich.editor.setEditable(false, false);
      if (focused) rich.focusAt(...selected);
      hooks.richReady(region);
    })();

  const region: Region = {
    kind: "html",
    pointer,
    element,
    path: page.path,
    show(next) {
      const html = typeof next === "string" ? next : "";
      const rich = region.rich;
      if (!rich) {
        // The site's markup shows the stored value; another one needs
        // the editor.
        if (html === stored && wanted === undefined) return;
        wanted = html;
        element.contentEditable = "false";
        void wake();
        return;
      }
      if (rich.html() === html) return;
      // The stored markup, shown again: the editor's own form of it.
      if (html === value && rich.html() === initial) return;
      rich.setHtml(html);
    },
    setEditable(on) {
      editable = on;
      if (region.rich) region.rich.editor.setEditable(on, false);
      else if (wanted === undefined) element.contentEditable = String(on);
    },
    destroy() {
      destroyed = true;
      element.removeEventListener("input", onInput);
      element.removeEventListener("focus", onFocus);
      element.removeEventListener("blur", onBlur);
      element.removeEventListener("pointerenter", prefetch);
      element.removeEventListener("touchstart", prefetch);
      element.removeEventListener("keydown", onKey);
      if (region.rich) region.rich.destroy();
      else {
        for (const name of [...Object.keys(dormant), "aria-busy"]) {
          element.removeAttribute(name);
        }
      }
    },
    repoint(next) {
      region.pointer = next;
      (region.rich?.editor.view.dom ?? element).setAttribute(
        "aria-label",
        richLabel(next),
      );
    },
  };
  // A site that shows other text than the file holds (a build behind the
  // repository, a copied list item) shows the file's value at once.
  if (squeeze(element.textContent ?? "") !== squeeze(markupText(stored))) {
    wanted = stored;
    element.contentEditable = "false";
    void wake();
  }
  return region;
};

const imageRegion: RegionMaker = (page, element, pointer, hooks) => {
  const image = element instanceof HTMLImageElement
    ? element
    : element.querySelector("img");
  element.tabIndex = 0;
  element.setAttribute("role", "button");
  element.setAttribute(
    "aria-label",
    text("replaceImageField", { field: fieldName(pointer) }),
  );
  const onKey = (event: KeyboardEvent) => {
    if (event.key === "Enter" || event.key === " ") {
      event.preventDefault();
      hooks.replaceImage(region, image);
    }
  };
  const onClick = (event: Event) => {
    event.preventDefault();
    hooks.replaceImage(region, image);
  };
  const onFocus = () => hooks.otherFocus(region);
  /** The chosen images shown, by the name they are stored under. */
  const previews = new Map<string, string>();
  // The stored image as the site rendered it (an image component's own
  // address, srcset and sources), shown again when it is the value again.
  const stored = page.stored(pointer);
  const storedSrc = typeof stored === "object" && stored !== null
    ? (stored as Record<string, unknown>).src
    : undefined;
  // A name without a preview (a draft restored after a reload) is shown
  // from where the site serves the current one when its address ends with
  // that name; an image component's own address (`/_image?href=…`,
  // `/_astro/…`) says nothing of that, so then from /images/.
  const renderedSrc = new URL(image?.getAttribute("src") ?? "", location.href);
  const folder = typeof storedSrc === "string" &&
      renderedSrc.pathname.endsWith(`/${storedSrc}`)
    ? renderedSrc
    : new URL(`/${IMAGES_FOLDER.replace(/^public\//, "")}/`, location.href);
  const sources = image?.parentElement instanceof HTMLPictureElement
    ? [...image.parentElement.querySelectorAll("source")]
    : [];
  const rendered = {
    image: ["src", "srcset", "sizes"].map((name) =>
      [name, image?.getAttribute(name) ?? null] as const
    ),
    sources: sources.map((source) => source.getAttribute("srcset")),
  };
  const showRendered = () => {
    if (!image) return;
    for (const [name, value] of rendered.image) {
      if (value === null) image.removeAttribute(name);
      else image.setAttribute(name, value);
    }
    sources.forEach((source, index) => {
      const srcset = rendered.sources[index];
      if (srcset !== null && srcset !== undefined) {
        source.setAttribute("srcset", srcset);
      }
    });
    image.removeAttribute("data-inpage-src");
  };
  const showUrl = (url: string, src: string) => {
    if (!image) return;
    // A responsive image would keep showing the candidates it names.
    image.removeAttribute("srcset");
    image.removeAttribute("sizes");
    if (image.parentElement instanceof HTMLPictureElement) {
      for (const source of image.parentElement.querySelectorAll("source")) {
        source.removeAttribute("srcset");
      }
    }
    image.src = url;
    image.setAttribute("data-inpage-src", src);
  };
  element.addEventListener("click", onClick);
  element.addEventListener("keydown", onKey);
  element.addEventListener("focus", onFocus);
  const region: Region = {
    kind: "image",
    pointer,
    element,
    path: page.path,
    show(next) {
      if (!image || typeof next !== "object" || next === null) return;
      const media = next as Record<string, unknown>;
      if (media.src === storedSrc) {
        if (image.hasAttribute("data-inpage-src")) showRendered();
      } else if (
        typeof media.src === "string" &&
        image.getAttribute("data-inpage-src") !== media.src
      ) {
        showUrl(
          previews.get(media.src) ?? new URL(media.src, folder).href,
          media.src,
        );
      }
      if (typeof media.alt === "string") image.alt = media.alt;
    },
    preview(chosen, src) {
      // The region's own object URL: the session's is revoked once the
      // image is published.
      const url = previews.get(src) ?? URL.createObjectURL(chosen);
      previews.set(src, url);
      showUrl(url, src);
    },
    alias(from, to) {
      const url = previews.get(from);
      if (url !== undefined) previews.set(to, url);
      if (image?.getAttribute("data-inpage-src") === from) {
        image.setAttribute("data-inpage-src", to);
      }
    },
    destroy() {
      for (const url of new Set(previews.values())) URL.revokeObjectURL(url);
      element.removeEventListener("click", onClick);
      element.removeEventListener("keydown", onKey);
      element.removeEventListener("focus", onFocus);
    },
    repoint(next) {
      region.pointer = next;
      element.setAttribute(
        "aria-label",
        text("replaceImageField", { field: fieldName(next) }),
      );
    },
  };
  return region;
};

/** The kind of region each attribute marks (lists and link objects are
 * mounted by their own views, which ask the same question). */
const KINDS: Readonly<Record<string, FieldKind>> = {
  "data-inpage-text": "text",
  "data-inpage-html": "html",
  "data-inpage-image": "image",
  "data-inpage-list": "list",
  "data-inpage-link": "link",
};

/** The accessible name of a rich-text region. */
function richLabel(pointer: string): string {
  return text("editRichField", { field: fieldName(pointer) });
}

/** The region makers, by the attribute that marks their elements. */
const MAKERS: readonly (readonly [string, RegionMaker])[] = [
  ["data-inpage-text", textRegion],
  ["data-inpage-html", htmlRegion],
  ["data-inpage-image", imageRegion],
];

/**
 * The region holding the place a problem names: the one whose pointer is
 * `at` or its longest prefix.
 *
 * @param regions the page's regions
 * @param at the problem's JSON Pointer
 * @returns the region, if any
 */
export function findRegion(
  regions: readonly Region[],
  at: string,
): Region | undefined {
  let best: Region | undefined;
  for (const region of regions) {
    if (
      isWithin(at, region.pointer) &&
      (!best || region.pointer.length > best.pointer.length)
    ) best = region;
  }
  return best;
}

export { fieldName };
