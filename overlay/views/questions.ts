/// <reference lib="dom" />
/**
 * The questions the overlay asks in dialogs, in words: the problems that
 * hold a publish back (each field a button that brings it into view), a
 * text field emptied, discarding or logging out with unsaved changes, and
 * a draft to restore. The flows and the controller ask them; the answers
 * are plain values.
 *
 * @module
 */

import { plural, text } from "../i18n/mod.ts";
import { dateTime } from "../messages.ts";
import type { DraftOffer } from "../state/drafts.ts";
import type { Problem } from "../state/problems.ts";
import { h, messageDialog, showDialog } from "../ui.ts";
import { askLoseChangesWords, problemWords } from "./words.ts";

/** Names a field, and brings it into view. */
export interface FieldNaming {
  /** A field's name for a person. */
  label(path: string, at: string): string;
  /** Brings a field into view and focuses it. */
  focus(path: string, at: string): void;
}

/**
 * The problems that hold a publish back: the list, each field a button
 * that closes the dialog and brings the field into view.
 *
 * @param root the overlay's shadow root
 * @param problems the problems
 * @param fields how fields are named and reached
 */
export async function showHeldBack(
  root: ShadowRoot,
  problems: readonly Problem[],
  fields: FieldNaming,
): Promise<void> {
  let target: Problem | undefined;
  const dialog = messageDialog(text("heldBackTitle"), [
    h("p", {}, text("heldBackText")),
    h(
      "ul",
      {},
      ...problems.map((problem) =>
        h(
          "li",
          {},
          h("button", {
            type: "button",
            class: "link",
            onclick: () => {
              target = problem;
              dialog.close("go");
            },
          }, fields.label(problem.path, problem.at)),
          ` ${problemWords(problem)}`,
        )
      ),
    ),
  ], [{ label: text("close"), value: "close", kind: "primary" }]);
  await showDialog(root, dialog);
  const first = target ?? problems[0];
  if (first) fields.focus(first.path, first.at);
}

/**
 * Text fields emptied: publish anyway?
 *
 * @param root the overlay's shadow root
 * @param problems the emptied fields
 * @param label a field's name
 * @param was a field's value as read
 * @returns whether to publish
 */
export async function askEmptied(
  root: ShadowRoot,
  problems: readonly Problem[],
  label: (path: string, at: string) => string,
  was: (path: string, at: string) => unknown,
): Promise<boolean> {
  const answer = await showDialog(
    root,
    messageDialog(text("publishEmptyTitle"), [
      h("p", {}, text("publishEmptyText")),
      h(
        "ul",
        {},
        ...problems.map((problem) =>
          h(
            "li",
            {},
            h("strong", {}, label(problem.path, problem.at)),
            text("publishEmptyHeld", {
              value: String(was(problem.path, problem.at)),
            }),
          )
        ),
      ),
    ], [
      { label: text("cancel"), value: "cancel" },
      { label: text("publishAnyway"), value: "publish", kind: "primary" },
    ]),
  );
  return answer === "publish";
}

/**
 * Discard, or log out, with unsaved changes: sure?
 *
 * @param root the overlay's shadow root
 * @param what `discard` or `logout`
 * @param count how many changes are unsaved
 * @returns whether to go on
 */
export async function askLoseChanges(
  root: ShadowRoot,
  what: "discard" | "logout",
  count: number,
): Promise<boolean> {
  const discard = what === "discard";
  return await showDialog(
    root,
    messageDialog(text(discard ? "discardTitle" : "logoutTitle"), [
      h("p", {}, askLoseChangesWords(what, count)),
    ], [
      { label: text("cancel"), value: "cancel" },
      {
        label: text(discard ? "discardAll" : "logoutAnyway"),
        value: "yes",
        kind: "primary",
      },
    ]),
  ) === "yes";
}

/**
 * A draft of the version read: restore it?
 *
 * @param root the overlay's shadow root
 * @param offer the draft's offer
 * @param own whether this tab kept it (else another tab, now closed)
 * @returns `restore`, `discard`, or `later` (closed unanswered)
 */
export async function askRestore(
  root: ShadowRoot,
  offer: DraftOffer,
  own: boolean,
): Promise<"restore" | "discard" | "later"> {
  const time = dateTime(offer.draft.savedAt);
  const count = offer.draft.changes.size;
  const answer = await showDialog(
    root,
    messageDialog(text("restoreTitle"), [
      h(
        "p",
        {},
        plural(own ? "restoreText" : "restoreOtherTab", count, { time }),
      ),
    ], [
      { label: text("discardThem"), value: "discard", kind: "danger" },
      { label: text("restore"), value: "restore", kind: "primary" },
    ]),
  );
  return answer === "restore" || answer === "discard" ? answer : "later";
}
