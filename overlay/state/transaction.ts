/**
 * A transaction: every change of the edit state is one, built from the
 * state it applies to and applied with {@linkcode EditState.apply}, as
 * ProseMirror's `state.tr` and `state.apply(tr)`. It holds steps (what
 * changes in the pages), the new values of the state's other parts (the
 * message, what is under way, the notice, the alert, the other tabs) and
 * metadata read by the state's parts, the undo history first: `group`
 * makes consecutive transactions of one group one undo step (the typing
 * in one field while it has the focus), `addToHistory: false` keeps a
 * transaction out of it.
 *
 * @example
 * ```ts
 * import { EditState } from "./state.ts";
 * import { createPage } from "./page.ts";
 *
 * const state = EditState.create().apply(
 *   EditState.create().tr.addPage(createPage("a.json", "v1", { title: "A" })),
 * );
 * const tr = state.tr.change("a.json", "/title", "B").setMeta("group", "t1");
 * const next = state.apply(tr);
 * console.assert(next.page("a.json")?.changes.get("/title") === "B");
 * ```
 *
 * @module
 */

import type { StoredImage } from "./images.ts";
import type { Activity, Alert, Notice, OtherPage } from "./notices.ts";
import type { PageState, Refusal } from "./page.ts";
import type { Changes, PageObject } from "./values.ts";

export type { StoredImage };

/** One undo step: each page's changes before and after it. */
export interface HistoryEvent {
  /** By page path. */
  readonly pages: ReadonlyMap<
    string,
    { readonly before: Changes; readonly after: Changes }
  >;
  /** The group of the transactions it holds, if any. */
  readonly group: string | undefined;
}

/** The steps that can be undone and redone (see `history.ts`). */
export interface HistoryState {
  /** Undoable, oldest first. */
  readonly done: readonly HistoryEvent[];
  /** Redoable, the next one last. */
  readonly undone: readonly HistoryEvent[];
}

/** One step of a transaction: what changes in the pages. */
export type Step =
  /** A field's new value (a whole list: the list's pointer and array). */
  | {
    readonly type: "change";
    readonly path: string;
    readonly pointer: string;
    readonly value: unknown;
    readonly newKey: boolean;
  }
  /** A page's changes replaced as a whole (undo, redo, a restored draft). */
  | {
    readonly type: "replace";
    readonly path: string;
    readonly changes: Changes;
  }
  /**
   * A page read again (published, by this tab or another, or merged):
   * its new version and base, the changes kept on top; its undo steps go.
   */
  | {
    readonly type: "rebase";
    readonly path: string;
    readonly version: string;
    readonly base: PageObject;
    readonly changes: Changes;
  }
  /** A page opened. */
  | { readonly type: "addPage"; readonly page: PageState }
  /** What the server refused in a page. */
  | {
    readonly type: "refuse";
    readonly path: string;
    readonly refused: readonly Refusal[];
  }
  /** Chosen images uploaded: their object URLs become their stored names. */
  | {
    readonly type: "storeImages";
    readonly images: ReadonlyMap<string, StoredImage>;
  };

/** A list operation, for the views that show lists. */
export interface ListOperation {
  /** What was done. */
  readonly op: "copy" | "remove" | "move" | "first";
  /** The list's pointer. */
  readonly list: string;
  /** The item's index before. */
  readonly from: number;
  /** Its index after (for a copy: the copy's). */
  readonly to: number;
}

/** What a transaction may carry beside its steps. */
export interface TransactionMeta {
  /** Consecutive transactions of one group make one undo step. */
  group?: string;
  /** `false`: not an undo step (nor does it end the group before it). */
  addToHistory?: boolean;
  /** The history after an undo or redo (set by those commands). */
  history?: HistoryState;
  /** Whether it is an undo or a redo. */
  undo?: "undo" | "redo";
  /** Where it comes from, for the views (`typing` is left as typed). */
  origin?:
    | "typing"
    | "list"
    | "panel"
    | "dialog"
    | "history"
    | "draft"
    | "tab"
    | "publish"
    | "merge"
    | "discard";
  /** The region that typed it (`path pointer`), not shown again. */
  typedIn?: string;
  /** A list operation, for the views. */
  list?: ListOperation;
  /** Forget every undo step (everything discarded). */
  clearHistory?: boolean;
}

/** A change of the edit state: see the module doc. */
export class Transaction {
  /** Its steps, in order. */
  readonly steps: Step[] = [];
  /** When it was made, in milliseconds since the epoch. */
  readonly time: number;
  #meta: TransactionMeta = {};
  #message: string | undefined;
  #activity: Activity | undefined;
  #notice: { value: Notice | undefined } | undefined;
  #alert: { value: Alert | undefined } | undefined;
  #others: number | undefined;
  #elsewhere: readonly OtherPage[] | undefined;

  /**
   * Starts a transaction (`state.tr` makes one).
   *
   * @param time when it is made
   */
  constructor(time: number) {
    this.time = time;
  }

  /**
   * Records a field's new value.
   *
   * @param path the page path
   * @param pointer the field (a list: its pointer)
   * @param value the new value
   * @param options `newKey: true` when the change may create a key the
   *   file does not hold (a list operation, the Page panel)
   * @returns this transaction
   */
  change(
    path: string,
    pointer: string,
    value: unknown,
    options: { newKey?: boolean } = {},
  ): this {
    this.steps.push({
      type: "change",
      path,
      pointer,
      value,
      newKey: options.newKey ?? false,
    });
    return this;
  }

  /**
   * Replaces a page's changes as a whole.
   *
   * @param path the page path
   * @param changes the new changes
   * @returns this transaction
   */
  replace(path: string, changes: Changes): this {
    this.steps.push({ type: "replace", path, changes });
    return this;
  }

  /**
   * Puts a page on a new version, with changes on top.
   *
   * @param path the page path
   * @param version the new version
   * @param base the page at that version
   * @param changes the changes kept
   * @returns this transaction
   */
  rebase(
    path: string,
    version: string,
    base: PageObject,
    changes: Changes,
  ): this {
    this.steps.push({ type: "rebase", path, version, base, changes });
    return this;
  }

  /**
   * Opens a page.
   *
   * @param page the page as read
   * @returns this transaction
   */
  addPage(page: PageState): this {
    this.steps.push({ type: "addPage", page });
    return this;
  }

  /**
   * Records what the server refused in a page.
   *
   * @param path the page path
   * @param refused the refused places
   * @returns this transaction
   */
  refuse(path: string, refused: readonly Refusal[]): this {
    this.steps.push({ type: "refuse", path, refused });
    return this;
  }

  /**
   * Names uploaded images by their stored names, in every page's changes
   * and undo steps.
   *
   * @param images each object URL's stored image
   * @returns this transaction
   */
  storeImages(images: ReadonlyMap<string, StoredImage>): this {
    this.steps.push({ type: "storeImages", images });
    return this;
  }

  /**
   * Sets the commit message of the next publish.
   *
   * @param message what was typed
   * @returns this transaction
   */
  setMessage(message: string): this {
    this.#message = message;
    return this;
  }

  /**
   * Says what is under way.
   *
   * @param activity the activity
   * @returns this transaction
   */
  setActivity(activity: Activity): this {
    this.#activity = activity;
    return this;
  }

  /**
   * Sets the outcome the bar shows (or none).
   *
   * @param notice the notice
   * @returns this transaction
   */
  setNotice(notice: Notice | undefined): this {
    this.#notice = { value: notice };
    return this;
  }

  /**
   * Shows an alert (or hides it).
   *
   * @param alert the alert
   * @returns this transaction
   */
  setAlert(alert: Alert | undefined): this {
    this.#alert = { value: alert };
    return this;
  }

  /**
   * Says how many other tabs of this browser show one of the pages.
   *
   * @param count the number of tabs
   * @returns this transaction
   */
  setOthers(count: number): this {
    this.#others = count;
    return this;
  }

  /**
   * Says which pages this tab changed and does not show now.
   *
   * @param pages those pages
   * @returns this transaction
   */
  setElsewhere(pages: readonly OtherPage[]): this {
    this.#elsewhere = pages;
    return this;
  }

  /**
   * Sets a metadata entry.
   *
   * @param key the entry
   * @param value its value
   * @returns this transaction
   */
  setMeta<K extends keyof TransactionMeta>(
    key: K,
    value: TransactionMeta[K],
  ): this {
    this.#meta = { ...this.#meta, [key]: value };
    return this;
  }

  /**
   * Reads a metadata entry.
   *
   * @param key the entry
   * @returns its value
   */
  getMeta<K extends keyof TransactionMeta>(key: K): TransactionMeta[K] {
    return this.#meta[key];
  }

  /** Whether it changes the values of a page. */
  get docChanged(): boolean {
    return this.steps.some((step) =>
      step.type === "change" || step.type === "replace" ||
      step.type === "rebase"
    );
  }

  /** The message it sets, if any. */
  get message(): string | undefined {
    return this.#message;
  }

  /** The activity it sets, if any. */
  get activity(): Activity | undefined {
    return this.#activity;
  }

  /** The notice it sets, if it sets one (its value may be `undefined`). */
  get notice(): { value: Notice | undefined } | undefined {
    return this.#notice;
  }

  /** The alert it sets, if it sets one (its value may be `undefined`). */
  get alert(): { value: Alert | undefined } | undefined {
    return this.#alert;
  }

  /** The count of other tabs it sets, if any. */
  get others(): number | undefined {
    return this.#others;
  }

  /** The pages changed elsewhere it sets, if any. */
  get elsewhere(): readonly OtherPage[] | undefined {
    return this.#elsewhere;
  }
}
