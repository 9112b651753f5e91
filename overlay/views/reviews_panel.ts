/// <reference lib="dom" />
/**
 * The Reviews panel: the open reviews (message, author, when, its pages by
 * their addresses on the site, each file's path in its title, the time a
 * schedule publishes one), each with Open (the review shown in place on
 * its page) and the controls of the person's role: a publisher gets
 * Publish, Close, Schedule (a date and time) and Copy preview link; an
 * author gets Close on their own reviews and Copy preview link. It
 * answers what was chosen; `review_actions.ts` does it.
 *
 * @module
 */

import { pageAddress } from "../../lib/wire/names.ts";
import type { ReviewSummary } from "../../lib/wire/review.ts";
import { language, text } from "../i18n/mod.ts";
import { h, messageDialog, showDialog } from "../ui.ts";

/** What the person chose in the panel. */
export type ReviewChoice =
  | { action: "open" | "publish" | "close" | "link"; id: string }
  | { action: "schedule"; id: string; at: Date }
  | { action: "none" };

const when = (iso: string) => new Date(iso).toLocaleString(language());

/** One review of the list, with its controls. */
function entry(
  review: ReviewSummary,
  me: { id: string; role: "author" | "publisher" },
  close: (value: string) => void,
  times: Map<string, HTMLInputElement>,
): HTMLElement {
  const publisher = me.role === "publisher";
  const named = { message: review.message };
  const act = (action: string, label: string, aria: string) =>
    h("button", {
      type: "button",
      "aria-label": aria,
      onclick: () => close(`${action}:${review.id}`),
    }, label);
  const controls: HTMLElement[] = [
    act("open", text("reviewOpen"), text("reviewOpenNamed", named)),
  ];
  if (publisher) {
    controls.push(
      act("publish", text("reviewPublish"), text("reviewPublishNamed", named)),
    );
  }
  if (publisher || review.author.id === me.id) {
    controls.push(
      act("close", text("reviewClose"), text("reviewCloseNamed", named)),
    );
  }
  controls.push(
    act("link", text("reviewCopyLink"), text("reviewCopyLinkNamed", named)),
  );
  if (publisher) {
    const input = h("input", {
      type: "datetime-local",
      "aria-label": `${text("reviewScheduleAt")} — ${review.message}`,
    });
    times.set(review.id, input);
    controls.push(
      h("label", {}, `${text("reviewScheduleAt")} `, input),
      act(
        "schedule",
        text("reviewSchedule"),
        text("reviewScheduleNamed", named),
      ),
    );
  }
  return h(
    "li",
    { class: "review" },
    h("strong", {}, review.message),
    h(
      "p",
      {},
      text("reviewByWhen", {
        author: review.author.name,
        when: when(review.created),
      }),
    ),
    pagesLine(review.pages),
    ...(review.scheduled
      ? [
        h(
          "p",
          {},
          text("reviewScheduledFor", { when: when(review.scheduled) }),
        ),
      ]
      : []),
    ...(review.failed
      ? [h(
        "p",
        { class: "error" },
        text("reviewFailed", {
          reason: review.failed.reason,
        }),
      )]
      : []),
    h("div", { class: "actions" }, ...controls),
  );
}

/** The pages of a review by their addresses, each file's path in its title. */
function pagesLine(paths: readonly string[]): HTMLElement {
  const [before, after = ""] = text("reviewPagesList").split("{pages}");
  const names = paths.flatMap((path, index) => [
    ...(index > 0 ? [", "] : []),
    h("span", { class: "address", title: path }, pageAddress(path)),
  ]);
  return h("p", { class: "pages" }, before ?? "", ...names, after);
}

/**
 * Shows the open reviews and answers what the person chose.
 *
 * @param root the overlay's shadow root
 * @param reviews the open reviews
 * @param me who is logged in, and their role
 * @returns the choice
 */
export async function showReviews(
  root: ShadowRoot,
  reviews: readonly ReviewSummary[],
  me: { id: string; role: "author" | "publisher" },
): Promise<ReviewChoice> {
  const times = new Map<string, HTMLInputElement>();
  const holder: { dialog?: HTMLDialogElement } = {};
  const close = (value: string) => holder.dialog?.close(value);
  const list = reviews.length === 0 ? h("p", {}, text("reviewsNone")) : h(
    "ul",
    { class: "reviews" },
    ...reviews.map((review) => entry(review, me, close, times)),
  );
  // The first review's first action, not its date field: a person opening
  // the list reads it before choosing a time.
  list.querySelector("button")?.setAttribute("data-first-focus", "");
  const dialog = messageDialog(text("reviewsTitle"), [list], [
    { label: text("reviewsClose"), value: "cancel" },
  ]);
  holder.dialog = dialog;
  const answer = await showDialog(root, dialog);
  const [action, id = ""] = answer.split(":");
  if (action === "schedule") {
    const at = new Date(times.get(id)?.value ?? "");
    return Number.isNaN(at.getTime())
      ? { action: "none" }
      : { action: "schedule", id, at };
  }
  if (
    action === "open" || action === "publish" || action === "close" ||
    action === "link"
  ) {
    return { action, id };
  }
  return { action: "none" };
}
