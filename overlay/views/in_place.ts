/// <reference lib="dom" />
/**
 * Another version of the page shown in place, read-only: what History's
 * preview of a past version and an open review share. The page's regions
 * show the other values with the changed fields outlined; the editing
 * outlines, the bar and the toolbar go; nothing can be typed, no image
 * replaced, no undo made meanwhile; a banner docked at the bottom says what
 * is shown and holds the actions; Escape (or the banner's Back) leaves,
 * and the regions show the edit session's values again, exactly.
 *
 * It lives in the lazily loaded part of the overlay (with the History
 * panel and the review's view) and imports types only: what runs comes in
 * the kit.
 *
 * @module
 */

import type { Region } from "../regions.ts";
import type { PreviewField } from "../state/versions.ts";
import type { HistoryContext, HistoryKit } from "./history_types.ts";

/** The banner's styles, and the interface hidden while a version is shown. */
const BANNER_CSS = `
.ui.previewing > .bar, .ui.previewing > .problems, .ui.previewing > .alert, .ui.previewing > .toolbar { display: none !important; }
.preview { position: fixed; z-index: 2147483646; left: 0; right: 0; bottom: 16px; margin-inline: auto; width: min(760px, calc(100vw - 24px)); max-height: min(60vh, 520px); overflow: auto; padding: 12px 14px; background: #1e1b4b; color: #f9fafb; border-radius: 10px; box-shadow: 0 10px 30px rgba(0,0,0,.3); display: flex; flex-wrap: wrap; gap: 8px 12px; align-items: center; }
.preview .sentence { margin: 0; flex: 1 1 18em; font-weight: 600; overflow-wrap: anywhere; }
.preview .sentence:focus { outline: none; }
.preview .note { margin: 0; flex-basis: 100%; color: #c7d2fe; font-size: 13px; }
.preview .note:empty { display: none; }
.preview .actions { display: flex; gap: 8px; flex-wrap: wrap; }
.preview .fields { flex-basis: 100%; margin: 0; padding: 0; list-style: none; display: flex; flex-direction: column; gap: 4px; max-height: 30vh; overflow: auto; }
.preview .fields li { display: flex; align-items: center; justify-content: space-between; gap: 10px; padding: 4px 0; border-top: 1px solid #312e81; }
.preview .fields .name { overflow-wrap: anywhere; }
.preview button { background: #fff; color: #111827; border-color: #fff; }
.preview button:hover { background: #e0e7ff; }
.preview button.primary { background: #fbbf24; border-color: #fbbf24; color: #111827; }
.preview button.primary:hover { background: #f59e0b; }
.preview button:disabled { opacity: 1; background: #e0e7ff; border-color: #a5b4fc; color: #312e81; }
@media (max-width: 640px) { .preview { bottom: 0; width: 100vw; border-radius: 10px 10px 0 0; } }
`;

/** Rules for the page while another version is shown: the fields it changes. */
const PAGE_CSS = (a: HistoryKit["attributes"]) => `
html[${a.previewing}] [${a.differs}] { outline: 2px solid #6366f1; outline-offset: 3px; background-color: rgba(99, 102, 241, .08); }
html[${a.previewing}] [${a.html}] .tiptap { outline: none; white-space: pre-wrap; }
`;

let sheets: { banner: CSSStyleSheet; page: CSSStyleSheet } | undefined;
let shown = false;

/**
 * Whether another version is shown in place now (one at a time).
 *
 * @returns true while one is
 */
export function showingInPlace(): boolean {
  return shown;
}

/**
 * Makes the page read-only: nothing typed, no image replaced, no undo
 * meanwhile; Escape leaves.
 *
 * @returns a function that makes it editable again
 */
function readOnly(
  root: ShadowRoot,
  regions: readonly Region[],
  leave: () => void,
): () => void {
  const editable = new Map<Region, string>();
  for (const region of regions) {
    if (region.kind === "text") {
      editable.set(region, region.element.contentEditable);
      region.element.contentEditable = "false";
      region.element.setAttribute("aria-readonly", "true");
    } else if (region.setEditable) region.setEditable(false);
    else region.element.setAttribute("aria-disabled", "true");
  }
  const isImage = (target: EventTarget | null) =>
    target instanceof Element &&
    regions.some((region) =>
      region.kind === "image" && region.element.contains(target)
    );
  const block = (event: Event) => {
    if (event instanceof KeyboardEvent) {
      if (event.key === "Escape" && !root.querySelector("dialog[open]")) {
        event.preventDefault();
        return leave();
      }
      const key = event.key.toLowerCase();
      const undo = (event.ctrlKey || event.metaKey) &&
        (key === "z" || key === "y");
      const press = key === "enter" || key === " ";
      if (!undo && !(press && isImage(event.target))) return;
    } else if (!isImage(event.target)) return;
    event.preventDefault();
    event.stopImmediatePropagation();
  };
  addEventListener("click", block, true);
  addEventListener("keydown", block, true);
  return () => {
    removeEventListener("click", block, true);
    removeEventListener("keydown", block, true);
    for (const region of regions) {
      if (region.kind === "text") {
        region.element.contentEditable = editable.get(region) ??
          "plaintext-only";
        region.element.removeAttribute("aria-readonly");
      } else if (region.setEditable) region.setEditable(true);
      else region.element.removeAttribute("aria-disabled");
    }
  };
}

/**
 * The page shows another version: the editing outlines and the bar go,
 * the fields that differ are outlined.
 *
 * @returns a function that puts the page back in editing
 */
function previewMode(
  ui: Element,
  pageSheet: CSSStyleSheet,
  a: HistoryKit["attributes"],
): () => void {
  const html = document.documentElement;
  const wasEditing = html.hasAttribute(a.editing);
  html.removeAttribute(a.editing);
  html.setAttribute(a.previewing, "");
  document.adoptedStyleSheets = [...document.adoptedStyleSheets, pageSheet];
  ui.classList.add("previewing");
  return () => {
    ui.classList.remove("previewing");
    document.adoptedStyleSheets = document.adoptedStyleSheets.filter((s) =>
      s !== pageSheet
    );
    html.removeAttribute(a.previewing);
    if (wasEditing) html.setAttribute(a.editing, "");
  };
}

/** What is shown in place, and how it ends. */
export interface InPlaceView {
  /** The regions that show the other version (the others stay as they are). */
  regions: readonly Region[];
  /**
   * Their fields in the other version, computed again whenever the edit
   * session changes: one per region, in order.
   */
  fields(): readonly PreviewField[];
  /** The banner, docked at the bottom until the view ends. */
  banner: HTMLElement;
  /** Where the focus goes when it is shown (the banner's sentence). */
  focus: HTMLElement;
  /** Told whenever the fields are shown again (after a change). */
  shown?(): void;
  /** Told once the page is editable again. */
  left?(): void;
}

/**
 * Shows another version of the page in place until the function it
 * answers is called (or Escape is pressed): the regions show its values,
 * those that differ outlined, under the banner.
 *
 * @param context the overlay's root, store and dock
 * @param kit the attributes of the region contract
 * @param view the regions, their fields and the banner
 * @returns the function that leaves, putting every region back as the
 *   edit session has it; none when something is shown already
 */
export function showInPlace(
  context: Pick<HistoryContext, "root" | "store" | "dock">,
  kit: Pick<HistoryKit, "attributes">,
  view: InPlaceView,
): (() => void) | undefined {
  const { root, store } = context;
  const a = kit.attributes;
  const ui = root.querySelector(".ui");
  if (shown || !ui) return undefined;
  if (!sheets) {
    sheets = { banner: new CSSStyleSheet(), page: new CSSStyleSheet() };
    sheets.banner.replaceSync(BANNER_CSS);
    sheets.page.replaceSync(PAGE_CSS(a));
  }
  if (!root.adoptedStyleSheets.includes(sheets.banner)) {
    root.adoptedStyleSheets = [...root.adoptedStyleSheets, sheets.banner];
  }
  shown = true;
  const { regions } = view;
  const back = previewMode(ui, sheets.page, a);
  const display = () => {
    view.fields().forEach((field, index) => {
      const region = regions[index];
      if (!region) return;
      region.show(field.then === undefined ? field.now : field.then);
      region.element.toggleAttribute(a.differs, field.differs);
    });
    view.shown?.();
  };
  let left = false;
  const leave = () => {
    if (left) return;
    left = true;
    shown = false;
    unsubscribe();
    editable();
    undock();
    view.banner.remove();
    for (const region of regions) {
      region.element.removeAttribute(a.differs);
      region.show(store.state.valueOf(region.path, region.pointer));
    }
    back();
    view.left?.();
  };
  const editable = readOnly(root, regions, leave);
  const unsubscribe = store.subscribe(display);
  ui.append(view.banner);
  const undock = context.dock(view.banner);
  display();
  view.focus.focus();
  return leave;
}
