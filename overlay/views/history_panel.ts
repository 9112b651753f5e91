/// <reference lib="dom" />
/**
 * The History panel, a lazily loaded part of the overlay: a page's
 * publishes (when, who, message), newest first, with Older for the ones
 * before; choosing one previews that version in place, read-only, under a
 * banner with "Back to current" (also Escape) and "Restore this version",
 * and the list of every field that version holds differently (those no
 * region shows too, such as a description or a link's address), each with
 * "Restore this field". The list lives in the banner, never over the
 * page's content. A restore is a transaction of the edit state.
 *
 * @module
 */

// Types only: what runs comes in the kit (see `../history.ts`), so that
// this part shares no chunk with the overlay's entry.
import type { Region } from "../regions.ts";
import type { HistoryEntry, PreviewField } from "../state/versions.ts";
import type { PageObject } from "../state/values.ts";
import type { HistoryContext, HistoryKit } from "./history_types.ts";

const PANEL_CSS = `
dialog.history { width: min(560px, calc(100vw - 24px)); }
dialog.history .page { font-weight: 400; overflow-wrap: anywhere; }
dialog.history select { font: inherit; padding: 6px 8px; border: 1px solid #9ca3af; border-radius: 6px; font-weight: 400; }
dialog.history ol { list-style: none; margin: 0; padding: 2px; display: flex; flex-direction: column; gap: 6px; max-height: min(52vh, 440px); overflow: auto; }
dialog.history .entry { width: 100%; text-align: left; display: grid; grid-template-columns: 1fr auto; gap: 2px 10px; padding: 8px 10px; border-color: #d1d5db; }
dialog.history .entry .when { font-weight: 600; }
dialog.history .entry .who { color: #374151; text-align: right; }
dialog.history .entry .what { grid-column: 1 / -1; overflow-wrap: anywhere; }
dialog.history .entry .what.none { color: #4b5563; font-style: italic; }
dialog.history .entry .tag { grid-column: 1 / -1; justify-self: start; font-size: 12px; font-weight: 700; color: #065f46; background: #d1fae5; border-radius: 4px; padding: 0 6px; }
dialog.history .note:empty { display: none; }
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

/** Rules for the page while a version is previewed: the fields it changes. */
const PREVIEW_PAGE_CSS = (a: HistoryKit["attributes"]) => `
html[${a.previewing}] [${a.differs}] { outline: 2px solid #6366f1; outline-offset: 3px; background-color: rgba(99, 102, 241, .08); }
html[${a.previewing}] [${a.html}] .tiptap { outline: none; white-space: pre-wrap; }
`;

let sheets: { panel: CSSStyleSheet; page: CSSStyleSheet } | undefined;
let previewing = false;

/** The panel's list of publishes, and what it loads. */
interface Panel {
  dialog: HTMLDialogElement;
  list: HTMLElement;
  note: HTMLElement;
  older: HTMLButtonElement;
  path: string;
  entries: HistoryEntry[];
  chosen: { entry: HistoryEntry; page: PageObject } | undefined;
}

/**
 * Shows the History panel of the page (or, with several page files, of the
 * one chosen), and previews the version the person chooses.
 *
 * @param context the overlay's root, client, store and regions
 * @param kit the overlay's code the panel uses
 * @returns when the panel is closed, or the preview shown
 */
export async function showHistory(
  context: HistoryContext,
  kit: HistoryKit,
): Promise<void> {
  const { root, store } = context;
  if (previewing || store.state.pages.length === 0) return;
  if (!sheets) {
    sheets = { panel: new CSSStyleSheet(), page: new CSSStyleSheet() };
    sheets.panel.replaceSync(PANEL_CSS);
    sheets.page.replaceSync(PREVIEW_PAGE_CSS(kit.attributes));
  }
  if (!root.adoptedStyleSheets.includes(sheets.panel)) {
    root.adoptedStyleSheets = [...root.adoptedStyleSheets, sheets.panel];
  }
  const panel = buildPanel(context, kit);
  const closed = kit.showDialog(root, panel.dialog);
  await load(context, kit, panel);
  if (await closed !== "preview" || !panel.chosen) return;
  preview(context, kit, panel.path, panel.chosen, sheets.page);
}

/** Builds the panel's dialog. */
function buildPanel(context: HistoryContext, kit: HistoryKit): Panel {
  const { h, text } = kit;
  const pages = context.store.state.pages;
  const picker = pages.length > 1
    ? h(
      "select",
      {},
      ...pages.map((page) => h("option", { value: page.path }, page.path)),
    )
    : undefined;
  const panel: Panel = {
    dialog: h("dialog", {
      class: "history",
      "aria-labelledby": "inpage-history-title",
    }),
    list: h("ol", { "aria-label": text("historyList") }),
    note: h("p", { class: "note hint", role: "status" }, text("loading")),
    older: h("button", { type: "button", hidden: true }, text("historyOlder")),
    path: pages[0]!.path,
    entries: [],
    chosen: undefined,
  };
  panel.dialog.append(h(
    "div",
    { class: "body" },
    h("h2", { id: "inpage-history-title" }, text("history")),
    picker
      ? h("label", {}, text("historyPageFile"), picker)
      : h("p", { class: "page hint" }, panel.path),
    h("p", { class: "hint" }, text("historyHint")),
    panel.list,
    panel.note,
    h(
      "div",
      { class: "actions" },
      panel.older,
      h("button", {
        type: "button",
        onclick: () => panel.dialog.close("cancel"),
      }, text("close")),
    ),
  ));
  panel.older.addEventListener("click", () => {
    const last = panel.entries.at(-1);
    if (!last) return;
    void load(context, kit, panel, last.commit).then(() =>
      panel.list.querySelectorAll("button")[panel.entries.length - 1]?.focus()
    );
  });
  picker?.addEventListener("change", () => {
    panel.path = picker.value;
    panel.entries = [];
    render(context, kit, panel);
    void load(context, kit, panel);
  });
  return panel;
}

/** Shows the publishes listed. */
function render(context: HistoryContext, kit: HistoryKit, panel: Panel): void {
  const { h, text } = kit;
  const current = context.store.state.page(panel.path)?.version;
  panel.list.replaceChildren(
    ...panel.entries.map((entry, index) =>
      h(
        "li",
        {},
        h(
          "button",
          {
            type: "button",
            class: "entry",
            onclick: () => void choose(context, kit, panel, entry),
          },
          h("span", { class: "when" }, kit.dateTime(entry.date)),
          h("span", { class: "who" }, entry.author),
          entry.message.trim() === ""
            ? h("span", { class: "what none" }, text("historyNoMessage"))
            : h("span", { class: "what" }, entry.message),
          index === 0 && entry.version === current &&
            h("span", { class: "tag" }, text("historyCurrent")),
        ),
      )
    ),
  );
}

/** Loads a page of publishes (those before `before`, when given). */
async function load(
  context: HistoryContext,
  kit: HistoryKit,
  panel: Panel,
  before?: string,
): Promise<void> {
  const { text } = kit;
  panel.older.disabled = true;
  panel.note.textContent = text("loading");
  try {
    const answer = await context.client.history(panel.path, before);
    const next = kit.logic.addEntries(
      before === undefined ? [] : panel.entries,
      answer.entries,
    );
    panel.entries = next.entries;
    panel.older.hidden = !next.more;
    panel.note.textContent = panel.entries.length === 0
      ? text("historyEmpty")
      : "";
    render(context, kit, panel);
  } catch (error) {
    panel.note.textContent = kit.sentence(error, text("historyReadFailed"));
  } finally {
    panel.older.disabled = false;
  }
}

/** Reads the version chosen, then closes the panel to preview it. */
async function choose(
  context: HistoryContext,
  kit: HistoryKit,
  panel: Panel,
  entry: HistoryEntry,
): Promise<void> {
  panel.note.textContent = kit.text("historyLoadingVersion");
  try {
    const { content } = await context.client.readAt(panel.path, entry.commit);
    panel.chosen = { entry, page: JSON.parse(content) as PageObject };
    panel.dialog.close("preview");
  } catch (error) {
    panel.note.textContent = kit.sentence(
      error,
      kit.text("historyVersionFailed"),
    );
  }
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
    } else if (region.kind === "html") region.setEditable?.(false);
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
      } else if (region.kind === "html") region.setEditable?.(true);
      else region.element.removeAttribute("aria-disabled");
    }
  };
}

/** The preview's banner and its list of fields, kept up to date. */
interface Banner {
  element: HTMLElement;
  sentence: HTMLElement;
  render(restored: ReadonlySet<string>): void;
}

/** Builds the banner: the sentence, the buttons, the fields that differ. */
function banner(
  context: HistoryContext,
  kit: HistoryKit,
  page: { path: string; entry: HistoryEntry; fields: PreviewField[] },
  act: {
    leave(): void;
    restoreAll(): void;
    restore(field: PreviewField): void;
  },
): Banner {
  const { h, text, plural } = kit;
  const sentence = h(
    "p",
    { class: "sentence", id: "inpage-preview-sentence", tabindex: "-1" },
    kit.bannerWords(page.entry, kit.dateTime(page.entry.date)),
  );
  const note = h("p", { class: "note", role: "status" });
  const list = h("ul", { class: "fields" });
  const element = h(
    "div",
    { class: "preview", role: "region", "aria-labelledby": sentence.id },
    sentence,
    h(
      "div",
      { class: "actions" },
      h("button", { type: "button", onclick: act.leave }, text("historyBack")),
      h("button", {
        type: "button",
        class: "primary",
        onclick: act.restoreAll,
      }, text("historyRestoreVersion")),
    ),
    note,
    list,
  );
  const render = (restored: ReadonlySet<string>) => {
    const left = page.fields.filter((field) => !restored.has(field.pointer));
    if (note.dataset.said !== "yes") {
      note.textContent = left.length === 0
        ? text("historySame")
        : plural("historyDiffer", left.length);
    }
    list.replaceChildren(...page.fields.map((field) => {
      const name = context.label(page.path, field.pointer);
      const done = restored.has(field.pointer);
      return h(
        "li",
        {},
        h("span", { class: "name" }, name),
        h("button", {
          type: "button",
          disabled: done,
          "aria-label": text(
            done ? "historyRestoredOf" : "historyRestoreFieldOf",
            { field: name },
          ),
          onclick: () => act.restore(field),
        }, text(done ? "historyRestored" : "historyRestoreField")),
      );
    }));
  };
  return {
    element,
    sentence,
    render(restored) {
      render(restored);
      if (restored.size > 0) {
        const last = [...restored].at(-1)!;
        note.dataset.said = "yes";
        note.textContent = text("historyFieldRestored", {
          field: context.label(page.path, last),
        });
      }
    },
  };
}

/**
 * The page shows a past version: the editing outlines and the bar go, the
 * fields that differ are outlined.
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

/** A past version being previewed. */
interface Previewed {
  path: string;
  chosen: { entry: HistoryEntry; page: PageObject };
  /** The fields restored so far. */
  restored: Set<string>;
  /** Its time, in words. */
  when: string;
}

/** Restoring the whole version, or one of its fields, as transactions. */
function restoring(
  context: HistoryContext,
  kit: HistoryKit,
  shown: Previewed,
  leave: () => void,
  restored: () => void,
) {
  const { store } = context;
  const { path, chosen, when } = shown;
  const message = (words: string) => {
    if (store.state.message.trim() === "") {
      store.dispatch(store.state.tr.setMessage(words));
    }
  };
  return {
    leave,
    restoreAll: () => {
      const changes = kit.logic.restorePage(
        store.state.valueOf(path, ""),
        chosen.page,
      );
      message(
        kit.text("historyVersionMessage", {
          when,
          author: chosen.entry.author,
        }),
      );
      store.dispatch(kit.logic.restoreFields(store.state, path, changes));
      leave();
    },
    restore: (field: PreviewField) => {
      const name = context.label(path, field.pointer);
      message(kit.text("historyFieldMessage", {
        field: name.charAt(0).toLowerCase() + name.slice(1),
        when,
      }));
      const tr = kit.logic.restoreFields(
        store.state,
        path,
        kit.logic.restoreField(field),
      );
      if (!tr) return;
      shown.restored.add(field.pointer);
      store.dispatch(tr);
      restored();
    },
  };
}

/** Shows a past version in the regions of a page until the person leaves. */
function preview(
  context: HistoryContext,
  kit: HistoryKit,
  path: string,
  chosen: { entry: HistoryEntry; page: PageObject },
  pageSheet: CSSStyleSheet,
): void {
  const { root, store } = context;
  const a = kit.attributes;
  const ui = root.querySelector(".ui");
  if (!ui) return;
  previewing = true;
  const regions = context.regions().filter((region) => region.path === path);
  const back = previewMode(ui, pageSheet, a);
  const shown: Previewed = {
    path,
    chosen,
    restored: new Set(),
    when: kit.dateTime(chosen.entry.date),
  };
  const fields = kit.logic.differingFields(
    store.state.valueOf(path, ""),
    chosen.page,
  );
  const display = () => {
    kit.logic.previewFields(
      regions.map((region) => region.pointer),
      chosen.page,
      (pointer) => store.state.valueOf(path, pointer),
    ).forEach((field, index) => {
      const region = regions[index]!;
      region.show(field.then === undefined ? field.now : field.then);
      region.element.toggleAttribute(a.differs, field.differs);
    });
    bar.render(shown.restored);
  };
  const bar = banner(
    context,
    kit,
    { path, entry: chosen.entry, fields },
    restoring(context, kit, shown, () => leave(), () => {
      const name = context.label(path, [...shown.restored].at(-1) ?? "");
      [...bar.element.querySelectorAll<HTMLButtonElement>("button:disabled")]
        .find((button) => button.getAttribute("aria-label")?.endsWith(name))
        ?.focus();
    }),
  );
  const editable = readOnly(root, regions, () => leave());
  const unsubscribe = store.subscribe(() => display());
  ui.append(bar.element);
  const undock = context.dock(bar.element);

  function leave(): void {
    previewing = false;
    unsubscribe();
    editable();
    undock();
    bar.element.remove();
    for (const region of regions) {
      region.element.removeAttribute(a.differs);
      region.show(store.state.valueOf(path, region.pointer));
    }
    back();
    root.querySelector<HTMLElement>(".bar .more")?.focus();
  }

  display();
  bar.sentence.focus();
}
