/// <reference lib="dom" />
/**
 * The Page panel (the bar's "Page" button): the fields no region shows,
 * such as an SEO title, a description, a date or a switch, each with an
 * input fitting its JSON value. Each field typed is a change in the edit
 * session at once (one undo step per field), so the panel holds no state.
 *
 * Which fields: the pointers named by the container's `data-inpage-fields`
 * ("/description /date"), or else the page's top-level strings, numbers and
 * booleans that no region, list or link shows, except `id`.
 *
 * @module
 */

import { inputKind } from "../session/page_fields.ts";
import { fieldName } from "../session/pointer.ts";
import type { EditSession } from "../session/session.ts";
import { text } from "../i18n/mod.ts";
import { h, showDialog } from "../ui.ts";

/** A page container's fields for the panel. */
export interface PanelPage {
  /** The page path. */
  path: string;
  /** The fields, by JSON Pointer. */
  fields: string[];
}

export {
  type InputKind,
  inputKind,
  panelFields,
} from "../session/page_fields.ts";

/**
 * Opens the Page panel.
 *
 * @param root the overlay's shadow root
 * @param session the edit session
 * @param pages each page container's fields
 * @returns when it is closed
 */
export async function openPagePanel(
  root: ShadowRoot,
  session: EditSession,
  pages: readonly PanelPage[],
): Promise<void> {
  const id = `inpage-${Math.random().toString(36).slice(2)}`;
  const groups = pages.filter((page) => page.fields.length > 0).map((page) => {
    const rows = page.fields.map((pointer, index) =>
      fieldRow(session, page.path, pointer, `${id}-${index}`)
    );
    return pages.length > 1
      ? h("fieldset", {}, h("legend", {}, page.path), ...rows)
      : h("div", { class: "fields" }, ...rows);
  });
  const dialog = h(
    "dialog",
    { class: "page-panel", "aria-labelledby": id },
    h(
      "form",
      { method: "dialog" },
      h("h2", { id }, text("page")),
      h(
        "p",
        { class: "hint" },
        text("pageFields"),
      ),
      ...(groups.length > 0 ? groups : [h("p", {}, text("pageNoFields"))]),
      h(
        "div",
        { class: "actions" },
        h(
          "button",
          { type: "submit", value: "done", class: "primary" },
          text("done"),
        ),
      ),
    ),
  );
  await showDialog(root, dialog);
  session.seal();
}

function fieldRow(
  session: EditSession,
  path: string,
  pointer: string,
  id: string,
): HTMLElement {
  const value = session.valueOf(path, pointer);
  const kind = inputKind(value);
  const label = fieldName(pointer);
  const name = label.charAt(0).toUpperCase() + label.slice(1);
  const changed = (next: unknown) => {
    // The Page panel may add a field the file does not hold yet.
    session.change(path, pointer, next, { newKey: true });
  };
  const seal = () => session.seal();
  if (kind === "switch") {
    const input = h("input", {
      type: "checkbox",
      role: "switch",
      id,
      checked: value === true,
    });
    input.addEventListener("change", () => {
      changed(input.checked);
      seal();
    });
    return h(
      "label",
      { class: "switch" },
      input,
      h("span", {}, name),
    );
  }
  const shown = typeof value === "string" || typeof value === "number"
    ? String(value)
    : "";
  const input = kind === "long"
    ? h("textarea", { id, rows: "4" }, shown)
    : h("input", {
      id,
      type: kind === "number" ? "number" : kind === "date" ? "date" : "text",
      value: shown,
      ...(kind === "number" ? { step: "any" } : {}),
    });
  input.addEventListener("input", () => {
    if (kind === "number") {
      if (input.value.trim() === "") return;
      const number = Number(input.value);
      if (Number.isFinite(number)) changed(number);
      return;
    }
    if (kind === "date" && input.value === "") return;
    changed(input.value);
  });
  input.addEventListener("blur", seal);
  return h(
    "label",
    {},
    name,
    input,
    kind === "date"
      ? h("span", { class: "hint" }, text("dateHint"))
      : undefined,
  );
}

/** The panel's styles, added to the overlay's sheet. */
export const PAGE_PANEL_CSS = `
dialog.page-panel textarea, dialog.page-panel input[type="number"], dialog.page-panel input[type="date"] { padding: 8px 10px; border: 1px solid #9ca3af; border-radius: 6px; font: inherit; font-weight: 400; }
dialog.page-panel textarea { resize: vertical; }
dialog.page-panel .fields, dialog.page-panel fieldset { display: flex; flex-direction: column; gap: 12px; }
dialog.page-panel fieldset { border: 1px solid #d1d5db; border-radius: 8px; }
dialog.page-panel label.switch { flex-direction: row; align-items: center; gap: 8px; }
dialog.page-panel label.switch input { width: 36px; height: 20px; accent-color: #1d4ed8; }
dialog textarea:focus-visible, dialog input:focus-visible { outline: 3px solid #f59e0b; outline-offset: 2px; }
dialog label.check .row { display: flex; align-items: center; gap: 8px; }
dialog label.check input { width: 18px; height: 18px; accent-color: #1d4ed8; }
dialog.link-popover .hint:empty { display: none; }
dialog.link-popover .error { color: #b91c1c; font-weight: 600; }
.announce { position: absolute; width: 1px; height: 1px; overflow: hidden; clip-path: inset(50%); white-space: nowrap; }
`;
