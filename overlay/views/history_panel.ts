/// <reference lib="dom" />
/**
 * The History panel, a lazily loaded part of the overlay: a page's
 * publishes (when, who, message), newest first, with Older for the ones
 * before; choosing one previews that version in place, read-only, under a
 * banner with "Back to current" (also Escape) and "Restore this version", and a
 * "Restore this field" button on each region the version shows differently.
 * A restore is a change of the edit session (see `session/history.ts`).
 *
 * @module
 */

// Types only: what runs comes in the kit (see `../history.ts`), so that
// this part shares no chunk with the overlay's entry.
import type { PageObject } from "../../client/mod.ts";
import type { HistoryContext, HistoryKit } from "../history.ts";
import type { Region } from "../regions.ts";
import type { HistoryEntry } from "../session/history.ts";

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
.preview { position: fixed; z-index: 2147483646; left: 0; right: 0; bottom: 16px; margin-inline: auto; width: min(760px, calc(100vw - 24px)); padding: 12px 14px; background: #1e1b4b; color: #f9fafb; border-radius: 10px; box-shadow: 0 10px 30px rgba(0,0,0,.3); display: flex; flex-wrap: wrap; gap: 8px 12px; align-items: center; }
.preview .sentence { margin: 0; flex: 1 1 18em; font-weight: 600; overflow-wrap: anywhere; }
.preview .sentence:focus { outline: none; }
.preview .note { margin: 0; flex-basis: 100%; color: #c7d2fe; font-size: 13px; }
.preview .note:empty { display: none; }
.preview .actions { display: flex; gap: 8px; flex-wrap: wrap; }
.preview button { background: #fff; color: #111827; border-color: #fff; }
.preview button:hover { background: #e0e7ff; }
.preview button.primary { background: #fbbf24; border-color: #fbbf24; color: #111827; }
.preview button.primary:hover { background: #f59e0b; }
.restore-field { position: fixed; z-index: 2147483645; transform: translate(-100%, -100%); font-size: 13px; min-height: 28px; padding: 2px 10px; background: #4338ca; border-color: #4338ca; color: #fff; box-shadow: 0 4px 12px rgba(0,0,0,.25); white-space: nowrap; }
.restore-field:hover { background: #3730a3; }
.restore-field:disabled { opacity: 1; background: #e0e7ff; border-color: #a5b4fc; color: #312e81; }
`;

/** Rules for the page while a version is previewed: the fields it changes. */
const PREVIEW_PAGE_CSS = `
html[data-inpage-previewing] [data-inpage-differs] { outline: 2px solid #6366f1; outline-offset: 3px; background-color: rgba(99, 102, 241, .08); }
html[data-inpage-previewing] [data-inpage-html] .tiptap { outline: none; white-space: pre-wrap; }
`;

const EDITING = "data-inpage-editing";
const PREVIEWING = "data-inpage-previewing";
const DIFFERS = "data-inpage-differs";

let sheets: { panel: CSSStyleSheet; page: CSSStyleSheet } | undefined;
let previewing = false;

/**
 * Shows the History panel of the page (or, with several page files, of the
 * one chosen), and previews the version the person chooses.
 *
 * @param context the overlay's root, client, session and regions
 * @param kit the overlay's code the panel uses
 * @returns when the panel is closed, or the preview shown
 */
export async function showHistory(
  context: HistoryContext,
  kit: HistoryKit,
): Promise<void> {
  const { root, client, session } = context;
  const { h, showDialog, text } = kit;
  const { addEntries, whenText } = kit.logic;
  if (previewing || session.pages.length === 0) return;
  if (!sheets) {
    sheets = { panel: new CSSStyleSheet(), page: new CSSStyleSheet() };
    sheets.panel.replaceSync(PANEL_CSS);
    sheets.page.replaceSync(PREVIEW_PAGE_CSS);
  }
  if (!root.adoptedStyleSheets.includes(sheets.panel)) {
    root.adoptedStyleSheets = [...root.adoptedStyleSheets, sheets.panel];
  }

  let path = session.pages[0]!.path;
  let entries: HistoryEntry[] = [];
  let chosen: { entry: HistoryEntry; page: PageObject } | undefined;
  const list = h("ol", { "aria-label": text("historyList") });
  const note = h("p", { class: "note hint", role: "status" }, text("loading"));
  const older = h(
    "button",
    { type: "button", hidden: true },
    text("historyOlder"),
  );
  const title = h("h2", { id: "inpage-history-title" }, text("history"));
  const picker = session.pages.length > 1
    ? h(
      "select",
      {},
      ...session.pages.map((page) =>
        h("option", { value: page.path }, page.path)
      ),
    )
    : undefined;
  const dialog = h(
    "dialog",
    { class: "history", "aria-labelledby": "inpage-history-title" },
    h(
      "div",
      { class: "body" },
      title,
      picker
        ? h("label", {}, text("historyPageFile"), picker)
        : h("p", { class: "page hint" }, path),
      h("p", { class: "hint" }, text("historyHint")),
      list,
      note,
      h(
        "div",
        { class: "actions" },
        older,
        h("button", {
          type: "button",
          onclick: () => dialog.close("cancel"),
        }, text("close")),
      ),
    ),
  );

  const render = () => {
    const current = session.page(path)?.version;
    list.replaceChildren(
      ...entries.map((entry, index) =>
        h(
          "li",
          {},
          h(
            "button",
            {
              type: "button",
              class: "entry",
              onclick: () => void choose(entry),
            },
            h("span", { class: "when" }, whenText(entry.date)),
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
  };

  const load = async (before?: string) => {
    older.disabled = true;
    note.textContent = text("loading");
    try {
      const answer = await client.history(path, before);
      const next = addEntries(
        before === undefined ? [] : entries,
        answer.entries,
      );
      entries = next.entries;
      older.hidden = !next.more;
      note.textContent = entries.length === 0 ? text("historyEmpty") : "";
      render();
    } catch (error) {
      note.textContent = kit.sentence(error, text("historyReadFailed"));
    } finally {
      older.disabled = false;
    }
  };

  const choose = async (entry: HistoryEntry) => {
    note.textContent = text("historyLoadingVersion");
    try {
      const { content } = await client.readAt(path, entry.commit);
      chosen = { entry, page: JSON.parse(content) as PageObject };
      dialog.close("preview");
    } catch (error) {
      note.textContent = kit.sentence(error, text("historyVersionFailed"));
    }
  };

  older.addEventListener("click", () => {
    const last = entries.at(-1);
    if (last) {
      void load(last.commit).then(() =>
        list.querySelectorAll("button")[entries.length - 1]?.focus()
      );
    }
  });
  picker?.addEventListener("change", () => {
    path = picker.value;
    entries = [];
    render();
    void load();
  });

  const closed = showDialog(root, dialog);
  await load();
  if (await closed !== "preview" || !chosen) return;
  preview(context, kit, path, chosen.entry, chosen.page, sheets.page);
}

/** Shows a past version in the regions of a page until the person leaves. */
function preview(
  context: HistoryContext,
  kit: HistoryKit,
  path: string,
  entry: HistoryEntry,
  version: PageObject,
  pageSheet: CSSStyleSheet,
): void {
  const { root, session } = context;
  const { h, fieldName, text, plural } = kit;
  const { bannerSentence, previewFields, restoreField, restorePage, whenText } =
    kit.logic;
  const ui = root.querySelector(".ui");
  if (!ui) return;
  previewing = true;
  const regions = context.regions().filter((region) => region.path === path);
  const html = document.documentElement;
  const wasEditing = html.hasAttribute(EDITING);
  html.removeAttribute(EDITING);
  html.setAttribute(PREVIEWING, "");
  document.adoptedStyleSheets = [...document.adoptedStyleSheets, pageSheet];
  ui.classList.add("previewing");

  // Read-only: nothing typed, no image replaced, no undo meanwhile.
  const editable = new Map<Region, string>();
  for (const region of regions) {
    if (region.kind === "text") {
      editable.set(region, region.element.contentEditable);
      region.element.contentEditable = "false";
      region.element.setAttribute("aria-readonly", "true");
    } else if (region.kind === "html") {
      region.setEditable?.(false);
    } else region.element.setAttribute("aria-disabled", "true");
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

  const when = whenText(entry.date);
  const sentence = h(
    "p",
    { class: "sentence", id: "inpage-preview-sentence", tabindex: "-1" },
    bannerSentence(entry, when),
  );
  const note = h("p", { class: "note", role: "status" });
  const banner = h(
    "div",
    {
      class: "preview",
      role: "region",
      "aria-labelledby": "inpage-preview-sentence",
    },
    sentence,
    h(
      "div",
      { class: "actions" },
      h(
        "button",
        { type: "button", onclick: () => leave() },
        text("historyBack"),
      ),
      h("button", {
        type: "button",
        class: "primary",
        onclick: () => restoreAll(),
      }, text("historyRestoreVersion")),
    ),
    note,
  );
  const restored = new Set<string>();
  const buttons = new Map<Region, HTMLButtonElement>();
  for (const region of regions) {
    const name = fieldName(region.pointer);
    const button = h("button", {
      type: "button",
      class: "restore-field",
      "aria-label": text("historyRestoreFieldOf", { field: name }),
      hidden: true,
      onclick: () => restoreOne(region),
    }, text("historyRestoreField"));
    buttons.set(region, button);
  }
  ui.append(banner, ...buttons.values());

  const fields = () =>
    previewFields(
      regions.map((region) => region.pointer),
      version,
      (pointer) => session.valueOf(path, pointer),
    );
  const display = () => {
    const all = fields();
    const differ = all.filter((field) => field.differs).length;
    if (restored.size === 0) {
      note.textContent = differ === 0
        ? text("historySame")
        : plural("historyDiffer", differ);
    }
    for (const [index, field] of all.entries()) {
      const region = regions[index]!;
      region.show(field.then === undefined ? field.now : field.then);
      region.element.toggleAttribute(DIFFERS, field.differs);
      const button = buttons.get(region)!;
      const done = !field.differs && restored.has(field.pointer);
      button.hidden = !field.differs && !done;
      button.disabled = done;
      button.textContent = text(
        done ? "historyRestored" : "historyRestoreField",
      );
      button.setAttribute(
        "aria-label",
        text(done ? "historyRestoredOf" : "historyRestoreFieldOf", {
          field: fieldName(field.pointer),
        }),
      );
    }
    place();
  };
  let frame = 0;
  const place = () => {
    frame = 0;
    // A region under the banner, or out of view, shows no button.
    const floor = Math.min(banner.getBoundingClientRect().top, innerHeight);
    for (const [region, button] of buttons) {
      if (button.hidden) continue;
      const box = region.element.getBoundingClientRect();
      const off = box.bottom < 0 || box.top + 8 > floor;
      button.style.visibility = off ? "hidden" : "";
      button.style.left = `${
        Math.min(Math.max(box.right, button.offsetWidth + 4), innerWidth - 4)
      }px`;
      button.style.top = `${Math.max(box.top - 4, button.offsetHeight + 4)}px`;
    }
  };
  const onMove = () => {
    if (frame === 0) frame = requestAnimationFrame(place);
  };
  addEventListener("scroll", onMove, { capture: true, passive: true });
  addEventListener("resize", onMove);
  const unsubscribe = session.subscribe((event) => {
    if (event.type === "values" && event.path === path) display();
  });

  const message = (words: string) => {
    if (session.message.trim() === "") session.setMessage(words);
  };
  const restoreOne = (region: Region) => {
    const field = fields().find((field) => field.pointer === region.pointer);
    if (!field) return;
    message(
      text("historyFieldMessage", { field: fieldName(field.pointer), when }),
    );
    if (session.changeAll(path, restoreField(field))) {
      restored.add(field.pointer);
      display();
      note.textContent = text("historyFieldRestored", {
        field: fieldName(field.pointer),
      });
      buttons.get(region)?.focus();
    }
  };
  const restoreAll = () => {
    const page = session.page(path);
    if (!page) return;
    // The page now, unsaved changes included.
    const changes = restorePage(session.valueOf(path, ""), version);
    if (changes.size === 0) {
      note.textContent = text("historyNothing");
      return;
    }
    message(text("historyVersionMessage", { when, author: entry.author }));
    if (session.changeAll(path, changes)) leave();
  };

  function leave(): void {
    previewing = false;
    unsubscribe();
    removeEventListener("click", block, true);
    removeEventListener("keydown", block, true);
    removeEventListener("scroll", onMove, { capture: true });
    removeEventListener("resize", onMove);
    if (frame !== 0) cancelAnimationFrame(frame);
    banner.remove();
    for (const button of buttons.values()) button.remove();
    for (const region of regions) {
      region.element.removeAttribute(DIFFERS);
      region.show(session.valueOf(path, region.pointer));
      if (region.kind === "text") {
        region.element.contentEditable = editable.get(region) ??
          "plaintext-only";
        region.element.removeAttribute("aria-readonly");
      } else if (region.kind === "html") {
        region.setEditable?.(true);
      } else region.element.removeAttribute("aria-disabled");
    }
    ui?.classList.remove("previewing");
    document.adoptedStyleSheets = document.adoptedStyleSheets.filter((s) =>
      s !== pageSheet
    );
    html.removeAttribute(PREVIEWING);
    if (wasEditing) html.setAttribute(EDITING, "");
    root.querySelector<HTMLElement>(".bar .history")?.focus();
  }

  display();
  sentence.focus();
}
