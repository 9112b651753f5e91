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

// Types only, and the in-place view of this same part: what runs comes in
// the kit (see `../history.ts`), so that this part shares no chunk with
// the overlay's entry.
import type { HistoryEntry, PreviewField } from "../state/versions.ts";
import type { PageObject } from "../state/values.ts";
import type { HistoryContext, HistoryKit } from "./history_types.ts";
import { showingInPlace, showInPlace } from "./in_place.ts";

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
`;

let sheet: CSSStyleSheet | undefined;

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
  if (showingInPlace() || store.state.pages.length === 0) return;
  if (!sheet) {
    sheet = new CSSStyleSheet();
    sheet.replaceSync(PANEL_CSS);
  }
  if (!root.adoptedStyleSheets.includes(sheet)) {
    root.adoptedStyleSheets = [...root.adoptedStyleSheets, sheet];
  }
  const panel = buildPanel(context, kit);
  const closed = kit.showDialog(root, panel.dialog);
  await load(context, kit, panel);
  if (await closed !== "preview" || !panel.chosen) return;
  preview(context, kit, panel.path, panel.chosen);
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
): void {
  const { root, store } = context;
  const regions = context.regions().filter((region) => region.path === path);
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
  const leave = () => end?.();
  const bar = banner(
    context,
    kit,
    { path, entry: chosen.entry, fields },
    restoring(context, kit, shown, leave, () => {
      const name = context.label(path, [...shown.restored].at(-1) ?? "");
      [...bar.element.querySelectorAll<HTMLButtonElement>("button:disabled")]
        .find((button) => button.getAttribute("aria-label")?.endsWith(name))
        ?.focus();
    }),
  );
  const end = showInPlace(context, kit, {
    regions,
    fields: () =>
      kit.logic.previewFields(
        regions.map((region) => region.pointer),
        chosen.page,
        (pointer) => store.state.valueOf(path, pointer),
      ),
    banner: bar.element,
    focus: bar.sentence,
    shown: () => bar.render(shown.restored),
    left: () => root.querySelector<HTMLElement>(".bar .more")?.focus(),
  });
}
