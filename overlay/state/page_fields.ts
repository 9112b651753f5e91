/**
 * The Page panel's choices, apart from the DOM: which fields it offers for
 * a page, and the input each value gets (see `views/page_panel.ts`).
 *
 * @example
 * ```ts
 * import { inputKind, panelFields } from "./page_fields.ts";
 *
 * console.assert(inputKind("2026-11-25") === "date");
 * console.assert(panelFields(null, { title: "T", id: "x" }, []).length === 1);
 * ```
 *
 * @module
 */

import { escapeToken } from "../../lib/wire/pointer.ts";
import { isWithin } from "./pointer.ts";

/** A date as a page file holds it. */
const DATE = /^\d{4}-\d{2}-\d{2}$/;

/**
 * The fields the panel offers for a page: those named, or the top-level
 * scalars no region shows, except `id`.
 *
 * @param named the `data-inpage-fields` attribute, if any
 * @param page the page as read
 * @param shown the pointers regions, lists and links show
 * @returns the fields' pointers
 */
export function panelFields(
  named: string | null,
  page: Record<string, unknown>,
  shown: readonly string[],
): string[] {
  if (named !== null) return named.split(/\s+/).filter((at) => at !== "");
  return Object.entries(page).filter(([key, value]) =>
    key !== "id" &&
    (typeof value === "string" || typeof value === "number" ||
      typeof value === "boolean") &&
    !shown.some((pointer) => isWithin(pointer, `/${escapeToken(key)}`))
  ).map(([key]) => `/${escapeToken(key)}`);
}

/** A page container's fields, and where it stands on the page. */
export interface PanelSource {
  /** The page path. */
  path: string;
  /** Its fields, by JSON Pointer. */
  fields: string[];
  /** Whether the container names its fields (`data-inpage-fields`). */
  named: boolean;
  /** Whether the container is in the page's `<main>` (or is it). */
  inMain: boolean;
}

/** The fields of one page file, for the panel. */
export interface PanelGroup {
  /** The page path. */
  path: string;
  /** Its fields, by JSON Pointer, each once. */
  fields: string[];
  /** Whether it is the page's own file (the others are named). */
  own: boolean;
}

/**
 * The panel's fields, by page file: the page's own file first, then the
 * others (a site-wide file nested around the page) each once, in the
 * order of their containers; files without fields are left out. The
 * page's own file is the first container naming its fields, else the
 * first in the page's `<main>`, else the first.
 *
 * @param sources each page container's fields, in document order
 * @returns the groups, the own file's first
 * @example
 * ```ts
 * import { panelGroups } from "./page_fields.ts";
 *
 * const groups = panelGroups([
 *   { path: "site.json", fields: ["/footer"], named: false, inMain: false },
 *   { path: "post.json", fields: ["/date"], named: true, inMain: true },
 * ]);
 * console.assert(groups[0]?.path === "post.json" && groups[0].own);
 * ```
 */
export function panelGroups(sources: readonly PanelSource[]): PanelGroup[] {
  const found = [
    sources.findIndex((source) => source.named),
    sources.findIndex((source) => source.inMain),
  ].find((index) => index >= 0);
  const own = sources[found ?? 0]?.path;
  const groups = new Map<string, PanelGroup>();
  if (own !== undefined) groups.set(own, { path: own, fields: [], own: true });
  for (const { path, fields } of sources) {
    const group = groups.get(path) ?? { path, fields: [], own: false };
    groups.set(path, group);
    for (const at of fields) {
      if (!group.fields.includes(at)) group.fields.push(at);
    }
  }
  return [...groups.values()].filter((group) => group.fields.length > 0);
}

/** The kind of input a value gets. */
export type InputKind = "text" | "long" | "switch" | "number" | "date";

/**
 * The input fitting a JSON value: a switch for a boolean, a number, a date
 * for `YYYY-MM-DD`, a text area for more than 80 characters or a newline
 * (in the value as read or now: a long description shortened keeps its
 * text area), else a line of text.
 *
 * @param value the field's value now
 * @param read the field's value as the page file held it
 * @returns its kind of input
 */
export function inputKind(value: unknown, read: unknown = value): InputKind {
  if (typeof value === "boolean") return "switch";
  if (typeof value === "number") return "number";
  if (typeof value === "string" && DATE.test(value)) return "date";
  const long = (text: unknown) =>
    typeof text === "string" && (text.length > 80 || text.includes("\n"));
  return long(value) || long(read) ? "long" : "text";
}
