/// <reference lib="dom" />
/**
 * A rich-text region (`data-inpage-html`). Until its editor is loaded it is
 * the site's own markup, editable by the browser ("dormant"); the editor
 * (Tiptap, a lazily loaded part) is fetched when the pointer first comes
 * over it, and takes its place on focus, with what was typed meanwhile and
 * the caret where it was. A region that must show another value than the
 * site rendered loads its editor at once.
 *
 * @module
 */

import type { Region, RegionHooks, RegionMaker } from "./region.ts";
import { loadRichText } from "./rich_part.ts";
import { dropRefusedLinks, markupText } from "../rich_markup.ts";

/** The accessible name of a rich-text region. */
function richLabel(hooks: RegionHooks, element: Element): string {
  return hooks.label("html", element);
}

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

/** What a rich-text region keeps between its dormant and woken forms. */
interface HtmlRegionState {
  region: Region;
  hooks: RegionHooks;
  /** The value as read. */
  stored: unknown;
  /** A value to show once the editor is loaded. */
  wanted: string | undefined;
  /** Whether something was typed before the editor was loaded. */
  typed: boolean;
  editable: boolean;
  destroyed: boolean;
  waking: Promise<void> | undefined;
  /** The editor's own form of the stored value. */
  initial: string;
}

/** The dormant region's attributes, until its editor takes its place. */
const DORMANT = ["contenteditable", "role", "aria-multiline", "aria-label"];

/** Loads the editor and puts it in the region's place. */
function wake(state: HtmlRegionState): Promise<void> {
  return state.waking ??= (async () => {
    const { region, hooks } = state;
    const element = region.element;
    element.setAttribute("aria-busy", "true");
    let part: typeof import("../rich_text.ts");
    try {
      part = await loadRichText();
    } catch {
      element.removeAttribute("aria-busy");
      state.waking = undefined;
      hooks.richUnavailable(region);
      return;
    }
    if (state.destroyed) return;
    const focused = element.contains(document.activeElement);
    const selected = focused ? selectionOffsets(element) : [];
    const typedHtml = state.typed ? element.innerHTML : undefined;
    for (const name of [...DORMANT, "aria-busy", "aria-invalid"]) {
      element.removeAttribute(name);
    }
    const stored = typeof state.stored === "string" ? state.stored : "";
    const rich = part.createRichText(element, stored, {
      label: richLabel(hooks, element),
      onChange: (html) =>
        // An untouched field keeps its stored markup, even where the
        // editor would write it differently.
        hooks.typed(region, html === state.initial ? state.stored : html),
      onFocus: () => hooks.richFocus(region),
      onBlur: () => hooks.blur(region),
      onSelection: () => hooks.richSelection(region),
      paste: dropRefusedLinks,
    });
    state.initial = rich.html();
    region.rich = rich;
    if (state.wanted !== undefined) region.show(state.wanted);
    if (typedHtml !== undefined) rich.edit(typedHtml);
    if (!state.editable) rich.editor.setEditable(false, false);
    if (focused) rich.focusAt(...selected);
    hooks.richReady(region);
  })();
}

/** The dormant region's listeners: focus wakes it, a hover fetches it. */
function listen(state: HtmlRegionState): () => void {
  const { region, hooks } = state;
  const element = region.element;
  const onKey = (event: KeyboardEvent) => {
    const ask = event.altKey && event.key === "F10"
      ? hooks.richToolbar
      : (event.ctrlKey || event.metaKey) && event.key.toLowerCase() === "k"
      ? hooks.richLink
      : undefined;
    if (!ask) return;
    event.preventDefault();
    if (region.rich) ask(region);
    else void wake(state).then(() => region.rich && ask(region));
  };
  const listeners: Array<[string, EventListener]> = [
    ["input", () => state.typed = true],
    ["focus", () => {
      if (region.rich) return;
      hooks.focus(region);
      void wake(state);
    }],
    ["blur", () => {
      if (!region.rich) hooks.blur(region);
    }],
    ["pointerenter", () => void loadRichText().catch(() => {})],
    ["touchstart", () => void loadRichText().catch(() => {})],
    ["keydown", onKey as EventListener],
  ];
  for (const [type, listener] of listeners) {
    element.addEventListener(type, listener, {
      passive: type === "touchstart",
    });
  }
  return () => {
    for (const [type, listener] of listeners) {
      element.removeEventListener(type, listener);
    }
  };
}

/** Shows a value: in the editor, or by loading it when it differs. */
function show(state: HtmlRegionState, next: unknown): void {
  const html = typeof next === "string" ? next : "";
  const rich = state.region.rich;
  if (!rich) {
    // The site's markup shows the stored value; another one needs the
    // editor.
    if (html === state.stored && state.wanted === undefined) return;
    state.wanted = html;
    state.region.element.contentEditable = "false";
    void wake(state);
    return;
  }
  if (rich.html() === html) return;
  // The stored markup, shown again: the editor's own form of it.
  if (html === state.stored && rich.html() === state.initial) return;
  rich.setHtml(html);
}

/** Makes a rich-text region. */
export const htmlRegion: RegionMaker = (page, element, pointer, hooks) => {
  const stored = page.stored(pointer);
  element.setAttribute("contenteditable", "true");
  element.setAttribute("role", "textbox");
  element.setAttribute("aria-multiline", "true");
  element.setAttribute("aria-label", richLabel(hooks, element));
  const region: Region = {
    kind: "html",
    pointer,
    element,
    path: page.path,
    show: (next) => show(state, next),
    setEditable(on) {
      state.editable = on;
      if (region.rich) region.rich.editor.setEditable(on, false);
      else if (state.wanted === undefined) element.contentEditable = String(on);
    },
    destroy() {
      state.destroyed = true;
      stop();
      if (region.rich) region.rich.destroy();
      else {
        for (const name of [...DORMANT, "aria-busy"]) {
          element.removeAttribute(name);
        }
      }
    },
    repoint(next) {
      region.pointer = next;
      (region.rich?.editor.view.dom ?? element).setAttribute(
        "aria-label",
        richLabel(hooks, element),
      );
    },
  };
  const state: HtmlRegionState = {
    region,
    hooks,
    stored,
    wanted: undefined,
    typed: false,
    editable: true,
    destroyed: false,
    waking: undefined,
    initial: "",
  };
  const stop = listen(state);
  // A site that shows other text than the file holds (a build behind the
  // repository, a copied list item) shows the file's value at once.
  const storedText = typeof stored === "string" ? stored : "";
  if (squeeze(element.textContent ?? "") !== squeeze(markupText(storedText))) {
    state.wanted = storedText;
    element.contentEditable = "false";
    void wake(state);
  }
  return region;
};
