/**
 * What Send for review carries of the pages this tab changed and no longer
 * shows: each kept draft (`drafts.ts`) against its page file read again.
 * A draft made against the version read is taken as it is; one made
 * against an older version is rebased field by field, as a draft offered
 * back is; a field changed on both sides (or whose place is gone) holds
 * the page back (`clash`: the person opens it to settle it); the same
 * checks as before a publish hold it back too (`problems`); a draft the
 * page already holds offers nothing (`done`: its own publish, or the same
 * edits made again). Pure functions: the reading and sending are the
 * review flow's (`../flows/review.ts`).
 *
 * @example
 * ```ts
 * import { carryDraft } from "./carry.ts";
 *
 * const draft = {
 *   savedAt: 1,
 *   version: "v1",
 *   address: "/en/about/",
 *   base: new Map([["/title", "About"]]),
 *   changes: new Map([["/title", "About us"]]),
 * };
 * const read = { version: "v2", page: { title: "About", lead: "New" } };
 * const carried = carryDraft("about.json", read, draft);
 * console.assert(carried.kind === "send");
 * console.assert(carried.kind === "send" && carried.page.version === "v2");
 * ```
 *
 * @module
 */

import { type Draft, draftPage } from "./drafts.ts";
import { valueAt } from "./fields.ts";
import { compareFields, type MergeField, resolveFields } from "./merge.ts";
import type { PageState } from "./page.ts";
import { blockingProblems, type Problem, strayChanges } from "./problems.ts";
import { EditState } from "./state.ts";
import { type PageObject, sameValue } from "./values.ts";

/** A page file as read again: its version and content. */
export interface ReadPage {
  /** The version read. */
  readonly version: string;
  /** The page object read. */
  readonly page: PageObject;
}

/** What a draft of a page not shown gives a review. */
export type Carried =
  /** The page, rebased and checked, to send. */
  | { readonly kind: "send"; readonly page: PageState }
  /** Fields changed on both sides: the page waits for the person. */
  | { readonly kind: "clash"; readonly fields: readonly MergeField[] }
  /** Fields the page rules would refuse: the page waits for the person. */
  | { readonly kind: "problems"; readonly problems: readonly Problem[] }
  /** The page already holds every value: nothing to send. */
  | { readonly kind: "done" };

/**
 * A draft of a page not shown, against its page file read again.
 *
 * @param path the page path
 * @param read the page file as read now
 * @param draft this tab's draft of it
 * @returns what the review carries of it
 */
export function carryDraft(
  path: string,
  read: ReadPage,
  draft: Draft,
): Carried {
  let changes: ReadonlyMap<string, unknown> = draft.changes;
  if (draft.version !== read.version) {
    const fields = compareFields(draft.base, draft.changes, read.page);
    const resolved = resolveFields(fields);
    if (!resolved.ok || fields.some((field) => field.clash)) {
      return {
        kind: "clash",
        fields: fields.filter((field) => field.clash),
      };
    }
    changes = resolved.changes;
  }
  const held = [...changes].every(([pointer, value]) =>
    sameValue(valueAt(read.page, pointer), value)
  );
  if (held) return { kind: "done" };
  const page = draftPage(path, read.version, read.page, draft, changes);
  const problems = pageProblems(page);
  if (problems.length > 0) return { kind: "problems", problems };
  return { kind: "send", page };
}

/**
 * The problems that hold a page back, as a publish checks them: those the
 * overlay finds itself, and changes naming nothing in the file.
 *
 * @param page the page
 * @returns the problems
 */
function pageProblems(page: PageState): Problem[] {
  const empty = EditState.create();
  const state = empty.apply(empty.tr.addPage(page));
  return [...blockingProblems(state), ...strayChanges(state)];
}
