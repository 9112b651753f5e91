/// <reference lib="dom" />
/**
 * What the Reviews panel's choices do, as the controller runs them: open a
 * review in place (its page here, or an offer to go to it), publish one,
 * close one, schedule one, copy its preview link; the bar says which.
 *
 * A publish that clashes (a 409 listing the fields changed on both sides)
 * is settled with the same per-field view as a publish of this tab: each
 * of the review's pages is read as published now, the review's value of
 * each clashing field is shown against the value now, and the person's
 * choices go back to the same publish (`settle`, with the versions they
 * were made against), which publishes the review with them in one commit,
 * its images with it, and closes it; a page published again meanwhile is
 * a 409 again, asked anew.
 *
 * @module
 */

import { EditorError } from "../client/mod.ts";
import { pageAddress } from "../lib/wire/names.ts";
import type {
  ReviewAnswer,
  ReviewField,
  ReviewSettle,
} from "../lib/wire/review.ts";
import { type ActionContext, inPlaceContext } from "./actions.ts";
import { openReviewInPlace } from "./history.ts";
import { text } from "./i18n/mod.ts";
import { reviewMergeFields } from "./state/review_merge.ts";
import type { PageObject } from "./state/values.ts";
import { h, messageDialog, showDialog } from "./ui.ts";
import { askConflict } from "./views/conflict_dialog.ts";
import { type ReviewChoice, showReviews } from "./views/reviews_panel.ts";

/** How many times a clash is asked about before the failure is said. */
const SETTLE_ATTEMPTS = 3;

/** Who is logged in, and their role. */
type Me = { id: string; role: "author" | "publisher" };

/** A field's name, or its pointer while no page is mounted. */
const labelOf = (context: ActionContext) => (path: string, at: string) =>
  context.page()?.label(path, at) ?? at;

/** A failure said in the bar. */
function alert(context: ActionContext, error: unknown): void {
  const { store } = context;
  store.dispatch(
    store.state.tr.setAlert(
      error instanceof EditorError
        ? { code: "failure", error: error.code }
        : { code: "somethingWrong" },
    ),
  );
}

/** A question with one sentence, Cancel and `go`: whether `go` was chosen. */
async function ask(
  context: ActionContext,
  title: string,
  sentence: string,
  go: string,
): Promise<boolean> {
  return await showDialog(
    context.shell.root,
    messageDialog(title, [h("p", {}, sentence)], [
      { label: text("cancel"), value: "cancel" },
      { label: go, value: "go", kind: "primary" },
    ]),
  ) === "go";
}

/**
 * The Reviews panel, then what was chosen in it: a review opened in place,
 * published, closed, scheduled, or its preview link copied.
 *
 * @param context what the actions work with
 */
export async function reviewsAction(context: ActionContext): Promise<void> {
  const { client, shell } = context;
  try {
    const [{ reviews }, { editor }] = await Promise.all([
      client.reviews(),
      client.session(),
    ]);
    const me = { id: editor.id, role: editor.role ?? "publisher" } as const;
    const choice = await showReviews(shell.root, reviews, me);
    if (choice.action === "open") await openAction(context, choice.id, me);
    else if (choice.action !== "none") {
      const review = reviews.find(({ id }) => id === choice.id);
      await act(context, choice, review?.message ?? "", review?.pages ?? []);
    }
  } catch (error) {
    alert(context, error);
  }
  context.returnFocus();
}

/** A choice of the panel or of an open review, done. */
async function act(
  context: ActionContext,
  choice: Exclude<ReviewChoice, { action: "none" | "open" }>,
  message: string,
  paths: readonly string[],
): Promise<void> {
  const { store, client } = context;
  const done = (what: "closed" | "scheduled" | "linkCopied", at?: number) =>
    store.dispatch(
      store.state.tr.setNotice({ code: "review", done: what, at }),
    );
  switch (choice.action) {
    case "publish":
      return await publishReview(context, choice.id, message, paths);
    case "close":
      await client.closeReview(choice.id);
      return done("closed");
    case "schedule":
      await client.scheduleReview(choice.id, choice.at);
      return done("scheduled", choice.at.getTime());
    case "link":
      if (await copyLink(context, choice.id)) done("linkCopied");
  }
}

/**
 * Opens a review in place when a page of it is on this page; otherwise
 * offers to go to its first page's address.
 */
async function openAction(
  context: ActionContext,
  id: string,
  me: Me,
): Promise<void> {
  const { store } = context;
  let review: ReviewAnswer;
  try {
    review = await context.client.review(id);
  } catch (error) {
    return alert(context, error);
  }
  const here = review.pages.filter((page) => store.state.page(page.path));
  const elsewhere = review.pages.filter((page) => !store.state.page(page.path))
    .map((page) => pageAddress(page.path));
  if (here.length === 0) return await goToReview(context, id, elsewhere);
  const choice = await openReviewInPlace(
    inPlaceContext(context),
    review,
    {
      me,
      elsewhere,
      link: async () =>
        await copyLink(context, id) ? text("reviewLinkCopied") : "",
    },
  );
  if (choice === "back") return;
  await act(
    context,
    { action: choice, id },
    review.message,
    review.pages.map(({ path }) => path),
  );
}

/** The name of the address parameter that opens a review there. */
const OPEN_PARAMETER = "inpage-review";

/**
 * The review is on other pages: go to the first one, editing, where it
 * opens in place (the address names it: {@linkcode openNamedReview}).
 */
async function goToReview(
  context: ActionContext,
  id: string,
  addresses: readonly string[],
): Promise<void> {
  const first = addresses[0];
  if (first === undefined) return;
  const go = await ask(
    context,
    text("reviewElsewhereTitle"),
    text("reviewElsewhere", { pages: addresses.join(", ") }),
    text("reviewGoThere", { page: first }),
  );
  if (!go) return;
  const url = new URL(first, location.href);
  url.searchParams.set("edit", "");
  url.searchParams.set(OPEN_PARAMETER, id);
  location.assign(url.href);
}

/**
 * Opens the review the address names (`?inpage-review=ID`, left by Go to
 * on another page), once the page is ready to edit; the parameter leaves
 * the address first, so a reload shows the page as it is edited.
 *
 * @param context what the actions work with
 */
export async function openNamedReview(context: ActionContext): Promise<void> {
  const url = new URL(location.href);
  const id = url.searchParams.get(OPEN_PARAMETER);
  if (id === null) return;
  url.searchParams.delete(OPEN_PARAMETER);
  history.replaceState(history.state, "", url.href);
  try {
    const { editor } = await context.client.session();
    await openAction(context, id, {
      id: editor.id,
      role: editor.role ?? "publisher",
    });
  } catch (error) {
    alert(context, error);
  }
}

/**
 * Publishes a review; a clash goes to the per-field view, then to the
 * same publish with the choices made (asked again while pages move).
 */
async function publishReview(
  context: ActionContext,
  id: string,
  message: string,
  paths: readonly string[],
): Promise<void> {
  const { store, client } = context;
  let settle: ReviewSettle | undefined;
  for (let attempt = 0;; attempt++) {
    try {
      await client.publishReview(id, settle);
      break;
    } catch (error) {
      if (
        !(error instanceof EditorError && error.code === "conflict") ||
        attempt >= SETTLE_ATTEMPTS
      ) {
        throw error;
      }
      settle = await settleClash(context, id, error.fields ?? []);
      if (!settle) return;
    }
  }
  // Said as a publish, so that the page loaded again says it too.
  store.dispatch(store.state.tr.setNotice({
    code: "published",
    published: { message, at: Date.now(), paths: [...paths] },
  }));
  location.reload();
}

/**
 * A clash at a review's publish: each page read now, the review's fields
 * compared with it, the person asked page by page; the choices, with the
 * versions they were made against (none: cancelled).
 */
async function settleClash(
  context: ActionContext,
  id: string,
  clashes: readonly ReviewField[],
): Promise<ReviewSettle | undefined> {
  const { client } = context;
  const label = labelOf(context);
  const review = await client.review(id);
  const settle: ReviewSettle = { versions: {}, keep: [] };
  for (const page of review.pages) {
    const listed = new Set(
      clashes.filter((field) => field.path === page.path).map((field) =>
        field.pointer
      ),
    );
    if (listed.size === 0) continue;
    const read = await client.read(page.path);
    const fields = reviewMergeFields(
      JSON.parse(page.content) as PageObject,
      page.changed,
      listed,
      JSON.parse(read.content) as PageObject,
    );
    const answer = await askConflict(
      context.shell.root,
      fields,
      (at) => label(page.path, at),
      "review",
    );
    if (answer.action !== "keep") return undefined;
    settle.versions[page.path] = read.version;
    for (const field of fields.filter((field) => field.clash)) {
      const mine = !field.gone && answer.choices.get(field.pointer) === "mine";
      settle.keep.push({
        path: page.path,
        pointer: field.pointer,
        side: mine ? "review" : "site",
      });
    }
  }
  return settle;
}

/** A preview link of a review copied (true), or shown when it cannot be. */
async function copyLink(context: ActionContext, id: string): Promise<boolean> {
  const page = location.pathname;
  const { url } = await context.client.reviewLink(id, 72, page);
  const full = new URL(url, location.href).href;
  try {
    await navigator.clipboard.writeText(full);
    return true;
  } catch {
    const field = h("input", {
      type: "text",
      readonly: true,
      value: full,
      "aria-label": text("reviewLinkShown"),
    });
    await showDialog(
      context.shell.root,
      messageDialog(text("reviewCopyLink"), [
        h("p", {}, text("reviewLinkShown")),
        field,
      ], [{ label: text("reviewsClose"), value: "ok", kind: "primary" }]),
    );
    return false;
  }
}
