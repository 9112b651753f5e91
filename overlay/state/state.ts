/**
 * The overlay's edit state: an immutable value, changed only by applying a
 * transaction (`state.apply(state.tr.change(…))`), after ProseMirror's
 * `EditorState`. It holds the pages being edited (each with its version,
 * the page as read, its changes and the fields it shows), the commit
 * message typed, what is under way, the last outcome (a notice) and the
 * alert, as codes, the undo history, and how many other tabs show the
 * same pages. What is derived from it (the problems, the count of
 * changes, the status, the marks of the regions) is computed by pure
 * functions of it: `problems.ts`, `count.ts`, `status.ts`, `../marks.ts`.
 *
 * This folder is the overlay's state: plain data and pure functions. It
 * imports no storage, no client and no language table (a test checks it):
 * the I/O lives in `../io/` and `../flows/`, the words in `../views/`.
 *
 * @example
 * ```ts
 * import { EditState } from "./state.ts";
 * import { createPage } from "./page.ts";
 * import { undo } from "./history.ts";
 *
 * let state = EditState.create();
 * state = state.apply(
 *   state.tr.addPage(createPage("src/content/pages/en/home.json", "v1", { title: "Hi" })),
 * );
 * state = state.apply(state.tr.change("src/content/pages/en/home.json", "/title", "Hello"));
 * console.assert(state.valueOf("src/content/pages/en/home.json", "/title") === "Hello");
 * state = state.apply(undo(state)!);
 * console.assert(state.valueOf("src/content/pages/en/home.json", "/title") === "Hi");
 * ```
 *
 * @module
 */

import { applyHistory, EMPTY_HISTORY } from "./history.ts";
import { withStored } from "./images.ts";
import type { Activity, Alert, Notice, OtherPage } from "./notices.ts";
import {
  type PageState,
  type Refusal,
  valueOf,
  withChange,
  withChanges,
} from "./page.ts";
import { type HistoryState, type Step, Transaction } from "./transaction.ts";

/** The parts of an edit state. */
export interface EditStateParts {
  /** The pages being edited, in the order of the page. */
  readonly pages: readonly PageState[];
  /** The commit message typed for the next publish. */
  readonly message: string;
  /** What is under way. */
  readonly activity: Activity;
  /** The last outcome, until the next change. */
  readonly notice: Notice | undefined;
  /** The alert above the bar, if any. */
  readonly alert: Alert | undefined;
  /** The undo history. */
  readonly history: HistoryState;
  /** How many other tabs of this browser show one of the pages. */
  readonly others: number;
  /**
   * The pages this tab changed on other page views, their drafts kept:
   * Send for review carries them too.
   */
  readonly elsewhere: readonly OtherPage[];
}

/** The edit state: see the module doc. */
export class EditState implements EditStateParts {
  readonly pages: readonly PageState[];
  readonly message: string;
  readonly activity: Activity;
  readonly notice: Notice | undefined;
  readonly alert: Alert | undefined;
  readonly history: HistoryState;
  readonly others: number;
  readonly elsewhere: readonly OtherPage[];
  readonly #now: () => number;

  private constructor(parts: EditStateParts, now: () => number) {
    this.pages = parts.pages;
    this.message = parts.message;
    this.activity = parts.activity;
    this.notice = parts.notice;
    this.alert = parts.alert;
    this.history = parts.history;
    this.others = parts.others;
    this.elsewhere = parts.elsewhere;
    this.#now = now;
  }

  /**
   * The state before any page is read.
   *
   * @param now the clock transactions are stamped with
   * @returns the state
   */
  static create(now: () => number = Date.now): EditState {
    return new EditState({
      pages: [],
      message: "",
      activity: { kind: "loading" },
      notice: undefined,
      alert: undefined,
      history: EMPTY_HISTORY,
      others: 0,
      elsewhere: [],
    }, now);
  }

  /** A new transaction on this state. */
  get tr(): Transaction {
    return new Transaction(this.#now());
  }

  /**
   * The state after a transaction.
   *
   * @param tr a transaction made from this state
   * @returns the new state (this one is left as it is)
   */
  apply(tr: Transaction): EditState {
    let pages = this.pages;
    for (const step of tr.steps) pages = applyStep(pages, step);
    const parts: EditStateParts = {
      pages,
      message: tr.message ?? this.message,
      activity: tr.activity ?? this.activity,
      notice: tr.notice
        ? tr.notice.value
        : changesEdited(tr)
        ? undefined
        : this.notice,
      alert: tr.alert ? tr.alert.value : this.alert,
      history: this.history,
      others: tr.others ?? this.others,
      elsewhere: tr.elsewhere ?? this.elsewhere,
    };
    const next = new EditState(parts, this.#now);
    return new EditState(
      { ...parts, history: applyHistory(tr, this, next) },
      this.#now,
    );
  }

  /**
   * A page being edited.
   *
   * @param path the page path
   * @returns the page, if it is being edited
   */
  page(path: string): PageState | undefined {
    return this.pages.find((page) => page.path === path);
  }

  /**
   * The value a field holds now, changes included.
   *
   * @param path the page path
   * @param pointer the field
   * @returns its value
   */
  valueOf(path: string, pointer: string): unknown {
    const page = this.page(path);
    return page ? valueOf(page, pointer) : undefined;
  }

  /** Whether a publish is under way (no undo, no second publish). */
  get busy(): boolean {
    return this.activity.kind === "publishing";
  }

  /** Whether there is a step to undo. */
  get canUndo(): boolean {
    return !this.busy && this.history.done.length > 0;
  }

  /** Whether there is a step to redo. */
  get canRedo(): boolean {
    return !this.busy && this.history.undone.length > 0;
  }
}

/** Whether a transaction edits changes (rather than reading pages again). */
function changesEdited(tr: Transaction): boolean {
  return tr.steps.some((step) =>
    step.type === "change" || step.type === "replace"
  );
}

/** The pages after one step. */
function applyStep(
  pages: readonly PageState[],
  step: Step,
): readonly PageState[] {
  if (step.type === "addPage") {
    return [
      ...pages.filter((page) => page.path !== step.page.path),
      step.page,
    ];
  }
  if (step.type === "storeImages") {
    return pages.map((page) => {
      const changes = new Map(
        [...page.changes].map((
          [at, value],
        ) => [at, withStored(value, step.images)]),
      );
      return { ...page, changes };
    });
  }
  return pages.map((page) =>
    page.path === step.path ? pageStep(page, step) : page
  );
}

/** A page after a step of its own. */
function pageStep(page: PageState, step: Step): PageState {
  switch (step.type) {
    case "change":
      return withChange(page, step.pointer, step.value, step.newKey);
    case "replace":
      return withChanges(page, step.changes);
    case "rebase":
      return {
        ...page,
        version: step.version,
        base: step.base,
        changes: step.changes,
        refused: [],
      };
    case "refuse":
      return { ...page, refused: mergeRefused(page.refused, step.refused) };
    default:
      return page;
  }
}

/** Refusals of a new answer replace those at the same places. */
function mergeRefused(
  held: readonly Refusal[],
  found: readonly Refusal[],
): readonly Refusal[] {
  return [
    ...held.filter((refusal) =>
      !found.some((other) => other.at === refusal.at)
    ),
    ...found,
  ];
}
