/// <reference lib="dom" />
/**
 * An open review shown in place, as History shows a past version (the
 * same in-place view, `in_place.ts`): the review's values in their regions
 * on this page, the fields it changes outlined, editing off, and a banner
 * naming the review and its author and saying it is not published, with
 * the person's actions by role: Publish (a publisher), Close (a publisher,
 * or the review's author), Copy preview link, and Back to the page (also
 * Escape), which puts every region back exactly as the edit session has
 * it. Part of the lazily loaded part of the overlay: types only here, what
 * runs comes in the kit.
 *
 * @module
 */

import type { ReviewAnswer } from "../../lib/wire/review.ts";
import type { HistoryContext, HistoryKit } from "./history_types.ts";
import { showInPlace } from "./in_place.ts";

/** What the person chose in an open review. */
export type ReviewViewChoice = "publish" | "close" | "back";

/** Who looks at the review, and what the view is handed. */
export interface ReviewViewOptions {
  /** Who is logged in, and their role. */
  me: { id: string; role: "author" | "publisher" };
  /** The addresses of the review's pages not on this page. */
  elsewhere: readonly string[];
  /** Makes and copies a preview link: the sentence to say. */
  link(): Promise<string>;
}

/** The banner's buttons by role, each answering its choice. */
function actions(
  kit: HistoryKit,
  review: ReviewAnswer,
  options: ReviewViewOptions,
  act: (choice: ReviewViewChoice | "link") => void,
): HTMLElement {
  const { h, text } = kit;
  const named = { message: review.message };
  const button = (
    choice: ReviewViewChoice | "link",
    label: string,
    aria: string | undefined,
    primary = false,
  ) =>
    h("button", {
      type: "button",
      class: primary ? "primary" : undefined,
      "aria-label": aria,
      onclick: () => act(choice),
    }, label);
  const publisher = options.me.role === "publisher";
  return h(
    "div",
    { class: "actions" },
    button("back", text("reviewBack"), undefined),
    publisher &&
      button(
        "publish",
        text("reviewPublish"),
        text("reviewPublishNamed", named),
        true,
      ),
    (publisher || review.author.id === options.me.id) &&
      button("close", text("reviewClose"), text("reviewCloseNamed", named)),
    button(
      "link",
      text("reviewCopyLink"),
      text("reviewCopyLinkNamed", named),
    ),
  );
}

/** The note under the sentence: what is outlined, what is not shown here. */
function noteOf(
  context: HistoryContext,
  kit: HistoryKit,
  review: ReviewAnswer,
  options: ReviewViewOptions,
): string {
  const { text } = kit;
  const regions = context.regions();
  const unseen = kit.logic.unseenChanges(review.pages, regions)
    .filter((field) => regions.some((region) => region.path === field.path))
    .map((field) => context.label(field.path, field.pointer));
  return [
    text("reviewOpenNote"),
    unseen.length > 0 && text("reviewUnseen", { fields: unseen.join(", ") }),
    options.elsewhere.length > 0 &&
    text("reviewOtherPages", { pages: options.elsewhere.join(", ") }),
  ].filter(Boolean).join(" ");
}

/**
 * Shows a review in place on this page until the person chooses.
 *
 * @param context the overlay's root, store, regions and dock
 * @param kit the overlay's code the view uses
 * @param review the review, whole
 * @param options who looks, the pages elsewhere, the link maker
 * @returns the choice, once the page is back as the edit session has it
 */
export function showReview(
  context: HistoryContext,
  kit: HistoryKit,
  review: ReviewAnswer,
  options: ReviewViewOptions,
): Promise<ReviewViewChoice> {
  const { h, text } = kit;
  const pages = new Map(review.pages.map((page) => [page.path, page]));
  const regions = context.regions().filter((region) => pages.has(region.path));
  const sentence = h(
    "p",
    {
      class: "sentence",
      id: "inpage-preview-sentence",
      tabindex: "-1",
    },
    text("previewBanner", {
      message: review.message,
      author: review.author.name,
    }),
  );
  const note = h(
    "p",
    { class: "note", role: "status" },
    noteOf(context, kit, review, options),
  );
  return new Promise((resolve) => {
    let chosen: ReviewViewChoice = "back";
    const act = (choice: ReviewViewChoice | "link") => {
      if (choice !== "link") {
        chosen = choice;
        return end?.();
      }
      note.textContent = "";
      void options.link().then((said) => note.textContent = said);
    };
    const banner = h(
      "div",
      {
        class: "preview review",
        role: "region",
        "aria-labelledby": sentence.id,
      },
      sentence,
      actions(kit, review, options, act),
      note,
    );
    const { store } = context;
    const end = showInPlace(context, kit, {
      regions,
      fields: () =>
        regions.map((region) =>
          kit.logic.reviewFields(
            [region],
            pages.get(region.path)!,
            (pointer) => store.state.valueOf(region.path, pointer),
          )[0]!
        ),
      banner,
      focus: sentence,
      left: () => resolve(chosen),
    });
    if (!end) resolve("back");
  });
}
