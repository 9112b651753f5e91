/**
 * Commands: functions from the edit state to the transaction that does
 * one thing a person asks for (type in a field, set an image or a link,
 * restore fields, take a draft back, discard everything). The controller
 * turns DOM events into these, and the store applies what they answer;
 * `undefined` means it cannot be done now. Undo and redo are in
 * `history.ts`, list operations in `lists.ts`.
 *
 * @example
 * ```ts
 * import { EditState } from "./state.ts";
 * import { createPage } from "./page.ts";
 * import { typed } from "./commands.ts";
 *
 * let state = EditState.create();
 * state = state.apply(state.tr.addPage(createPage("a.json", "v1", { title: "A" })));
 * state = state.apply(typed(state, "a.json", "/title", "AB", "focus-1")!);
 * console.assert(state.valueOf("a.json", "/title") === "AB");
 * ```
 *
 * @module
 */

import type { DraftOffer } from "./drafts.ts";
import { type Choice, resolveFields } from "./merge.ts";
import { putChange } from "./page.ts";
import type { EditState } from "./state.ts";
import type { Transaction } from "./transaction.ts";
import type { Changes } from "./values.ts";

/**
 * What a region typed: its value, in the undo step of the region's focus
 * (`group`: a new one each time the region gains the focus).
 *
 * @param state the edit state
 * @param path the page path
 * @param pointer the region's field
 * @param value the value typed
 * @param group the region's undo group
 * @returns the transaction, or `undefined` when the page is not edited
 */
export function typed(
  state: EditState,
  path: string,
  pointer: string,
  value: unknown,
  group: string,
): Transaction | undefined {
  if (!state.page(path)) return undefined;
  return state.tr.change(path, pointer, value).setMeta("group", group)
    .setMeta("origin", "typing").setMeta("typedIn", `${path} ${pointer}`);
}

/**
 * A field's new value from a dialog or a panel (an image, its alt text, a
 * link object, a page field), one undo step of its own unless `group`
 * joins it to the ones before.
 *
 * @param state the edit state
 * @param path the page path
 * @param pointer the field
 * @param value its new value
 * @param options `newKey` when it may create a key the file lacks (the
 *   Page panel); `group` to make consecutive ones one undo step
 * @returns the transaction, or `undefined` during a publish
 */
export function setField(
  state: EditState,
  path: string,
  pointer: string,
  value: unknown,
  options: { newKey?: boolean; group?: string } = {},
): Transaction | undefined {
  if (state.busy || !state.page(path)) return undefined;
  const tr = state.tr.change(path, pointer, value, {
    newKey: options.newKey ?? false,
  }).setMeta("origin", options.group === undefined ? "dialog" : "panel");
  return options.group === undefined ? tr : tr.setMeta("group", options.group);
}

/**
 * Several values of a page as one undo step (a restore from its history).
 *
 * @param state the edit state
 * @param path the page path
 * @param changes new values by JSON Pointer
 * @returns the transaction, or `undefined` when there is nothing to do
 */
export function restoreFields(
  state: EditState,
  path: string,
  changes: Changes,
): Transaction | undefined {
  const page = state.page(path);
  if (!page || state.busy || changes.size === 0) return undefined;
  let next = page;
  for (const [pointer, value] of changes) {
    next = { ...next, changes: putChange(next, pointer, value) };
  }
  return state.tr.replace(path, next.changes).setMeta("origin", "history");
}

/**
 * A draft's changes taken back as unsaved changes (one undo step): all of
 * them for a draft of this version; else the fields changed on its side
 * only, and each clash as chosen.
 *
 * @param state the edit state
 * @param path the page path
 * @param offer the draft's offer
 * @param choices for a merged draft, the choice for each clash
 * @returns the transaction, or `undefined` while a clash has no choice
 */
export function restoreDraft(
  state: EditState,
  path: string,
  offer: DraftOffer,
  choices: ReadonlyMap<string, Choice> = new Map(),
): Transaction | undefined {
  const page = state.page(path);
  if (!page) return undefined;
  let changes: Changes;
  if (offer.kind === "same") changes = offer.draft.changes;
  else {
    const resolved = resolveFields(offer.fields, choices);
    if (!resolved.ok) return undefined;
    changes = resolved.changes;
  }
  let next = page;
  for (const [pointer, value] of changes) {
    next = { ...next, changes: putChange(next, pointer, value) };
  }
  return state.tr.replace(path, next.changes).setMeta("origin", "draft");
}

/**
 * Every change of every page dropped, with the undo steps, the alert and
 * what the server refused.
 *
 * @param state the edit state
 * @returns the transaction, or `undefined` during a publish
 */
export function discardAll(state: EditState): Transaction | undefined {
  if (state.busy) return undefined;
  const tr = state.tr;
  for (const page of state.pages) tr.replace(page.path, new Map());
  return tr.setAlert(undefined).setNotice(undefined)
    .setMeta("clearHistory", true).setMeta("origin", "discard");
}
