/**
 * Sending changes for review, as a flow with its states named:
 *
 * 1. `checked`: a message is asked for (the reviewer reads it), and there
 *    must be changes; the problems that hold a publish back hold this back
 *    too;
 * 2. `uploading`: the chosen images of every changed page go up, staged
 *    (the review's commit holds them);
 * 3. `sending`: every changed page goes in one review
 *    (`POST /api/reviews`), each with the version it was read at;
 * 4. `sent`: the changes now live in the review, not in this tab: they are
 *    dropped here (the page shows the published values again), and the bar
 *    says how many pages were sent and that they are not published.
 *
 * A failure leaves every change where it was, and the bar says why.
 *
 * @example
 * ```ts ignore
 * import { sendForReview } from "./review.ts";
 *
 * const outcome = await sendForReview({ store, client, images });
 * // "sent", "nothing", "message", "held-back" or "failed"
 * ```
 *
 * @module
 */

import { type Client, EditorError } from "../../client/mod.ts";
import type { ChosenImages } from "../io/images.ts";
import { discardAll } from "../state/commands.ts";
import { pageNow } from "../state/page.ts";
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
}

/** How sending for review ended. */
export type ReviewOutcome =
  | "nothing"
  | "message"
  | "held-back"
  | "sent"
  | "failed";

/**
 * Sends every page with unsaved changes in one review.
 *
 * @param context the store, the client and the chosen images
 * @returns how it ended
 */
export async function sendForReview(
  context: ReviewContext,
): Promise<ReviewOutcome> {
  const { store } = context;
  if (store.state.busy) return "nothing";
  const changed = store.state.pages.filter((page) => page.changes.size > 0);
  if (changed.length === 0) {
    store.dispatch(store.state.tr.setNotice({ code: "nothingToPublish" }));
    return "nothing";
  }
  const message = store.state.message.trim();
  if (message === "") {
    store.dispatch(store.state.tr.setNotice({ code: "reviewMessageNeeded" }));
    return "message";
  }
  const held = blockingProblems(store.state);
  if (held.length > 0) {
    store.dispatch(
      store.state.tr.setNotice({
        code: "notPublished",
        why: "heldBack",
        count: held.length,
      }),
    );
    return "held-back";
  }
  store.dispatch(
    store.state.tr.setActivity({ kind: "publishing", step: "uploading" })
      .setAlert(undefined),
  );
  try {
    for (const page of changed) await uploadImages(context, page.path);
    store.dispatch(
      store.state.tr.setActivity({ kind: "publishing", step: "saving" }),
    );
    const pages = store.state.pages.filter((page) => page.changes.size > 0)
      .map((page) => ({
        path: page.path,
        content: pageNow(page),
        version: page.version,
      }));
    await context.client.sendForReview({ message, pages });
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
  store.dispatch(store.state.tr.setActivity({ kind: "idle" }));
  const dropped = discardAll(store.state);
  if (dropped) store.dispatch(dropped);
  store.dispatch(
    store.state.tr.setMessage("").setNotice({
      code: "sentForReview",
      count: changed.length,
    }),
  );
  return "sent";
}
