/// <reference lib="dom" />
/**
 * A markdown region (`data-inpage-markdown`): a string the site renders as
 * CommonMark, edited in place as rich text and written back as markdown,
 * only the blocks that changed (`../markdown_text.ts`, a lazily loaded
 * part). The part is fetched as soon as the page opens for editing; until
 * it is there the region is the site's own rendering, editable by the
 * browser, and what is typed meanwhile is played again in the editor when
 * it takes the region's place (`dormant_typing.ts`). A block the editor cannot
 * represent (code, a table, raw HTML, …) is shown, not editable, and kept
 * as written.
 *
 * @module
 */

import type { MarkdownText } from "../markdown_text.ts";
import { text } from "../i18n/mod.ts";
import type { Region, RegionHooks, RegionMaker } from "./region.ts";
import { loadMarkdownText } from "./markdown_part.ts";
import {
  dormantSelection,
  keepTyping,
  replayTyping,
  type TypedStep,
} from "./dormant_typing.ts";
import { loadPart, richKeys } from "./rich_shared.ts";

/** What a markdown region keeps while its editor loads. */
interface MarkdownRegionState {
  region: Region;
  hooks: RegionHooks;
  /** The value as read. */
  stored: string;
  /** The value to show once the editor is there. */
  shown: string;
  /** What was typed before the editor was there. */
  steps: TypedStep[];
  /** Stops keeping what is typed: the editor is there. */
  stopTyping: () => void;
  editable: boolean;
  destroyed: boolean;
  waking: Promise<void> | undefined;
}

/** The dormant region's attributes, until its editor takes its place. */
const DORMANT = ["contenteditable", "role", "aria-multiline", "aria-label"];

/** Loads the editor and puts it in the region's place. */
function wake(state: MarkdownRegionState): Promise<void> {
  return state.waking ??= (async () => {
    const { region, hooks } = state;
    const element = region.element;
    const part = await loadPart(region, hooks, loadMarkdownText);
    if (!part) {
      state.waking = undefined;
      return;
    }
    if (state.destroyed) return;
    state.stopTyping();
    const focused = element.contains(document.activeElement);
    const selected = focused ? dormantSelection(element) ?? [] : [];
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
    const typed = state.steps.splice(0);
    replayTyping(rich, typed);
    if (!state.editable) rich.editor.setEditable(false, false);
    if (focused && !typed.length) rich.focusAt(...selected);
    hooks.richReady(region);
  })();
}

/** The region's listeners: typing and the focus before the editor, keys. */
function listen(state: MarkdownRegionState): () => void {
  const { region, hooks } = state;
  const element = region.element;
  const onFocus = () => {
    if (region.rich) return;
    hooks.focus(region);
    void wake(state);
  };
  const onBlur = () => {
    if (!region.rich) hooks.blur(region);
  };
  const listeners: Array<[string, EventListener]> = [
    ["focus", onFocus],
    ["blur", onBlur],
    ["keydown", richKeys(region, hooks, () => wake(state)) as EventListener],
  ];
  for (const [type, listener] of listeners) {
    element.addEventListener(type, listener);
  }
  state.stopTyping = keepTyping(element, state.steps);
  return () => {
    state.stopTyping();
    for (const [type, listener] of listeners) {
      element.removeEventListener(type, listener);
    }
  };
}

/** Makes a markdown region. */
export const markdownRegion: RegionMaker = (page, element, pointer, hooks) => {
  const value = page.stored(pointer);
  const stored = typeof value === "string" ? value : "";
  element.setAttribute("contenteditable", "true");
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
      // The site's rendering shows the stored value only: another one
      // waits for the editor.
      if (!region.rich && markdown !== state.stored) {
        element.contentEditable = "false";
      }
    },
    setEditable(on) {
      state.editable = on;
      if (region.rich) region.rich.editor.setEditable(on, false);
      else if (state.shown === state.stored) {
        element.contentEditable = String(on);
      }
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
    steps: [],
    stopTyping: () => {},
    editable: true,
    destroyed: false,
    waking: undefined,
  };
  const stop = listen(state);
  void wake(state);
  return region;
};
