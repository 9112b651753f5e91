/**
 * The problems of the edit state, computed from it by pure functions: what
 * the overlay sees itself before any publish (tag-like text in a
 * plain-text field, a link the link rule refuses in rich text or in a link
 * object) and what the server refused at the last publish, until the field
 * changes. Fields are those the page shows now: a list item removed, or an
 * "Add after" undone, takes its fields and their problems with it.
 *
 * @example
 * ```ts
 * import { EditState } from "./state.ts";
 * import { createPage } from "./page.ts";
 * import { fieldsFrom } from "./fields.ts";
 * import { problemsOf } from "./problems.ts";
 *
 * let state = EditState.create();
 * const fields = fieldsFrom([["/title", "text"]]);
 * state = state.apply(state.tr.addPage(createPage("a.json", "v1", { title: "A" }, fields)));
 * state = state.apply(state.tr.change("a.json", "/title", "A <b>"));
 * console.assert(problemsOf(state)[0]?.reason === "markup");
 * ```
 *
 * @module
 */

import {
  linkProblem,
  linksIn,
  looksLikeMarkup,
  refusedHrefs,
} from "./checks.ts";
import {
  createsKey,
  expandFields,
  fieldAt,
  type FieldKind,
  valueAt,
} from "./fields.ts";
import { hasChangeAt, pageNow, type PageState } from "./page.ts";
import type { EditState } from "./state.ts";

/** A field the page rules refuse, or would refuse. */
export interface Problem {
  /** The page path. */
  readonly path: string;
  /** The JSON Pointer the problem is at. */
  readonly at: string;
  /** The stable reason (`markup`, `link`, `empty`, `missing`, …). */
  readonly reason: string;
  /** The kind of the field holding it, when a field does. */
  readonly kind?: FieldKind | undefined;
  /** For a refused link in rich text: its address. */
  readonly href?: string | undefined;
  /** Whether the overlay found it itself (rather than the server). */
  readonly local: boolean;
}

/** The problems of each page, computed once per page value. */
const cache = new WeakMap<PageState, readonly Problem[]>();

/**
 * Every problem of every page, in the order of the pages; each at most
 * once (by place, reason and address).
 *
 * @param state the edit state
 * @returns the problems
 */
export function problemsOf(state: EditState): readonly Problem[] {
  return state.pages.flatMap((page) => {
    let found = cache.get(page);
    if (!found) {
      found = pageProblems(page);
      cache.set(page, found);
    }
    return found;
  });
}

function pageProblems(page: PageState): readonly Problem[] {
  const now = pageNow(page);
  const found: Problem[] = [];
  const add = (problem: Problem) => {
    if (
      !found.some((other) =>
        other.at === problem.at && other.reason === problem.reason &&
        other.href === problem.href
      )
    ) found.push(problem);
  };
  const kindAt = (at: string) => fieldAt(page.fields, now, at)?.kind;
  for (const [pointer, kind] of expandFields(page.fields, now)) {
    const value = valueAt(now, pointer);
    if (typeof value !== "string") continue;
    const at = { path: page.path, at: pointer, kind, local: true };
    if (kind === "text" && looksLikeMarkup(value)) {
      add({ ...at, reason: "markup" });
    } else if (kind === "html") {
      for (const href of linksIn(value)) {
        if (linkProblem(href)) add({ ...at, reason: "link", href });
      }
    }
  }
  for (const at of refusedHrefs(now)) {
    add({ path: page.path, at, reason: "link", kind: kindAt(at), local: true });
  }
  for (const refusal of page.refused) {
    add({
      path: page.path,
      ...refusal,
      kind: kindAt(refusal.at),
      local: false,
    });
  }
  return found;
}

/**
 * The problems the overlay found itself, which hold a publish back: the
 * server would refuse the page for them.
 *
 * @param state the edit state
 * @returns those problems
 */
export function blockingProblems(state: EditState): readonly Problem[] {
  return problemsOf(state).filter((problem) => problem.local);
}

/**
 * Text fields that held words and now hold none (a heading or title
 * emptied to nothing): worth a question before publishing.
 *
 * @param state the edit state
 * @returns one problem per such field, with reason `empty`
 */
export function emptiedFields(state: EditState): Problem[] {
  const found: Problem[] = [];
  for (const page of state.pages) {
    const now = pageNow(page);
    for (const [pointer, kind] of expandFields(page.fields, now)) {
      if (kind !== "text" || !hasChangeAt(page, pointer)) continue;
      const before = valueAt(page.base, pointer);
      const value = valueAt(now, pointer);
      if (
        typeof before === "string" && before.trim() !== "" &&
        typeof value === "string" && value.trim() === ""
      ) {
        found.push({
          path: page.path,
          at: pointer,
          reason: "empty",
          kind,
          local: true,
        });
      }
    }
  }
  return found;
}

/**
 * The changes that would write a key the page file does not hold, and
 * were not made to create one: a publish refuses them all.
 *
 * @param state the edit state
 * @returns one problem per such change, with reason `missing`
 */
export function strayChanges(state: EditState): Problem[] {
  const found: Problem[] = [];
  for (const page of state.pages) {
    for (const pointer of page.changes.keys()) {
      if (page.newKeys.has(pointer) || !createsKey(page.base, pointer)) {
        continue;
      }
      found.push({
        path: page.path,
        at: pointer,
        reason: "missing",
        local: true,
      });
    }
  }
  return found;
}
