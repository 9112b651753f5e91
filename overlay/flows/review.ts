/**
 * Sending changes for review, as a flow with its states named. A review
 * carries every page this tab changed: the pages of this page view, and
 * this tab's drafts of pages it showed before (an author edits About, goes
 * to Home, edits it, and sends one review with both). Other tabs' drafts
 * stay theirs, offered back on their page as always.
 *
 * 1. `checked`: a message is asked for (the reviewer reads it), and there
 *    must be changes; the problems that hold a publish back hold this back
 *    too;
 * 2. `carried`: each page changed elsewhere is read again and its draft
 *    rebased onto it field by field (`../state/carry.ts`); a page with a
 *    clash, or a field to fix, is left out and named (`held`): the person
 *    opens it to settle it;
 * 3. `uploading`: the chosen images of every page sent go up, staged
 *    (the review's commit holds them);
 * 4. `sending`: every page goes in one review (`POST /api/reviews`), each
 *    with the version it was read at;
 * 5. `sent`: the changes now live in the review, not in this tab: they are
 *    dropped here (the page shows the published values again), the drafts
 *    of the other pages sent are cleared, and the bar says how many pages
 *    were sent and that they are not published.
 *
 * A failure leaves every change and every draft where it was, and the bar
 * says why.
 *
 * @example
 * ```ts ignore
 * import { sendForReview } from "./review.ts";
 *
 * const outcome = await sendForReview({ store, client, images, drafts });
 * // "sent", "nothing", "message", "held-back" or "failed"
 * ```
 *
 * @module
 */

import { type Client, EditorError } from "../../client/mod.ts";
import type { Drafts } from "../io/drafts.ts";
import type { ChosenImages } from "../io/images.ts";
import { uploadImage } from "../io/upload.ts";
import { carryDraft } from "../state/carry.ts";
import { discardAll } from "../state/commands.ts";
import type { Draft } from "../state/drafts.ts";
import { chosenIn, withStored } from "../state/images.ts";
import type { HeldPage, OtherPage } from "../state/notices.ts";
import { pageNow, type PageState } from "../state/page.ts";
import { blockingProblems } from "../state/problems.ts";
import type { Store } from "../store.ts";
import { uploadImages } from "./publish.ts";

/** What sending for review needs. */
export interface ReviewContext {
  /** The store. */
  store: Store;
  /** The browser client. */
  client:
    & Pick<Client, "sendForReview">
    & Partial<Pick<Client, "upload">>
    & Pick<Client, "read" | "publish">;
  /** The chosen images' bytes. */
  images: ChosenImages;
  /** This tab's drafts (none: only this page view's pages are sent). */
  drafts?: Drafts | undefined;
}

/** How sending for review ended. */
export type ReviewOutcome =
  | "nothing"
  | "message"
  | "held-back"
  | "sent"
  | "failed";

/** A page changed elsewhere, read again, to send. */
interface Carrying {
  page: PageState;
  draft: Draft;
}

/**
 * Sends every page this tab holds changes for in one review.
 *
 * @param context the store, the client, the chosen images and the drafts
 * @returns how it ended
 */
export async function sendForReview(
  context: ReviewContext,
): Promise<ReviewOutcome> {
  const { store } = context;
  const checked = check(context);
  if (checked) return checked;
  const message = store.state.message.trim();
  store.dispatch(
    store.state.tr.setActivity({ kind: "publishing", step: "uploading" })
      .setAlert(undefined),
  );
  try {
    const { held, carried: found } = await carry(context);
    let carried = found;
    const here = store.state.pages.filter((page) => page.changes.size > 0);
    if (here.length === 0 && carried.length === 0) {
      store.dispatch(
        store.state.tr.setActivity({ kind: "idle" }).setNotice(
          held.length > 0 ? { code: "notSent" } : { code: "nothingToPublish" },
        ).setAlert(
          held.length > 0 ? { code: "heldElsewhere", pages: held } : undefined,
        ),
      );
      showElsewhere(store, context.drafts);
      return held.length > 0 ? "held-back" : "nothing";
    }
    for (const page of here) await uploadImages(context, page.path);
    carried = await uploadCarried(context, carried);
    store.dispatch(
      store.state.tr.setActivity({ kind: "publishing", step: "saving" }),
    );
    const pages = [
      ...store.state.pages.filter((page) => page.changes.size > 0),
      ...carried.map((each) => each.page),
    ].map((page) => ({
      path: page.path,
      content: pageNow(page),
      version: page.version,
    }));
    await context.client.sendForReview({ message, pages });
    sent(context, pages.length, carried, held);
    return "sent";
  } catch (error) {
    store.dispatch(
      store.state.tr.setActivity({ kind: "idle" }).setAlert(
        error instanceof EditorError
          ? { code: "failure", error: error.code }
          : { code: "somethingWrong" },
      ),
    );
    return "failed";
  }
}

/** The checks before anything is read: an outcome when it stops there. */
function check(context: ReviewContext): ReviewOutcome | undefined {
  const { store } = context;
  const state = store.state;
  if (state.busy) return "nothing";
  const here = state.pages.some((page) => page.changes.size > 0);
  const shown = state.pages.map((page) => page.path);
  if (!here && (context.drafts?.elsewhere(shown).length ?? 0) === 0) {
    store.dispatch(state.tr.setNotice({ code: "nothingToPublish" }));
    return "nothing";
  }
  if (state.message.trim() === "") {
    store.dispatch(state.tr.setNotice({ code: "reviewMessageNeeded" }));
    return "message";
  }
  const held = blockingProblems(state);
  if (held.length > 0) {
    store.dispatch(
      state.tr.setNotice({
        code: "notPublished",
        why: "heldBack",
        count: held.length,
      }),
    );
    return "held-back";
  }
  return undefined;
}

/**
 * This tab's drafts of pages not shown, each read again and rebased: the
 * pages to send, and those left out. A draft the page already holds is
 * cleared.
 */
async function carry(
  context: ReviewContext,
): Promise<{ carried: Carrying[]; held: HeldPage[] }> {
  const { store, client, drafts } = context;
  const carried: Carrying[] = [];
  const held: HeldPage[] = [];
  if (!drafts) return { carried, held };
  const shown = store.state.pages.map((page) => page.path);
  for (const { path, draft } of drafts.elsewhere(shown)) {
    const read = await client.read(path);
    const outcome = carryDraft(path, {
      version: read.version,
      page: JSON.parse(read.content),
    }, draft);
    if (outcome.kind === "send") carried.push({ page: outcome.page, draft });
    else if (outcome.kind === "done") drafts.clear(path);
    else held.push({ path, address: draft.address, why: outcome.kind });
  }
  return { carried, held };
}

/**
 * Uploads the chosen images the carried pages name (staged), their drafts
 * then naming them as stored, so that a failed send does not upload them
 * again.
 */
async function uploadCarried(
  context: ReviewContext,
  carried: readonly Carrying[],
): Promise<Carrying[]> {
  const { client, images, drafts } = context;
  const done: Carrying[] = [];
  for (const { page, draft } of carried) {
    const sources = [...page.changes.values()].flatMap(chosenIn);
    if (sources.length === 0) {
      done.push({ page, draft });
      continue;
    }
    const upload = client.upload?.bind(client);
    if (!upload) throw new Error("this client cannot upload");
    const stored = await images.upload(
      sources,
      (file, name) => uploadImage({ upload }, file, name),
    );
    const named = (changes: ReadonlyMap<string, unknown>) =>
      new Map(
        [...changes].map(([at, value]) => [at, withStored(value, stored)]),
      );
    const kept: Draft = { ...draft, changes: named(draft.changes) };
    drafts?.save(page.path, kept);
    images.forget(sources);
    done.push({ page: { ...page, changes: named(page.changes) }, draft: kept });
  }
  return done;
}

/**
 * The review is sent: this page view's changes dropped, the other pages'
 * drafts cleared, the bar saying so and naming the pages left out.
 */
function sent(
  context: ReviewContext,
  count: number,
  carried: readonly Carrying[],
  held: readonly HeldPage[],
): void {
  const { store, drafts } = context;
  for (const { page } of carried) drafts?.clear(page.path);
  store.dispatch(store.state.tr.setActivity({ kind: "idle" }));
  const dropped = discardAll(store.state);
  if (dropped) store.dispatch(dropped);
  store.dispatch(
    store.state.tr.setMessage("").setNotice({ code: "sentForReview", count })
      .setAlert(
        held.length > 0 ? { code: "heldElsewhere", pages: held } : undefined,
      ),
  );
  showElsewhere(store, drafts);
}

/**
 * Tells the state which pages this tab changed on other page views (the
 * bar names them: Send for review carries them too).
 *
 * @param store the store, with the pages shown
 * @param drafts this tab's drafts (none: no other page)
 */
export function showElsewhere(store: Store, drafts: Drafts | undefined): void {
  const shown = store.state.pages.map((page) => page.path);
  const pages: OtherPage[] = (drafts?.elsewhere(shown) ?? []).map((
    { path, draft },
  ) => ({ path, address: draft.address }));
  store.dispatch(
    store.state.tr.setElsewhere(pages).setMeta("addToHistory", false),
  );
}
