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
