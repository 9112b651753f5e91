/**
 * The publish workflow, from the Publish button to its outcome, with its
 * stages named:
 *
 * 1. `checking`: nothing to publish, or a problem the overlay flagged
 *    (`held-back`: the server would refuse the page, so nothing is sent
 *    and the list is shown), a change naming nothing in the file
 *    (`refused`), a text field emptied (asked first).
 * 2. `uploading`: the chosen images of a page go up, and the page names
 *    them by their stored names from then on (kept in the draft, so a
 *    reload does not upload them again).
 * 3. `saving`: the page goes up with its version. What is typed meanwhile
 *    stays a change on top of the new version.
 * 4. The outcome: `published`; `conflict` (someone published meanwhile:
 *    the fields on the three sides are asked about, then Keep mine
 *    publishes again, or Reload takes theirs; when their page already
 *    holds every change, it was this person's own publish, interrupted:
 *    `published`); `refused` (a 422: every problem outlined);
 *    `unauthorized` (the session ended: log in again, the changes kept);
 *    `failed`.
 *
 * The words and dialogs are the views', handed in as `ask`.
 *
 * @module
 */

import { type Client, EditorError } from "../../client/mod.ts";
import type { ChosenImages } from "../io/images.ts";
import { uploadImage } from "../io/upload.ts";
import { chosenIn } from "../state/images.ts";
import { type Choice, compareFields, resolveFields } from "../state/merge.ts";
import type { MergeField } from "../state/merge.ts";
import type { Published } from "../state/notices.ts";
import { pageNow, type PageState } from "../state/page.ts";
import {
  blockingProblems,
  emptiedFields,
  type Problem,
  strayChanges,
} from "../state/problems.ts";
import { fieldAt } from "../state/fields.ts";
import { changeCount } from "../state/count.ts";
import type { PageObject } from "../state/values.ts";
import { sameValue } from "../state/values.ts";
import type { Store } from "../store.ts";

/** The calls of the browser client a publish needs. */
export type PublishClient =
  & Pick<Client, "read" | "publish">
  & Partial<Pick<Client, "upload">>;

/** What the person decided about a conflict. */
export type ConflictAnswer =
  | { action: "keep"; choices: ReadonlyMap<string, Choice> }
  | { action: "reload" | "discard" | "cancel" };

/** The questions a publish asks, as the views ask them. */
export interface PublishQuestions {
  /** Problems the overlay flagged hold the publish back: show them. */
  heldBack(problems: readonly Problem[]): Promise<void>;
  /** Text fields were emptied: publish anyway? */
  emptied(problems: readonly Problem[]): Promise<boolean>;
  /** Someone published a page meanwhile: what now? */
  conflict(
    fields: readonly MergeField[],
    path: string,
  ): Promise<ConflictAnswer>;
  /** The session ended: log in again (true once logged in). */
  login(): Promise<boolean>;
}

/** What a publish works with. */
export interface PublishContext {
  /** The store. */
  store: Store;
  /** The browser client. */
  client: PublishClient;
  /** The chosen images' bytes. */
  images: ChosenImages;
  /** The questions. */
  ask: PublishQuestions;
  /** Keeps the publish under way across a reload (none: not kept). */
  pending?: { start(published: Published): void; clear(): void };
  /** Told once a page is published (another tab hears of it). */
  published?(path: string, version: string, content: PageObject): void;
  /** Reloads the page (Reload after a conflict). */
  reload?(path: string): void;
}

/** How a publish ended. */
export type PublishOutcome =
  | "busy"
  | "nothing"
  | "held-back"
  | "cancelled"
  | "published"
  | "conflict"
  | "refused"
  | "unauthorized"
  | "failed";

/**
 * Publishes every changed page with the message typed (cleared once they
 * are all published).
 *
 * @param context the store, client, images and questions
 * @returns how it ended
 */
export async function publish(
  context: PublishContext,
): Promise<PublishOutcome> {
  const checked = await check(context);
  if (checked) return checked;
  const { store } = context;
  const message = store.state.message.trim();
  const paths = store.state.pages.filter((page) => page.changes.size > 0)
    .map((page) => page.path);
  store.dispatch(
    store.state.tr.setActivity({ kind: "publishing", step: "uploading" })
      .setAlert(undefined),
  );
  for (const path of paths) {
    // A conflict's Keep mine publishes the pages left itself.
    const outcome = await publishPage(context, path, message);
    if (outcome !== "saved") return outcome;
  }
  context.pending?.clear();
  store.dispatch(
    store.state.tr.setActivity({ kind: "idle" }).setMessage("")
      .setNotice({
        code: "published",
        published: { message, at: Date.now(), paths },
      }),
  );
  return "published";
}

/** The checks before anything is sent: an outcome when it stops there. */
async function check(
  context: PublishContext,
): Promise<PublishOutcome | undefined> {
  const { store, ask } = context;
  const state = store.state;
  if (state.busy) return "busy";
  if (!state.pages.some((page) => page.changes.size > 0)) {
    store.dispatch(state.tr.setNotice({ code: "nothingToPublish" }));
    return "nothing";
  }
  const blocking = blockingProblems(state);
  if (blocking.length > 0) {
    store.dispatch(state.tr.setNotice({
      code: "notPublished",
      why: "heldBack",
      count: blocking.length,
    }));
    await ask.heldBack(blocking);
    return "held-back";
  }
  const stray = strayChanges(state);
  if (stray.length > 0) {
    const tr = state.tr;
    for (const problem of stray) {
      tr.refuse(problem.path, [{ at: problem.at, reason: problem.reason }]);
    }
    store.dispatch(
      tr.setNotice({ code: "notPublished", why: "stray" })
        .setAlert({ code: "stray", at: stray[0]!.at }),
    );
    return "refused";
  }
  const emptied = emptiedFields(state);
  if (emptied.length > 0 && !await ask.emptied(emptied)) return "cancelled";
  return undefined;
}

/**
 * Publishes one page: its images, then the page (`saved`), or the outcome
 * that ends the publish.
 */
async function publishPage(
  context: PublishContext,
  path: string,
  message: string,
): Promise<PublishOutcome | "saved"> {
  const { store, client } = context;
  try {
    await uploadImages(context, path);
    store.dispatch(
      store.state.tr.setActivity({ kind: "publishing", step: "saving" }),
    );
    const page = store.state.page(path)!;
    const content = pageNow(page);
    context.pending?.start({ message, at: Date.now(), paths: [path] });
    const { version } = await client.publish({
      path,
      content,
      version: page.version,
      ...(message === "" ? {} : { message }),
    });
    saved(context, page, version, content);
    return "saved";
  } catch (error) {
    // With no answer, the page may have been written all the same (a
    // reload cut the answer off): the next page view checks its draft.
    if (!(error instanceof EditorError && error.code === "network")) {
      context.pending?.clear();
    }
    store.dispatch(store.state.tr.setActivity({ kind: "idle" }));
    if (error instanceof EditorError && error.code === "conflict") {
      return await conflict(context, path);
    }
    return await failed(context, path, error);
  }
}

/**
 * Uploads the chosen images a page names (staged), and names them as
 * stored: before a publish, and before a review is sent.
 *
 * @param context the store, the client and the chosen images
 * @param path the page
 */
export async function uploadImages(
  context: Pick<PublishContext, "store" | "client" | "images">,
  path: string,
): Promise<void> {
  const { store, client, images } = context;
  const page = store.state.page(path);
  const sources = [...(page?.changes.values() ?? [])].flatMap(chosenIn);
  if (sources.length === 0) return;
  const upload = client.upload?.bind(client);
  if (!upload) throw new Error("this client cannot upload");
  const stored = await images.upload(
    sources,
    (file, name) => uploadImage({ upload }, file, name),
  );
  store.dispatch(
    store.state.tr.storeImages(stored).setMeta("addToHistory", false)
      .setMeta("origin", "publish"),
  );
  images.forget(sources);
}

/**
 * The page is published: it is read at its new version, and what was
 * typed meanwhile stays a change on top of it.
 */
function saved(
  context: PublishContext,
  sent: PageState,
  version: string,
  content: PageObject,
): void {
  const { store } = context;
  const page = store.state.page(sent.path)!;
  const kept = new Map(
    [...page.changes].filter(([at, value]) =>
      !sameValue(sent.changes.get(at), value)
    ),
  );
  store.dispatch(
    store.state.tr.rebase(sent.path, version, content, kept)
      .setMeta("origin", "publish"),
  );
  context.published?.(sent.path, version, content);
}

/**
 * Someone published meanwhile: their page read, the fields compared, the
 * person asked. Their page holding every change already is this person's
 * own publish, interrupted: published, with no question.
 */
async function conflict(
  context: PublishContext,
  path: string,
): Promise<PublishOutcome | "saved"> {
  const { store, client, ask } = context;
  let fresh: { version: string; page: PageObject };
  try {
    const read = await client.read(path);
    fresh = { version: read.version, page: JSON.parse(read.content) };
  } catch (error) {
    return await failed(context, path, error);
  }
  const page = store.state.page(path)!;
  const fields = compareFields(page.base, page.changes, fresh.page);
  const resolved = resolveFields(fields);
  if (resolved.ok && resolved.changes.size === 0) {
    store.dispatch(
      store.state.tr.rebase(path, fresh.version, fresh.page, new Map())
        .setMeta("origin", "publish"),
    );
    return "saved";
  }
  store.dispatch(
    store.state.tr.setNotice({ code: "notPublished", why: "conflict" }),
  );
  const answer = await ask.conflict(fields, path);
  if (answer.action === "reload") {
    context.reload?.(path);
    return "conflict";
  }
  if (answer.action !== "keep") return "conflict";
  return await keepMine(context, path, fresh, fields, answer.choices);
}

/** Keep mine: this person's fields on top of theirs, then publish again. */
async function keepMine(
  context: PublishContext,
  path: string,
  fresh: { version: string; page: PageObject },
  fields: readonly MergeField[],
  choices: ReadonlyMap<string, Choice>,
): Promise<PublishOutcome> {
  const { store } = context;
  const resolved = resolveFields(fields, choices);
  if (!resolved.ok) return "conflict";
  store.dispatch(
    store.state.tr.rebase(path, fresh.version, fresh.page, resolved.changes)
      .setMeta("origin", "merge"),
  );
  if (changeCount(store.state) === 0) {
    store.dispatch(store.state.tr.setNotice({ code: "nothingLeft" }));
    return "nothing";
  }
  return await publish(context);
}

/** A refusal or a failure, in the state; the session asked again. */
async function failed(
  context: PublishContext,
  path: string,
  error: unknown,
): Promise<PublishOutcome> {
  const { store, ask } = context;
  if (!(error instanceof EditorError)) {
    store.dispatch(
      store.state.tr.setNotice({ code: "notPublished", why: "failed" })
        .setAlert({ code: "somethingWrong" }),
    );
    return "failed";
  }
  if (error.code === "invalid_content") return refused(context, path, error);
  if (error.code === "unauthorized") {
    store.dispatch(
      store.state.tr.setNotice({ code: "notPublished", why: "logIn" }),
    );
    if (await ask.login()) {
      store.dispatch(store.state.tr.setNotice({ code: "loggedInAgain" }));
    }
    return "unauthorized";
  }
  store.dispatch(
    store.state.tr.setNotice({
      code: "notPublished",
      why: error.code === "rate_limited" ? "wait" : "failed",
    }).setAlert({
      code: "failure",
      error: error.code,
      retryAfter: error.retryAfter,
    }),
  );
  return "failed";
}

/** A 422: every problem of the page outlined at once. */
function refused(
  context: PublishContext,
  path: string,
  error: EditorError,
): PublishOutcome {
  const { store } = context;
  const refusals = error.problems.map(({ at, reason }) => ({ at, reason }));
  const first = refusals[0];
  const page = store.state.page(path)!;
  const field = first && fieldAt(page.fields, pageNow(page), first.at);
  store.dispatch(
    store.state.tr.refuse(path, refusals).setNotice({
      code: "notPublished",
      why: "refused",
      count: refusals.length,
    }).setAlert({
      code: "refused",
      count: refusals.length,
      reason: first?.reason ?? "",
      kind: field?.kind,
      shown: field !== undefined,
    }),
  );
  return "refused";
}
