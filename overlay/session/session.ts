/**
 * The overlay's edit session, apart from the DOM: the pages being edited
 * with the version each was read at, the changes (JSON Pointer → value,
 * a whole list being one value at the list's pointer), undo and redo across
 * the page, drafts, publish with its message, the keep-mine merge, the
 * problems found, and every state the bar shows. Views subscribe to it and
 * hold no state of their own; a person's work lives here alone.
 *
 * @example
 * ```ts
 * import { EditSession } from "./session.ts";
 *
 * const session = new EditSession();
 * session.addPage("src/content/pages/en/home.json", "v1", { title: "Hi" }, [
 *   ["/title", "text"],
 * ]);
 * session.change("src/content/pages/en/home.json", "/title", "Hello");
 * console.assert(session.count === 1);
 * session.undo();
 * console.assert(session.count === 0);
 * ```
 *
 * @module
 */

import { type Client, EditorError, type PageObject } from "../../client/mod.ts";
import { failureSentence, problemSentence } from "../messages.ts";
import { plural, text } from "../i18n/mod.ts";
import {
  linkProblem,
  linksIn,
  looksLikeMarkup,
  refusedHrefs,
} from "./checks.ts";
import {
  clearDraft,
  type Draft,
  type DraftStore,
  loadDraft,
  saveDraft,
} from "./drafts.ts";
import {
  type Choice,
  compareFields,
  type MergeField,
  resolveFields,
} from "./merge.ts";
import { createsKey, fieldFit, type FieldKind } from "./fields.ts";
import {
  below,
  fieldName,
  getPointer,
  isWithin,
  setPointer,
} from "./pointer.ts";
import { ChosenImages, chosenIn, type ImageStore } from "./images.ts";
import { applyChanges, sameValue } from "./values.ts";

export type { FieldKind };

/** A page file being edited. */
export interface PageEdit {
  /** The page path, from `data-inpage-page`. */
  path: string;
  /** The version the changes apply to. */
  version: string;
  /** The page as read at that version. */
  base: PageObject;
  /** The changed values, by JSON Pointer; none lies inside another. */
  changes: Map<string, unknown>;
  /** The fields regions show, by pointer. */
  fields: Map<string, FieldKind>;
  /**
   * The changes made to create a key (a list operation, the Page panel):
   * only these may write where the file held nothing.
   */
  newKeys: Set<string>;
}

/** A field the page rules refuse (or would refuse), with its sentence. */
export interface Problem {
  /** The page path. */
  path: string;
  /** The JSON Pointer the problem is at. */
  at: string;
  /** The stable reason (`markup`, `link`, `empty`, …). */
  reason: string;
  /** The sentence shown beside the field. */
  sentence: string;
  /** For a refused link in rich text: its address. */
  href?: string;
  /** Whether the overlay found it itself (rather than the server). */
  local: boolean;
}

/** The bar's tone, which colours the status. */
export type Tone =
  | "loading"
  | "clean"
  | "dirty"
  | "busy"
  | "published"
  | "error";

/** What a subscriber is told. */
export type SessionEvent =
  /** Something the bar shows changed. */
  | { type: "state" }
  /** Values of a page changed other than by typing: regions show them again. */
  | { type: "values"; path: string };

/** The outcome of a publish. */
export type PublishOutcome =
  | { kind: "nothing" }
  | { kind: "busy" }
  | { kind: "published" }
  /** Someone published meanwhile: the fields on the three sides. */
  | {
    kind: "conflict";
    path: string;
    fresh: { version: string; page: PageObject };
    fields: MergeField[];
  }
  /** The session ended: log in again, then publish. */
  | { kind: "unauthorized" }
  /** Refused or failed: the status, alert and problems say why. */
  | { kind: "failed"; error: unknown };

/** A publish, as the bar shows it. */
export interface Published {
  /** The commit message typed (empty: the server's default). */
  message: string;
  /** When, in milliseconds since the epoch. */
  at: number;
}

/** A draft on offer when a page is opened. */
export type DraftOffer =
  /** Made against the version read now. */
  | { kind: "same"; draft: Draft }
  /** Made against an older version: its fields against the current one. */
  | { kind: "older"; draft: Draft; fields: MergeField[] };

/** One step of undo: the changes of a page before and after. */
interface Step {
  path: string;
  pointer: string;
  before: Map<string, unknown>;
  after: Map<string, unknown>;
}

/**
 * The calls of the browser client a publish needs (`upload` for the
 * chosen images, when there are some).
 */
export type PublishClient =
  & Pick<Client, "read" | "publish">
  & Partial<Pick<Client, "upload">>;

/** An edit session: see the module doc. */
export class EditSession {
  /** The pages being edited. */
  readonly pages: PageEdit[] = [];
  /** The status the bar shows. */
  status: { text: string; tone: Tone } = {
    text: text("loading"),
    tone: "loading",
  };
  /** The alert above the bar, if any. */
  alert: string | undefined;
  /** The commit message typed for the next publish. */
  message = "";
  /** Whether a publish or upload is under way. */
  busy = false;
  /** The problems found, by the server or the overlay. */
  problems: Problem[] = [];
  /** The last publish, while the status says "Published". */
  published: Published | undefined;
  readonly #store: DraftStore | undefined;
  readonly #now: () => number;
  /** The images chosen and not published yet. */
  readonly images: ChosenImages;
  readonly #listeners = new Set<(event: SessionEvent) => void>();
  #done: Step[] = [];
  #undone: Step[] = [];
  #sealed = true;

  /**
   * Starts an empty session.
   *
   * @param store where drafts are kept (`localStorage`); none: not kept
   * @param now the clock drafts are stamped with
   * @param images where chosen images are kept (IndexedDB); default: memory
   */
  constructor(
    store?: DraftStore,
    now: () => number = Date.now,
    images?: ImageStore,
  ) {
    this.#store = store;
    this.#now = now;
    this.images = new ChosenImages(images);
  }

  /**
   * Reads back the images a page's draft names (after a reload), under new
   * object URLs, and rewrites the draft with them. Call before
   * {@linkcode EditSession.draftOffer}.
   *
   * @param path the page path
   */
  async reviveImages(path: string): Promise<void> {
    if (!this.#store) return;
    const draft = loadDraft(this.#store, path);
    if (!draft) return;
    const renamed = await this.images.revive(
      [...draft.changes.values()].flatMap(chosenIn),
    );
    if (renamed.size === 0) return;
    const rename = (value: unknown): unknown =>
      JSON.parse(
        JSON.stringify(value),
        (key, inner) =>
          key === "src" && typeof inner === "string" && renamed.has(inner)
            ? renamed.get(inner)
            : inner,
      );
    saveDraft(this.#store, path, {
      ...draft,
      changes: new Map(
        [...draft.changes].map(([at, value]) => [at, rename(value)]),
      ),
    });
  }

  /**
   * Calls `listener` on every event until the returned function is called.
   *
   * @param listener the subscriber
   * @returns a function that unsubscribes it
   */
  subscribe(listener: (event: SessionEvent) => void): () => void {
    this.#listeners.add(listener);
    return () => this.#listeners.delete(listener);
  }

  #emit(event: SessionEvent): void {
    for (const listener of this.#listeners) listener(event);
  }

  /** Tells subscribers the state changed. */
  #state(): void {
    this.#emit({ type: "state" });
  }

  /**
   * Adds a page as read, with the fields its regions show, and checks
   * those fields (a file may already fail the rules).
   *
   * @param path the page path
   * @param version the version read
   * @param base the page object read
   * @param fields each field's pointer and kind
   * @returns the page's edit
   */
  addPage(
    path: string,
    version: string,
    base: PageObject,
    fields: Iterable<readonly [string, FieldKind]> = [],
  ): PageEdit {
    const page: PageEdit = {
      path,
      version,
      base,
      changes: new Map(),
      fields: new Map(fields),
      newKeys: new Set(),
    };
    this.pages.push(page);
    this.#check(page);
    this.#refresh();
    return page;
  }

  /**
   * A page's edit.
   *
   * @param path the page path
   * @returns the page, if it is being edited
   */
  page(path: string): PageEdit | undefined {
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
    if (!page) return undefined;
    let inside = false;
    for (const [at, value] of page.changes) {
      if (isWithin(pointer, at)) return getPointer(value, below(pointer, at));
      if (isWithin(at, pointer)) inside = true;
    }
    return getPointer(
      inside ? applyChanges(page.base, page.changes) : page.base,
      pointer,
    );
  }

  /** How many fields are changed, over all pages. */
  get count(): number {
    return this.pages.reduce((sum, page) => sum + page.changes.size, 0);
  }

  /** Whether there is a step to undo. */
  get canUndo(): boolean {
    return !this.busy && this.#done.length > 0;
  }

  /** Whether there is a step to redo. */
  get canRedo(): boolean {
    return !this.busy && this.#undone.length > 0;
  }

  /**
   * Records a field's new value (a whole list: the list's pointer and the
   * new array). Consecutive changes of one field make one undo step until
   * {@linkcode EditSession.seal} is called.
   *
   * @param path the page path
   * @param pointer the field
   * @param value its new value
   * @param options `newKey: true` when the change may create a key the file
   *   does not hold (a list operation, the Page panel); any other change
   *   where the file holds nothing is refused by
   *   {@linkcode EditSession.publish}
   */
  change(
    path: string,
    pointer: string,
    value: unknown,
    options: { newKey?: boolean } = {},
  ): void {
    const page = this.page(path);
    if (!page || this.busy) return;
    if (options.newKey) page.newKeys.add(pointer);
    const before = new Map(page.changes);
    putChange(page, pointer, value);
    const last = this.#done.at(-1);
    if (
      !this.#sealed && last && last.path === path && last.pointer === pointer
    ) last.after = new Map(page.changes);
    else {
      this.#done.push({
        path,
        pointer,
        before,
        after: new Map(page.changes),
      });
    }
    this.#sealed = false;
    this.#undone = [];
    this.#changed(page, pointer);
  }

  /**
   * Records a list operation (a copy, a move, a removal, a first item):
   * the whole list at its pointer as one undo step of its own.
   *
   * @param path the page path
   * @param list the list's pointer
   * @param items the list afterwards
   */
  changeList(path: string, list: string, items: unknown[]): void {
    this.seal();
    // A list operation may create the list (a first item): on purpose.
    this.change(path, list, items, { newKey: true });
    this.seal();
  }

  /**
   * Sets the fields a page's regions show, after a list operation moved,
   * added or removed some.
   *
   * @param path the page path
   * @param fields each field's pointer and kind
   */
  setFields(
    path: string,
    fields: Iterable<readonly [string, FieldKind]>,
  ): void {
    const page = this.page(path);
    if (!page) return;
    page.fields = new Map(fields);
    this.#check(page);
  }

  /** Ends the current undo step: the next change starts a new one. */
  seal(): void {
    this.#sealed = true;
  }

  /**
   * Records several values of a page as one undo step of its own (a
   * restore from the page's history), and tells the regions to show them.
   *
   * @param path the page path
   * @param changes new values by JSON Pointer
   * @returns whether they were recorded (not while busy, nor when empty)
   */
  changeAll(path: string, changes: ReadonlyMap<string, unknown>): boolean {
    const page = this.page(path);
    if (!page || this.busy || changes.size === 0) return false;
    const before = new Map(page.changes);
    for (const [pointer, value] of changes) putChange(page, pointer, value);
    this.#done.push({
      path,
      pointer: "",
      before,
      after: new Map(page.changes),
    });
    this.#sealed = true;
    this.#undone = [];
    this.#changed(page);
    this.#emit({ type: "values", path });
    return true;
  }

  /**
   * Undoes the last step, on whichever page it was.
   *
   * @returns whether there was one
   */
  undo(): boolean {
    return this.#step(this.#done, this.#undone, "before");
  }

  /**
   * Redoes the last undone step.
   *
   * @returns whether there was one
   */
  redo(): boolean {
    return this.#step(this.#undone, this.#done, "after");
  }

  #step(from: Step[], to: Step[], side: "before" | "after"): boolean {
    if (this.busy) return false;
    const step = from.pop();
    if (!step) return false;
    to.push(step);
    this.#sealed = true;
    const page = this.page(step.path);
    if (!page) return false;
    page.changes = new Map(step[side]);
    this.#changed(page);
    this.#emit({ type: "values", path: page.path });
    return true;
  }

  /** Forgets every change of every page, and their drafts. */
  discardAll(): void {
    if (this.busy) return;
    for (const page of this.pages) {
      if (page.changes.size === 0) continue;
      page.changes = new Map();
      this.#emit({ type: "values", path: page.path });
      this.#changed(page);
    }
    for (const page of this.pages) {
      if (this.#store) clearDraft(this.#store, page.path);
    }
    this.images.forget();
    this.#done = [];
    this.#undone = [];
    this.setStatus(text("noChanges"), "clean");
  }

  /**
   * Sets the commit message of the next publish.
   *
   * @param text what was typed
   */
  setMessage(text: string): void {
    this.message = text;
  }

  /**
   * Sets the bar's status.
   *
   * @param text the words
   * @param tone its tone
   */
  setStatus(text: string, tone: Tone): void {
    this.status = { text, tone };
    this.#state();
  }

  /**
   * Shows or hides the alert.
   *
   * @param text the sentence, or `undefined` to hide it
   */
  setAlert(text: string | undefined): void {
    this.alert = text;
    this.#state();
  }

  /**
   * Runs a task with the session busy (no edit, undo or publish meanwhile).
   *
   * @param status the status shown meanwhile
   * @param task the task
   * @returns what the task returns
   */
  async whileBusy<T>(status: string, task: () => Promise<T>): Promise<T> {
    this.busy = true;
    this.setStatus(status, "busy");
    try {
      return await task();
    } finally {
      this.busy = false;
      this.#state();
    }
  }

  /**
   * The draft kept for a page, if any, ready to offer.
   *
   * @param path the page path
   * @returns the offer
   */
  draftOffer(path: string): DraftOffer | undefined {
    const page = this.page(path);
    if (!page || !this.#store) return undefined;
    const draft = loadDraft(this.#store, path);
    if (!draft) return undefined;
    if (draft.version === page.version) return { kind: "same", draft };
    const fields = compareFields(draft.base, draft.changes, page.base);
    // A draft whose every change the page now holds was published (a dev
    // server may reload the page before the publish's answer clears it):
    // there is nothing to restore.
    if (
      fields.every((field) =>
        !field.gone && sameValue(field.theirs, field.mine)
      )
    ) {
      clearDraft(this.#store, path);
      return undefined;
    }
    return { kind: "older", draft, fields };
  }

  /**
   * Takes a draft's changes back as unsaved changes (one undo step): all of
   * them for a draft of this version; for an older one, the fields changed
   * on its side only and each clash chosen "mine".
   *
   * @param path the page path
   * @param offer the offer from {@linkcode EditSession.draftOffer}
   * @param choices for an older draft, the choice for each clash
   * @returns whether they were taken (false while a clash has no choice)
   */
  restoreDraft(
    path: string,
    offer: DraftOffer,
    choices: ReadonlyMap<string, Choice> = new Map(),
  ): boolean {
    const page = this.page(path);
    if (!page) return false;
    let changes: Map<string, unknown>;
    if (offer.kind === "same") changes = offer.draft.changes;
    else {
      const resolved = resolveFields(offer.fields, choices);
      if (!resolved.ok) return false;
      changes = resolved.changes;
    }
    const before = new Map(page.changes);
    for (const [pointer, value] of changes) putChange(page, pointer, value);
    this.#done.push({
      path,
      pointer: "",
      before,
      after: new Map(page.changes),
    });
    this.#sealed = true;
    this.#undone = [];
    if (this.#store) clearDraft(this.#store, path);
    this.#changed(page);
    this.#emit({ type: "values", path });
    return true;
  }

  /**
   * Forgets a page's draft.
   *
   * @param path the page path
   */
  discardDraft(path: string): void {
    if (this.#store) clearDraft(this.#store, path);
    const page = this.page(path);
    if (page && page.changes.size > 0) this.#save(page);
  }

  /**
   * Text fields that held words and now hold none (a heading or title
   * emptied to nothing): worth a question before publishing.
   *
   * @returns one problem per such field
   */
  emptied(): Problem[] {
    const found: Problem[] = [];
    for (const page of this.pages) {
      for (const [pointer, kind] of page.fields) {
        if (kind !== "text" || !hasChangeAt(page, pointer)) continue;
        const before = getPointer(page.base, pointer);
        const now = this.valueOf(page.path, pointer);
        if (
          typeof before === "string" && before.trim() !== "" &&
          typeof now === "string" && now.trim() === ""
        ) {
          found.push({
            path: page.path,
            at: pointer,
            reason: "empty",
            sentence: problemSentence("empty", kind),
            local: true,
          });
        }
      }
    }
    return found;
  }

  /**
   * Publishes every changed page with the message typed, which is cleared
   * once they are all published.
   *
   * @param client the browser client
   * @returns the outcome
   */
  async publish(client: PublishClient): Promise<PublishOutcome> {
    if (this.busy) return { kind: "busy" };
    this.setAlert(undefined);
    this.problems = this.problems.filter((problem) => problem.local);
    const dirty = this.pages.filter((page) => page.changes.size > 0);
    if (dirty.length === 0) {
      this.setStatus(text("nothingToPublish"), "clean");
      return { kind: "nothing" };
    }
    const stray = this.strayChanges();
    if (stray.length > 0) return this.#refuseStray(stray);
    let current: PageEdit | undefined;
    try {
      return await this.whileBusy(text("publishing"), async () => {
        for (const page of dirty) {
          current = page;
          await this.#publishPage(client, page, page.base);
        }
        return this.#published();
      });
    } catch (error) {
      if (
        current && error instanceof EditorError && error.code === "conflict"
      ) return await this.#conflict(client, current);
      return this.#fail(error, current);
    }
  }

  /**
   * "Keep mine" after a conflict: publishes this person's fields on top of
   * theirs, each clash settled by its choice, with the message typed.
   *
   * @param client the browser client
   * @param path the page that clashed
   * @param fresh the version published meanwhile
   * @param fields the compared fields
   * @param choices the choice for each clash
   * @returns the outcome (a failed one, with nothing published, while a
   *   clash has no choice)
   */
  async keepMine(
    client: PublishClient,
    path: string,
    fresh: { version: string; page: PageObject },
    fields: readonly MergeField[],
    choices: ReadonlyMap<string, Choice>,
  ): Promise<PublishOutcome> {
    const page = this.page(path);
    const resolved = resolveFields(fields, choices);
    if (!page || !resolved.ok) {
      return { kind: "failed", error: new Error("undecided") };
    }
    this.#rebase(page, fresh, resolved.changes);
    this.#emit({ type: "values", path });
    if (this.count === 0) {
      this.setStatus(text("nothingLeft"), "clean");
      return { kind: "nothing" };
    }
    return await this.publish(client);
  }

  /**
   * Reads a page again and puts this person's changes on top of it where
   * nothing clashes (after a conflict, for Reload keeping nothing: pass no
   * changes).
   */
  #rebase(
    page: PageEdit,
    fresh: { version: string; page: PageObject },
    changes: Map<string, unknown>,
  ): void {
    page.version = fresh.version;
    page.base = fresh.page;
    page.changes = new Map();
    for (const [pointer, value] of changes) putChange(page, pointer, value);
    this.#forget(page.path);
    this.#save(page);
    this.#check(page);
  }

  /** Forgets the undo steps of a page. */
  #forget(path: string): void {
    this.#done = this.#done.filter((step) => step.path !== path);
    this.#undone = this.#undone.filter((step) => step.path !== path);
  }

  async #publishPage(
    client: PublishClient,
    page: PageEdit,
    base: PageObject,
  ): Promise<void> {
    // Chosen images go up now, just before the page that names them, kept
    // aside (staged) so that the page's save commits them with it: one
    // commit, and nothing in the repository if the save is refused.
    const chosen = [...page.changes.values()].flatMap(chosenIn);
    for (const [at, value] of page.changes) {
      if (chosenIn(value).length === 0) continue;
      if (!client.upload) throw new Error("this client cannot upload");
      const upload = client.upload.bind(client);
      page.changes.set(
        at,
        await this.images.upload(
          value,
          (file, name) => upload(file, name, { staged: true }),
        ),
      );
    }
    const content = applyChanges(base, page.changes);
    const message = this.message.trim();
    const { version } = await client.publish({
      path: page.path,
      content,
      version: page.version,
      ...(message === "" ? {} : { message }),
    });
    page.version = version;
    page.base = content;
    page.changes = new Map();
    this.images.forget(chosen);
    this.#forget(page.path);
    if (this.#store) clearDraft(this.#store, page.path);
    this.#check(page);
  }

  /**
   * The changes that would write a key the page file does not hold, and
   * were not made to create one: a publish refuses them all.
   *
   * @returns one problem per such change
   */
  strayChanges(): Problem[] {
    const found: Problem[] = [];
    for (const page of this.pages) {
      for (const pointer of page.changes.keys()) {
        if (page.newKeys.has(pointer) || !createsKey(page.base, pointer)) {
          continue;
        }
        found.push({
          path: page.path,
          at: pointer,
          reason: "missing",
          sentence: text("strayKey", { field: fieldName(pointer) }),
          local: true,
        });
      }
    }
    return found;
  }

  #refuseStray(stray: Problem[]): PublishOutcome {
    this.problems = [
      ...this.problems.filter((problem) =>
        !stray.some((other) =>
          other.path === problem.path && other.at === problem.at
        )
      ),
      ...stray,
    ];
    this.status = {
      text: text("notPublishedStray"),
      tone: "error",
    };
    this.setAlert(text("nothingPublished", { sentence: stray[0]!.sentence }));
    return { kind: "failed", error: new Error("stray key") };
  }

  #published(): PublishOutcome {
    const message = this.message.trim();
    this.message = "";
    this.showPublished({ message, at: this.#now() });
    return { kind: "published" };
  }

  /**
   * Shows "Published" with what was published (after a publish, or on the
   * next page view after the site reloaded itself).
   *
   * @param published the commit message and the time of the publish
   */
  showPublished(published: Published): void {
    this.published = published;
    this.status = { text: text("published"), tone: "published" };
    this.#state();
  }

  async #conflict(
    client: PublishClient,
    page: PageEdit,
  ): Promise<PublishOutcome> {
    this.setStatus(text("notPublishedConflict"), "error");
    try {
      const read = await client.read(page.path);
      const fresh = {
        version: read.version,
        page: JSON.parse(read.content) as PageObject,
      };
      const fields = compareFields(page.base, page.changes, fresh.page);
      return { kind: "conflict", path: page.path, fresh, fields };
    } catch (error) {
      return this.#fail(error, page);
    }
  }

  #fail(error: unknown, page: PageEdit | undefined): PublishOutcome {
    if (!(error instanceof EditorError)) {
      this.status = { text: text("notPublished"), tone: "error" };
      this.setAlert(text("somethingWrong"));
      return { kind: "failed", error };
    }
    if (error.code === "invalid_content" && page) {
      const found = error.problems.map((problem) =>
        this.#problem(page, problem.at, problem.reason, false)
      );
      this.problems = [
        ...this.problems.filter((problem) =>
          !found.some((other) =>
            other.path === problem.path && other.at === problem.at
          )
        ),
        ...found,
      ];
      const first = found[0];
      this.status = {
        text: plural("notPublishedRefused", found.length),
        tone: "error",
      };
      this.setAlert(
        found.length > 1
          ? plural("refusedFields", found.length)
          : first && page.fields.size > 0 && this.#regionOf(page, first.at)
          ? text("refusedHighlighted", { sentence: first.sentence })
          : text("refusedPage", { sentence: first?.sentence ?? "" }).trim(),
      );
      return { kind: "failed", error };
    }
    if (error.code === "unauthorized") {
      this.setStatus(text("notPublishedLogIn"), "error");
      return { kind: "unauthorized" };
    }
    this.status = {
      text: error.code === "rate_limited"
        ? text("notPublishedWait")
        : text("notPublished"),
      tone: "error",
    };
    this.setAlert(failureSentence(error));
    return { kind: "failed", error };
  }

  /** The field of a page that holds a pointer: its own, or the closest. */
  #regionOf(page: PageEdit, at: string): string | undefined {
    let best: string | undefined;
    for (const pointer of page.fields.keys()) {
      if (isWithin(at, pointer) && (!best || pointer.length > best.length)) {
        best = pointer;
      }
    }
    return best;
  }

  #problem(
    page: PageEdit,
    at: string,
    reason: string,
    local: boolean,
    href?: string,
  ): Problem {
    const field = this.#regionOf(page, at);
    const kind = field === undefined ? undefined : page.fields.get(field);
    return {
      path: page.path,
      at,
      reason,
      sentence: problemSentence(reason, kind),
      ...(href === undefined ? {} : { href }),
      local,
    };
  }

  /**
   * The problems the overlay sees itself in a page: tag-like text in a
   * plain-text field, refused links in rich text and in link objects.
   */
  #check(page: PageEdit): void {
    const found: Problem[] = [];
    const current = applyChanges(page.base, page.changes);
    for (const [pointer, kind] of page.fields) {
      const misfit = fieldFit(current, pointer, kind);
      if (misfit) {
        found.push({
          path: page.path,
          at: pointer,
          reason: misfit.reason,
          sentence: misfit.sentence,
          local: true,
        });
        continue;
      }
      const value = getPointer(current, pointer);
      if (typeof value !== "string") continue;
      if (kind === "text" && looksLikeMarkup(value)) {
        found.push(this.#problem(page, pointer, "markup", true));
      } else if (kind === "html") {
        for (const href of linksIn(value)) {
          if (linkProblem(href)) {
            found.push(this.#problem(page, pointer, "link", true, href));
          }
        }
      }
    }
    for (const at of refusedHrefs(current)) {
      found.push(this.#problem(page, at, "link", true));
    }
    this.problems = [
      ...this.problems.filter((problem) =>
        problem.path !== page.path || !problem.local
      ),
      ...found,
    ];
  }

  #changed(page: PageEdit, pointer?: string): void {
    // A server problem goes once its field (or the whole page) changes.
    this.problems = this.problems.filter((problem) =>
      problem.path !== page.path || problem.local ||
      (pointer !== undefined && !isWithin(problem.at, pointer) &&
        !isWithin(pointer, problem.at))
    );
    this.#check(page);
    this.#save(page);
    this.#refresh();
  }

  #save(page: PageEdit): void {
    if (!this.#store) return;
    const base = new Map<string, unknown>();
    for (const pointer of page.changes.keys()) {
      base.set(pointer, getPointer(page.base, pointer));
    }
    saveDraft(this.#store, page.path, {
      savedAt: this.#now(),
      version: page.version,
      base,
      changes: page.changes,
    });
  }

  /** Sets the status from the count of changes. */
  #refresh(): void {
    if (this.busy) return this.#state();
    const count = this.count;
    if (count > 0) {
      this.published = undefined;
      this.status = {
        text: plural("unsaved", count),
        tone: "dirty",
      };
    } else if (this.status.tone !== "published") {
      this.status = { text: text("noChanges"), tone: "clean" };
    }
    this.#state();
  }
}

/** Whether a page has a change at or around a pointer. */
function hasChangeAt(page: PageEdit, pointer: string): boolean {
  for (const at of page.changes.keys()) {
    if (isWithin(pointer, at)) return true;
  }
  return false;
}

/**
 * Records a value in a page's changes so that no change lies inside
 * another: inside an already changed list it is written into that list's
 * value; around changed fields it replaces them. A value equal to the
 * stored one is no change.
 */
function putChange(page: PageEdit, pointer: string, value: unknown): void {
  for (const [at, held] of page.changes) {
    if (at !== pointer && isWithin(pointer, at)) {
      const next = setPointer(held, below(pointer, at), value);
      if (sameValue(next, getPointer(page.base, at))) page.changes.delete(at);
      else page.changes.set(at, next);
      return;
    }
  }
  for (const at of [...page.changes.keys()]) {
    if (at !== pointer && isWithin(at, pointer)) page.changes.delete(at);
  }
  if (sameValue(value, getPointer(page.base, pointer))) {
    page.changes.delete(pointer);
  } else page.changes.set(pointer, value);
}
