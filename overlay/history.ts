/// <reference lib="dom" />
/**
 * Who is logged in, and the door to the part of the overlay that shows
 * another version of the page in place: the History panel
 * (`views/history_panel.ts`: the list of a page's publishes, the preview of
 * a past version in place, restore) and an open review
 * (`views/review_view.ts`). It is a lazily loaded part
 * (`views/in_place_part.ts`), imported when the person first presses
 * History or opens a review.
 *
 * @module
 */

import { type Client, EditorError } from "../client/mod.ts";
import { INPAGE_ATTRIBUTES } from "../lib/wire/regions.ts";
import { hasEditCookie } from "./state/login_state.ts";
import { plural, text } from "./i18n/mod.ts";
import { dateTime, failureSentence } from "./messages.ts";
import type { HistoryContext, HistoryKit } from "./views/history_types.ts";
import {
  addEntries,
  differingFields,
  previewFields,
  restoreField,
  restorePage,
} from "./state/versions.ts";
import { restoreFields } from "./state/commands.ts";
import { reviewFields, unseenChanges } from "./preview/plan.ts";
import type { ReviewAnswer } from "../lib/wire/review.ts";
import { h, showDialog } from "./ui.ts";
import { bannerWords } from "./views/words.ts";

/**
 * Shows "Logged in as …" in an element, asking the server only when the
 * readable `editor_edit` cookie says there is a session (so a visitor or a
 * logged-out editor never causes a 401).
 *
 * @param client the browser client
 * @param element where the words go; hidden when unknown
 */
export async function showEditor(
  client: Pick<Client, "session">,
  element: HTMLElement,
  role?: (role: "author" | "publisher") => void,
): Promise<void> {
  if (!hasEditCookie(document.cookie)) return;
  try {
    const { editor } = await client.session();
    element.textContent = text("loggedInAs", { name: editor.name });
    element.hidden = false;
    role?.(editor.role ?? "publisher");
  } catch {
    element.hidden = true;
    // Unknown: Publish shows, and the server refuses an author's (403).
    role?.("publisher");
  }
}

export type { HistoryContext, HistoryKit };

/**
 * What the panel uses of the overlay's every-editor code, handed to it so
 * that its part imports nothing at run time and the bundle makes no chunk
 * shared between them (every editor's overlay stays one file).
 */
const KIT: HistoryKit = {
  h,
  showDialog,
  text,
  plural,
  dateTime,
  bannerWords,
  logic: {
    addEntries,
    differingFields,
    previewFields,
    restoreField,
    restoreFields,
    restorePage,
    reviewFields,
    unseenChanges,
  },
  /** The sentence for a failure, or `fallback` for one not the client's. */
  sentence: (error: unknown, fallback: string): string =>
    error instanceof EditorError ? failureSentence(error) : fallback,
  attributes: INPAGE_ATTRIBUTES,
};

type Part = typeof import("./views/in_place_part.ts");
let part: Promise<Part> | undefined;

/** The part, loaded once; none (said in the bar) when it cannot be. */
async function loadPart(context: HistoryContext): Promise<Part | undefined> {
  try {
    part ??= import("./views/in_place_part.ts");
    return await part;
  } catch {
    part = undefined;
    const { store } = context;
    store.dispatch(store.state.tr.setAlert({ code: "historyLoadFailed" }));
    return undefined;
  }
}

/**
 * Opens the History panel, loading its part first if needed.
 *
 * @param context the overlay's root, client, store and regions
 * @returns when the panel (or the preview it opened) is shown
 */
export async function openHistory(context: HistoryContext): Promise<void> {
  await (await loadPart(context))?.showHistory(context, KIT);
}

/** What the person chose in an open review. */
export type ReviewViewChoice =
  import("./views/in_place_part.ts").ReviewViewChoice;

/**
 * Shows a review in place on this page (its part loaded first if needed)
 * until the person chooses.
 *
 * @param context the overlay's root, client, store and regions
 * @param review the review, whole
 * @param options who looks, the review's pages elsewhere, the link maker
 * @returns the choice (`back` when the part could not be loaded)
 */
export async function openReviewInPlace(
  context: HistoryContext,
  review: ReviewAnswer,
  options: import("./views/in_place_part.ts").ReviewViewOptions,
): Promise<ReviewViewChoice> {
  const loaded = await loadPart(context);
  return loaded
    ? await loaded.showReview(context, KIT, review, options)
    : "back";
}
