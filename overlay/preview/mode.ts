/// <reference lib="dom" />
/**
 * The preview of a review (`?inpage-preview=TOKEN`), a small mode of its
 * own that the loader imports instead of the overlay: no login, no
 * editing, no session. It reads the review the token names
 * (`GET /api/reviews?token=…`, which needs no session), puts the review's
 * values into the regions of the live page (rich text through the page
 * rules' own allowlist, as the overlay does), outlines the fields the
 * review changes, and shows a banner naming the review and its author and
 * saying it is not published. An altered, expired or closed link leaves
 * the published page as it is, under a banner saying so.
 *
 * It is bundled apart from the overlay (`preview-{hash}.js`): a visitor
 * with a link loads neither the overlay nor its editor.
 *
 * @module
 */

import { createClient, EditorError } from "../../client/mod.ts";
import type { ReviewAnswer } from "../../lib/wire/review.ts";
import { INPAGE_ATTRIBUTES as A } from "../../lib/wire/regions.ts";
import { allowedMarkup } from "../allowed_markup.ts";
import { text, useDocumentLanguage } from "../i18n/mod.ts";
import { showBanner } from "./banner.ts";
import { type PreviewEntry, previewPlan, type PreviewRegion } from "./plan.ts";

/** The kinds of region a preview reads, by their attribute. */
const KINDS = [
  "text",
  "html",
  "markdown",
  "image",
  "link",
  "list",
  "item",
] as const;

/** The outline of a changed region, in the page (outside any shadow root). */
const OUTLINE = `[${A.differs}] { outline: 2px solid #6366f1 !important;
  outline-offset: 3px; background-color: rgba(99, 102, 241, .08); }`;

/** Every region of the page, with its element. */
function regionsOf(): { region: PreviewRegion; element: HTMLElement }[] {
  const found: { region: PreviewRegion; element: HTMLElement }[] = [];
  for (const kind of KINDS) {
    const attribute = A[kind];
    for (
      const element of document.querySelectorAll<HTMLElement>(
        `[${attribute}]`,
      )
    ) {
      const container = element.closest(`[${A.page}]`);
      const path = container?.getAttribute(A.page);
      if (!path) continue;
      const pointer = element.getAttribute(attribute) ?? "";
      found.push({ region: { path, kind, pointer }, element });
    }
  }
  return found;
}

/** Puts one value into its region, as the site would render it. */
function apply(entry: PreviewEntry, element: HTMLElement): void {
  const { kind } = entry.region;
  const value = entry.value;
  if (kind === "text" && typeof value === "string") {
    element.textContent = value;
  } else if (kind === "html" && typeof value === "string") {
    element.innerHTML = allowedMarkup(value);
  } else if (kind === "image" && typeof value === "object" && value) {
    const alt = (value as Record<string, unknown>).alt;
    if (typeof alt === "string") element.setAttribute("alt", alt);
  }
  // Markdown, links and lists show as published: the site renders them.
  if (entry.changed) element.setAttribute(A.differs, "");
}

/** The banner of a review shown. */
function reviewBanner(review: ReviewAnswer): void {
  showBanner({
    label: text("previewLabel"),
    title: text("previewBanner", {
      message: review.message,
      author: review.author.name,
    }),
    lines: [text("previewBannerNote")],
  });
}

/**
 * Starts the preview of the review a token names.
 *
 * @param token the token of the preview link
 */
export async function start(token: string): Promise<void> {
  await useDocumentLanguage(document);
  const robots = document.createElement("meta");
  robots.name = "robots";
  robots.content = "noindex";
  document.head.append(robots);
  let review: ReviewAnswer;
  try {
    review = await createClient().previewReview(token);
  } catch (error) {
    const refused = error instanceof EditorError &&
      (error.status === 401 || error.status === 404 || error.status === 400);
    showBanner({
      label: text("previewLabel"),
      lines: [text(refused ? "previewInvalid" : "previewUnavailable")],
      refused: true,
    });
    return;
  }
  const regions = regionsOf();
  const plan = previewPlan(review.pages, regions.map(({ region }) => region));
  const style = document.createElement("style");
  style.textContent = OUTLINE;
  document.head.append(style);
  plan.forEach((entry) => {
    const found = regions.find(({ region }) => region === entry.region);
    if (found) apply(entry, found.element);
  });
  reviewBanner(review);
}
