/// <reference lib="dom" />
/**
 * A markdown region (`data-inpage-markdown`): a string the site renders as
 * CommonMark, edited in place as rich text and written back as markdown,
 * only the blocks that changed (`../markdown_text.ts`, a lazily loaded
 * part). The part is fetched as soon as the page opens for editing; until
 * it is there the region is the site's own rendering, which the focus
 * reaches, and the editor then takes its place. A block the editor cannot
 * represent (code, a table, raw HTML, …) is shown, not editable, and kept
 * as written.
 *
 * @module
 */

import type { MarkdownText } from "../markdown_text.ts";
import { text } from "../i18n/mod.ts";
import type { Region, RegionHooks, RegionMaker } from "./region.ts";
import { loadMarkdownText } from "./markdown_part.ts";

/** What a markdown region keeps while its editor loads. */
interface MarkdownRegionState {
  region: Region;
  hooks: RegionHooks;
  /** The value as read. */
  stored: string;
  /** The value to show once the editor is there. */
  shown: string;
  editable: boolean;
  destroyed: boolean;
  waking: Promise<void> | undefined;
}

/** The dormant region's attributes, until its editor takes its place. */
const DORMANT = ["tabindex", "role", "aria-multiline", "aria-label"];

/** Loads the editor and puts it in the region's place. */
function wake(state: MarkdownRegionState): Promise<void> {
  return state.waking ??= (async () => {
    const { region, hooks } = state;
    const element = region.element;
    element.setAttribute("aria-busy", "true");
    let part: Awaited<ReturnType<typeof loadMarkdownText>>;
    try {
      part = await loadMarkdownText();
    } catch {
      element.removeAttribute("aria-busy");
      state.waking = undefined;
      hooks.richUnavailable(region);
      return;
    }
    if (state.destroyed) return;
    const focused = element.contains(document.activeElement);
    for (const name of [...DORMANT, "aria-busy"]) element.removeAttribute(name);
    const rich: MarkdownText = part.createMarkdownText(element, state.shown, {
      label: hooks.label("markdown", element),
      keptTitle: text("markdownKept"),
      onChange: (markdown) => hooks.typed(region, markdown),
      onFocus: () => hooks.richFocus(region),
      onBlur: () => hooks.blur(region),
      onSelection: () => hooks.richSelection(region),
    });
    region.rich = rich;
    if (!state.editable) rich.editor.setEditable(false, false);
    if (focused) rich.focusAt();
    hooks.richReady(region);
  })();
}

/** The region's listeners: the focus before the editor, Alt+F10, Ctrl+K. */
function listen(state: MarkdownRegionState): () => void {
  const { region, hooks } = state;
  const element = region.element;
  const onKey = (event: KeyboardEvent) => {
    const ask = event.altKey && event.key === "F10"
      ? hooks.richToolbar
      : (event.ctrlKey || event.metaKey) && event.key.toLowerCase() === "k"
      ? hooks.richLink
      : undefined;
    if (!ask || !region.rich) return;
    event.preventDefault();
    ask(region);
  };
  const onFocus = () => {
    if (region.rich) return;
    hooks.focus(region);
    void wake(state);
  };
  const listeners: Array<[string, EventListener]> = [
    ["focus", onFocus],
    ["keydown", onKey as EventListener],
  ];
  for (const [type, listener] of listeners) {
    element.addEventListener(type, listener);
  }
  return () => {
    for (const [type, listener] of listeners) {
      element.removeEventListener(type, listener);
    }
  };
}

/** Makes a markdown region. */
export const markdownRegion: RegionMaker = (page, element, pointer, hooks) => {
  const value = page.stored(pointer);
  const stored = typeof value === "string" ? value : "";
  element.tabIndex = 0;
  element.setAttribute("role", "textbox");
  element.setAttribute("aria-multiline", "true");
  element.setAttribute("aria-label", hooks.label("markdown", element));
  const region: Region = {
    kind: "markdown",
    pointer,
    element,
    path: page.path,
    show(next) {
      const markdown = typeof next === "string" ? next : "";
      state.shown = markdown;
      if (region.rich && region.rich.html() !== markdown) {
        region.rich.setHtml(markdown);
      }
    },
    setEditable(on) {
      state.editable = on;
      region.rich?.editor.setEditable(on, false);
    },
    destroy() {
      state.destroyed = true;
      stop();
      if (region.rich) region.rich.destroy();
      else for (const name of DORMANT) element.removeAttribute(name);
    },
    repoint(next) {
      region.pointer = next;
      (region.rich?.editor.view.dom ?? element).setAttribute(
        "aria-label",
        hooks.label("markdown", element),
      );
    },
  };
  const state: MarkdownRegionState = {
    region,
    hooks,
    stored,
    shown: stored,
    editable: true,
    destroyed: false,
    waking: undefined,
  };
  const stop = listen(state);
  void wake(state);
  return region;
};
