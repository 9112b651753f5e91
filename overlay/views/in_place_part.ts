/**
 * The lazily loaded part of the overlay that shows another version of the
 * page in place: the History panel (a past version) and an open review.
 * The two share the in-place view (`in_place.ts`), so they are one part,
 * imported when the person first presses History or opens a review.
 *
 * @module
 */

export { showHistory } from "./history_panel.ts";
export { showReview } from "./review_view.ts";
export type { ReviewViewChoice, ReviewViewOptions } from "./review_view.ts";
