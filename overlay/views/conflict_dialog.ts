/// <reference lib="dom" />
/**
 * The conflict view: when someone else published a page meanwhile (at
 * publish, or for a draft made against an older version), every field
 * changed on both sides is shown with theirs beside mine and a choice per
 * field, "Use mine" or "Use theirs". The dialog offers Reload (their
 * version, dropping mine) and Keep mine (publish with the choices made).
 *
 * @module
 */

import type { Choice, MergeField } from "../session/merge.ts";
import { fieldName } from "../session/pointer.ts";
import { plural, text } from "../i18n/mod.ts";
import { markupText } from "../rich_markup.ts";
import { h, messageDialog, showDialog } from "../ui.ts";

/** What the person decided. */
export type ConflictAnswer =
  | { action: "keep"; choices: Map<string, Choice> }
  | { action: "reload" | "discard" | "cancel" };

/** A value in words: rich text as its text, an image as its file name. */
function shown(value: unknown): string {
  if (value === undefined) return text("valueGone");
  if (typeof value === "string") {
    const words = markupText(value).trim();
    return words === "" ? text("valueEmpty") : words;
  }
  if (typeof value === "object" && value !== null && "src" in value) {
    const src = String((value as { src: unknown }).src);
    if (src.startsWith("blob:")) return text("valueNewImage");
    return text("valueImage", { src });
  }
  // A list (a list operation's change): its items in order, each by its
  // first words.
  if (Array.isArray(value)) {
    const items = value.map((item) => {
      if (typeof item !== "object" || item === null) return shown(item);
      const record = item as Record<string, unknown>;
      const words = ["heading", "title", "text", "name"].map((key) =>
        record[key]
      ).concat(Object.values(record)).find((field) =>
        typeof field === "string" && field.trim() !== ""
      );
      return words === undefined ? JSON.stringify(item) : shown(words);
    });
    return plural("valueList", value.length, { items: items.join(" · ") });
  }
  return JSON.stringify(value);
}

/**
 * Shows the fields of a conflict and asks what to do.
 *
 * @param root the overlay's shadow root
 * @param fields the compared fields
 * @param draft whether these are a draft's fields (buttons "Discard them"
 *   and "Keep mine") rather than a publish's ("Cancel", "Reload", "Keep mine")
 * @returns the answer, with a choice for every clashing field on "keep"
 */
export async function askConflict(
  root: ShadowRoot,
  fields: readonly MergeField[],
  draft = false,
): Promise<ConflictAnswer> {
  const choices = new Map<string, Choice>();
  const clashes = fields.filter((field) => field.clash);
  const rows = clashes.map((field) => {
    const name = fieldName(field.pointer);
    const buttons = (["theirs", "mine"] as const).map((side) => {
      const button = h("button", {
        type: "button",
        "aria-pressed": "false",
        disabled: field.gone && side === "mine",
        onclick: () => {
          choices.set(field.pointer, side);
          for (const other of buttons) {
            other.setAttribute("aria-pressed", String(other === button));
          }
        },
      }, side === "mine" ? text("useMine") : text("useTheirs"));
      return button;
    });
    return h(
      "div",
      { class: "clash", role: "group", "aria-label": name },
      h("h3", {}, name),
      h(
        "div",
        { class: "sides" },
        h(
          "div",
          { class: "side" },
          h("span", { class: "who" }, text("theirs")),
          h("p", {}, shown(field.theirs)),
          buttons[0],
        ),
        h(
          "div",
          { class: "side" },
          h("span", { class: "who" }, text("mine")),
          h("p", {}, shown(field.mine)),
          buttons[1],
        ),
      ),
    );
  });
  const kept = fields.length - clashes.length;
  const dialog = messageDialog(
    draft ? text("restoreTitle") : text("conflictTitle"),
    [
      h(
        "p",
        {},
        draft ? text("draftOlderText") : text("conflictText"),
      ),
      kept > 0 &&
      h(
        "p",
        {},
        plural("keepMineList", kept),
      ),
      kept > 0 &&
      h(
        "ul",
        {},
        ...fields.filter((field) => !field.clash).map((field) =>
          h(
            "li",
            {},
            h("strong", {}, fieldName(field.pointer)),
            `: ${shown(field.mine)}`,
          )
        ),
      ),
      clashes.length > 0 &&
      h(
        "p",
        {},
        text("bothChanged"),
      ),
      ...rows,
    ],
    draft
      ? [
        { label: text("discardThem"), value: "discard", kind: "danger" },
        { label: text("keepMine"), value: "keep", kind: "primary" },
      ]
      : [
        { label: text("cancel"), value: "cancel" },
        { label: text("reload"), value: "reload", kind: "danger" },
        { label: text("keepMine"), value: "keep", kind: "primary" },
      ],
    (value) =>
      value === "keep" &&
        clashes.some((field) => !field.gone && !choices.has(field.pointer))
        ? text("chooseEach")
        : undefined,
  );
  dialog.classList.add("wide");
  const answer = await showDialog(root, dialog);
  if (answer === "keep") return { action: "keep", choices };
  return {
    action: answer === "reload" || answer === "discard" ? answer : "cancel",
  };
}
