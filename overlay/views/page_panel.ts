/// <reference lib="dom" />
/**
 * The Page panel (the bar's More, Page): the fields no region shows, such
 * as an SEO title, a description, a date or a switch, each with an input
 * fitting its JSON value (a long text keeps its text area as it is
 * shortened). Each field typed is a change in the edit state at once (one
 * undo step per field), so the panel holds no state; Cancel, or Escape,
 * takes every change made in the panel back, as elsewhere, and Done keeps
 * them.
 *
 * Which fields: the pointers named by the container's `data-inpage-fields`
 * ("/description /date"), or else the page's top-level strings, numbers and
 * booleans that no region, list or link shows, except `id`.
 *
 * @module
 */

import { inputKind } from "../state/page_fields.ts";
import { text } from "../i18n/mod.ts";
import { h, showDialog } from "../ui.ts";
import { fieldLabel } from "./names.ts";

/** A page container's fields for the panel. */
export interface PanelPage {
  /** The page path. */
  path: string;
  /** The fields, by JSON Pointer. */
  fields: string[];
}

/** What the panel needs from the controller. */
export interface PanelHost {
  /** A field's value now. */
  valueOf(path: string, pointer: string): unknown;
  /** A field's value as the page file held it. */
  readOf(path: string, pointer: string): unknown;
  /** Sets a field's value (a change that may create the key). */
  set(path: string, pointer: string, value: unknown): void;
  /** Takes every change made since the panel opened back. */
  revert(): void;
}

export {
  type InputKind,
  inputKind,
  panelFields,
} from "../state/page_fields.ts";

/**
 * Opens the Page panel.
 *
 * @param root the overlay's shadow root
 * @param host what the panel needs
 * @param pages each page container's fields
 * @returns whether it was closed with Done
 */
export async function openPagePanel(
  root: ShadowRoot,
  host: PanelHost,
  pages: readonly PanelPage[],
): Promise<boolean> {
  const id = `inpage-${Math.random().toString(36).slice(2)}`;
  const groups = pages.filter((page) => page.fields.length > 0).map((page) => {
    const rows = page.fields.map((pointer, index) =>
      fieldRow(host, page.path, pointer, `${id}-${index}`)
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
      h("p", { class: "hint" }, text("pageFields")),
      ...(groups.length > 0 ? groups : [h("p", {}, text("pageNoFields"))]),
      h(
        "div",
        { class: "actions" },
        h("button", { type: "submit", value: "cancel" }, text("cancel")),
        h(
          "button",
          { type: "submit", value: "done", class: "primary" },
          text("done"),
        ),
      ),
    ),
  );
  const answer = await showDialog(root, dialog);
  if (answer !== "done") host.revert();
  return answer === "done";
}

/** A switch for a boolean field. */
function switchRow(
  host: PanelHost,
  path: string,
  pointer: string,
  id: string,
): HTMLElement {
  const input = h("input", {
    type: "checkbox",
    role: "switch",
    id,
    checked: host.valueOf(path, pointer) === true,
  });
  input.addEventListener(
    "change",
    () => host.set(path, pointer, input.checked),
  );
  return h(
    "label",
    { class: "switch" },
    input,
    h("span", {}, fieldLabel(undefined, pointer)),
  );
}

function fieldRow(
  host: PanelHost,
  path: string,
  pointer: string,
  id: string,
): HTMLElement {
  const value = host.valueOf(path, pointer);
  const kind = inputKind(value, host.readOf(path, pointer));
  if (kind === "switch") return switchRow(host, path, pointer, id);
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
      const number = Number(input.value);
      if (input.value.trim() !== "" && Number.isFinite(number)) {
        host.set(path, pointer, number);
      }
    } else if (kind !== "date" || input.value !== "") {
      host.set(path, pointer, input.value);
    }
  });
  return h(
    "label",
    {},
    fieldLabel(undefined, pointer),
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
dialog .problem { margin: 0; color: #b91c1c; font-weight: 600; }
dialog .problem:empty { display: none; }
.announce { position: absolute; width: 1px; height: 1px; overflow: hidden; clip-path: inset(50%); white-space: nowrap; }
`;
