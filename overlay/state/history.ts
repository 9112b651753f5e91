/**
 * Undo and redo as a history of transactions, after `prosemirror-history`:
 * each transaction that changes a page's values is an undo step holding
 * each page's changes before and after it, unless its metadata says
 * `addToHistory: false`; consecutive transactions with the same `group`
 * make one step (the typing in one field while it keeps the focus: the
 * region names a new group each time it gains it). Undo and redo are
 * commands: each answers the transaction that puts the changes back, with
 * the history after it in its metadata.
 *
 * @example
 * ```ts
 * import { EditState } from "./state.ts";
 * import { createPage } from "./page.ts";
 * import { undo } from "./history.ts";
 *
 * let state = EditState.create();
 * state = state.apply(state.tr.addPage(createPage("a.json", "v1", { t: "A" })));
 * state = state.apply(state.tr.change("a.json", "/t", "B").setMeta("group", "1"));
 * state = state.apply(state.tr.change("a.json", "/t", "BC").setMeta("group", "1"));
 * state = state.apply(undo(state)!);
 * console.assert(state.page("a.json")?.changes.size === 0);
 * ```
 *
 * @module
 */

import type { HistoryEvent, HistoryState, Transaction } from "./transaction.ts";
import { type StoredImage, withStored } from "./images.ts";
import type { Changes } from "./values.ts";

export type { HistoryEvent, HistoryState };

/** What the history needs of an edit state (`state.ts`). */
export interface HistoryHost {
  /** Its undo history. */
  readonly history: HistoryState;
  /** Whether a publish is under way. */
  readonly busy: boolean;
  /** A new transaction on it. */
  readonly tr: Transaction;
  /** A page being edited. */
  page(path: string): { readonly changes: Changes } | undefined;
}

/** No step. */
export const EMPTY_HISTORY: HistoryState = { done: [], undone: [] };

/**
 * The history after a transaction (the state's part that keeps it).
 *
 * @param tr the transaction
 * @param previous the state it applies to
 * @param next the state after it, history aside
 * @returns the history after it
 */
export function applyHistory(
  tr: Transaction,
  previous: HistoryHost,
  next: HistoryHost,
): HistoryState {
  const history = previous.history;
  const set = tr.getMeta("history");
  if (set) return set;
  if (tr.getMeta("clearHistory")) return EMPTY_HISTORY;
  let mapped = mapStored(history, tr);
  mapped = forgetRebased(mapped, tr);
  if (tr.getMeta("addToHistory") === false) return mapped;
  const event = eventOf(tr, previous, next);
  if (!event) return mapped;
  const last = mapped.done.at(-1);
  if (
    last && event.group !== undefined && last.group === event.group &&
    samePages(last, event)
  ) {
    const pages = new Map(
      [...event.pages].map(([path, side]) => [path, {
        before: last.pages.get(path)!.before,
        after: side.after,
      }]),
    );
    return {
      done: [...mapped.done.slice(0, -1), { ...event, pages }],
      undone: [],
    };
  }
  return { done: [...mapped.done, event], undone: [] };
}

/** The undo step of a transaction: the pages whose changes it changed. */
function eventOf(
  tr: Transaction,
  previous: HistoryHost,
  next: HistoryHost,
): HistoryEvent | undefined {
  const pages = new Map<string, { before: Changes; after: Changes }>();
  for (const step of tr.steps) {
    if (step.type !== "change" && step.type !== "replace") continue;
    const before = previous.page(step.path);
    const after = next.page(step.path);
    if (!before || !after || pages.has(step.path)) continue;
    pages.set(step.path, { before: before.changes, after: after.changes });
  }
  for (const [path, { before, after }] of pages) {
    if (before === after) pages.delete(path);
  }
  return pages.size === 0 ? undefined : { pages, group: tr.getMeta("group") };
}

function samePages(a: HistoryEvent, b: HistoryEvent): boolean {
  return a.pages.size === b.pages.size &&
    [...b.pages.keys()].every((path) => a.pages.has(path));
}

/** The undo steps of pages read again are forgotten. */
function forgetRebased(history: HistoryState, tr: Transaction): HistoryState {
  const paths = new Set(
    tr.steps.flatMap((step) => step.type === "rebase" ? [step.path] : []),
  );
  if (paths.size === 0) return history;
  const keep = (event: HistoryEvent) =>
    ![...event.pages.keys()].some((path) => paths.has(path));
  return {
    done: history.done.filter(keep),
    undone: history.undone.filter(keep),
  };
}

/** Uploaded images are named by their stored names in the steps too. */
function mapStored(history: HistoryState, tr: Transaction): HistoryState {
  const images = new Map<string, StoredImage>();
  for (const step of tr.steps) {
    if (step.type === "storeImages") {
      for (const [src, image] of step.images) images.set(src, image);
    }
  }
  if (images.size === 0) return history;
  const changes = (map: Changes): Changes =>
    new Map([...map].map(([at, value]) => [at, withStored(value, images)]));
  const event = (item: HistoryEvent): HistoryEvent => ({
    group: item.group,
    pages: new Map(
      [...item.pages].map(([path, side]) => [path, {
        before: changes(side.before),
        after: changes(side.after),
      }]),
    ),
  });
  return { done: history.done.map(event), undone: history.undone.map(event) };
}

/**
 * The command that undoes the last step, on whichever page it was.
 *
 * @param state the state
 * @returns its transaction, or `undefined` when there is none (or a
 *   publish is under way)
 */
export function undo(state: HistoryHost): Transaction | undefined {
  return travel(state, "undo");
}

/**
 * The command that redoes the last undone step.
 *
 * @param state the state
 * @returns its transaction, or `undefined` when there is none
 */
export function redo(state: HistoryHost): Transaction | undefined {
  return travel(state, "redo");
}

function travel(
  state: HistoryHost,
  direction: "undo" | "redo",
): Transaction | undefined {
  const { done, undone } = state.history;
  const from = direction === "undo" ? done : undone;
  const event = from.at(-1);
  if (!event || state.busy) return undefined;
  const tr = state.tr;
  for (const [path, side] of event.pages) {
    tr.replace(path, direction === "undo" ? side.before : side.after);
  }
  return tr.setMeta("addToHistory", false).setMeta("undo", direction)
    .setMeta(
      "history",
      direction === "undo"
        ? { done: done.slice(0, -1), undone: [...undone, event] }
        : { done: [...done, event], undone: undone.slice(0, -1) },
    );
}
