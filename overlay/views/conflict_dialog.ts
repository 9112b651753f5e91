/// <reference lib="dom" />
/**
 * The conflict view: when someone else published a page meanwhile (at
 * publish, or for a draft made against an older version), every field
 * changed on both sides is shown with theirs beside mine and a choice per
 * field, "Use mine" or "Use theirs". The dialog offers Reload (their
 * version, dropping mine) and Keep mine (publish with the choices made);
 * Keep mine before every choice is made says so, until the last one is.
 * A review's publish that clashes asks the same, in its own words: the
 * review's value against the one published now, then Publish the review.
 *
 * @module
 */

import type { ConflictAnswer } from "../flows/publish.ts";
import type { Choice, MergeField } from "../state/merge.ts";
import { plural, type PluralKey, text, type TextKey } from "../i18n/mod.ts";
import { markupText } from "../rich_markup.ts";
import { type DialogButton, h, messageDialog, showDialog } from "../ui.ts";

export type { ConflictAnswer };

/** Which conflict is asked about: a publish's, a draft's or a review's. */
export type ConflictKind = "publish" | "draft" | "review";

/** The words of each kind of conflict (mine: the change; theirs: now). */
interface ConflictWords {
  title: TextKey;
  text: TextKey;
  kept: PluralKey;
  both: TextKey;
  choose: TextKey;
  theirs: TextKey;
  mine: TextKey;
  useTheirs: TextKey;
  useMine: TextKey;
}

const SAVE_WORDS = {
  kept: "keepMineList",
  both: "bothChanged",
  choose: "chooseEach",
  theirs: "theirs",
  mine: "mine",
  useTheirs: "useTheirs",
  useMine: "useMine",
} as const;

const WORDS: Record<ConflictKind, ConflictWords> = {
  publish: { title: "conflictTitle", text: "conflictText", ...SAVE_WORDS },
  draft: { title: "restoreTitle", text: "draftOlderText", ...SAVE_WORDS },
  review: {
    title: "reviewConflictTitle",
    text: "reviewConflictText",
    kept: "reviewKeptList",
    both: "reviewBothChanged",
    choose: "reviewChooseEach",
    theirs: "reviewTheirs",
    mine: "reviewMine",
    useTheirs: "reviewUseTheirs",
    useMine: "reviewUseMine",
  },
};

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

/** One clashing field: theirs, mine, and the choice between them. */
function clashRow(
  field: MergeField,
  name: string,
  choose: (side: Choice) => void,
  words: ConflictWords,
): HTMLElement {
  const buttons = (["theirs", "mine"] as const).map((side) => {
    const button: HTMLButtonElement = h("button", {
      type: "button",
      "aria-pressed": "false",
      disabled: field.gone && side === "mine",
      onclick: () => {
        for (const other of buttons) {
          other.setAttribute("aria-pressed", String(other === button));
        }
        choose(side);
      },
    }, side === "mine" ? text(words.useMine) : text(words.useTheirs));
    return button;
  });
  const side = (who: string, value: unknown, button: HTMLElement) =>
    h(
      "div",
      { class: "side" },
      h("span", { class: "who" }, who),
      h("p", {}, shown(value)),
      button,
    );
  return h(
    "div",
    { class: "clash", role: "group", "aria-label": name },
    h("h3", {}, name),
    h(
      "div",
      { class: "sides" },
      side(text(words.theirs), field.theirs, buttons[0]!),
      side(text(words.mine), field.mine, buttons[1]!),
    ),
  );
}

/** The fields kept as they are (changed on this side only). */
function keptList(
  fields: readonly MergeField[],
  label: (pointer: string) => string,
  words: ConflictWords,
): HTMLElement[] {
  const kept = fields.filter((field) => !field.clash);
  if (kept.length === 0) return [];
  return [
    h("p", {}, plural(words.kept, kept.length)),
    h(
      "ul",
      {},
      ...kept.map((field) =>
        h(
          "li",
          {},
          h("strong", {}, label(field.pointer)),
          `: ${shown(field.mine)}`,
        )
      ),
    ),
  ];
}

/** The dialog's buttons for each kind of conflict. */
function buttonsOf(kind: ConflictKind): DialogButton[] {
  if (kind === "draft") {
    return [
      { label: text("discardThem"), value: "discard", kind: "danger" },
      { label: text("keepMine"), value: "keep", kind: "primary" },
    ];
  }
  return [
    { label: text("cancel"), value: "cancel" },
    ...(kind === "publish"
      ? [{ label: text("reload"), value: "reload", kind: "danger" as const }]
      : []),
    {
      label: text(kind === "review" ? "reviewPublishChoices" : "keepMine"),
      value: "keep",
      kind: "primary",
    },
  ];
}

/**
 * Shows the fields of a conflict and asks what to do.
 *
 * @param root the overlay's shadow root
 * @param fields the compared fields
 * @param label a field's name for a person
 * @param kind `publish` (buttons "Cancel", "Reload", "Keep mine"), `draft`
 *   (a draft's fields: "Discard them", "Keep mine") or `review` (a review's
 *   publish: "Cancel", "Publish the review")
 * @returns the answer, with a choice for every clashing field on "keep"
 */
export async function askConflict(
  root: ShadowRoot,
  fields: readonly MergeField[],
  label: (pointer: string) => string,
  kind: ConflictKind = "publish",
): Promise<ConflictAnswer> {
  const words = WORDS[kind];
  const choices = new Map<string, Choice>();
  const clashes = fields.filter((field) => field.clash);
  const undecided = () =>
    clashes.some((field) => !field.gone && !choices.has(field.pointer));
  const rows = clashes.map((field) =>
    clashRow(field, label(field.pointer), (side) => {
      choices.set(field.pointer, side);
      const error = dialog.querySelector(".error");
      if (error && !undecided()) error.textContent = "";
    }, words)
  );
  const dialog = messageDialog(
    text(words.title),
    [
      h("p", {}, text(words.text)),
      ...keptList(fields, label, words),
      clashes.length > 0 && h("p", {}, text(words.both)),
      ...rows,
    ],
    buttonsOf(kind),
    (value) => value === "keep" && undecided() ? text(words.choose) : undefined,
  );
  dialog.classList.add("wide");
  const answer = await showDialog(root, dialog);
  if (answer === "keep") return { action: "keep", choices };
  return {
    action: answer === "reload" || answer === "discard" ? answer : "cancel",
  };
}
