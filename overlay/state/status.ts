/**
 * The bar's status, computed from the edit state: what is under way, else
 * the last outcome (until the next change), else the count of changes.
 * The views choose its words.
 *
 * @example
 * ```ts
 * import { EditState } from "./state.ts";
 * import { statusOf } from "./status.ts";
 *
 * console.assert(statusOf(EditState.create()).tone === "loading");
 * ```
 *
 * @module
 */

import { changeCount } from "./count.ts";
import type { Notice, Tone } from "./notices.ts";
import type { EditState } from "./state.ts";

/** The bar's status, as data. */
export type Status =
  /** The pages are being read. */
  | { readonly tone: "loading"; readonly code: "loading" }
  /** A publish is under way. */
  | { readonly tone: "busy"; readonly code: "uploading" | "publishing" }
  /** The last outcome. */
  | { readonly tone: Tone; readonly code: "notice"; readonly notice: Notice }
  /** Changes not published yet. */
  | { readonly tone: "dirty"; readonly code: "unsaved"; readonly count: number }
  /** Nothing changed. */
  | { readonly tone: "clean"; readonly code: "noChanges" };

/** The tone of each outcome. */
const TONES: Readonly<Record<Notice["code"], Tone>> = {
  published: "published",
  notPublished: "error",
  logInToEdit: "clean",
  loggedInAgain: "dirty",
  notReady: "error",
  noRegions: "error",
  nothingToPublish: "clean",
  nothingLeft: "clean",
  notLoggedOut: "error",
  sentForReview: "published",
  notSent: "error",
  reviewMessageNeeded: "error",
  review: "published",
};

/**
 * The status of a state.
 *
 * @param state the edit state
 * @returns its status
 */
export function statusOf(state: EditState): Status {
  const notice = state.notice;
  if (state.activity.kind === "publishing") {
    return {
      tone: "busy",
      code: state.activity.step === "uploading" ? "uploading" : "publishing",
    };
  }
  if (notice) return { tone: TONES[notice.code], code: "notice", notice };
  if (state.activity.kind === "loading") {
    return { tone: "loading", code: "loading" };
  }
  const count = changeCount(state);
  return count > 0
    ? { tone: "dirty", code: "unsaved", count }
    : { tone: "clean", code: "noChanges" };
}
