/**
 * Whether a region's pointer names a value of its kind in the page file:
 * a text or rich-text region needs a string, an image region a media
 * object, a list region an array, a link object an object with `href`. A region that does not fit is never made
 * editable, and a publish never writes a key that the file did not hold
 * (a mistyped `/descripton` would otherwise add a stray key that no visitor
 * sees). List operations and the Page panel create keys on purpose: they
 * say so with `newKey` (see {@linkcode EditSession.change}).
 *
 * @example
 * ```ts
 * import { fieldFit } from "./fields.ts";
 *
 * const page = { description: "Hi", image: "/images/a.png" };
 * console.assert(fieldFit(page, "/description", "text") === undefined);
 * console.assert(fieldFit(page, "/descripton", "text")?.reason === "missing");
 * console.assert(fieldFit(page, "/image", "image")?.reason === "kind");
 * ```
 *
 * @module
 */

import { fieldName, getPointer } from "./pointer.ts";
import { parsePointer } from "../../lib/wire/pointer.ts";
import { plural, text, type TextKey } from "../i18n/mod.ts";

/** How a region shows a field. */
export type FieldKind = "text" | "html" | "image" | "list" | "link";

/** Why a region cannot be edited, with the sentence shown beside it. */
export interface FieldMisfit {
  /** `missing`: the file holds nothing there; `kind`: not its kind of value. */
  reason: "missing" | "kind";
  /** The sentence shown on the page and in the console. */
  sentence: string;
}

/** What each kind of region edits, in words (the table's key). */
const WANTED: Readonly<Record<FieldKind, TextKey>> = {
  text: "wantText",
  html: "wantRichText",
  image: "wantImage",
  list: "wantList",
  link: "wantLink",
};

/**
 * A JSON value's kind, in words.
 *
 * @param value the value
 * @returns `text (“…”)`, `a number`, `an object`, …
 */
export function describeValue(value: unknown): string {
  if (typeof value === "string") {
    const shown = value.length > 40 ? `${value.slice(0, 39)}…` : value;
    return text("heldText", { text: shown });
  }
  if (Array.isArray(value)) return text("heldList");
  if (value === null) return text("heldNull");
  if (typeof value === "object") return text("heldObject");
  if (typeof value === "number") return text("heldNumber");
  if (typeof value === "boolean") return text("heldBoolean");
  return text("heldNothing");
}

/**
 * Whether a value is what a kind of region edits.
 *
 * @param value the value the pointer names
 * @param kind the region's kind
 * @returns true when the region can edit it
 */
export function fitsKind(value: unknown, kind: FieldKind): boolean {
  switch (kind) {
    case "text":
    case "html":
      return typeof value === "string";
    case "image":
      return typeof value === "object" && value !== null &&
        !Array.isArray(value);
    case "list":
      return Array.isArray(value);
    case "link":
      return typeof value === "object" && value !== null &&
        !Array.isArray(value) &&
        typeof (value as { href?: unknown }).href === "string";
  }
}

/**
 * Why a region cannot edit the value its pointer names, or `undefined`
 * when it can.
 *
 * @param page the page object
 * @param pointer the region's JSON Pointer
 * @param kind the region's kind
 * @returns the misfit, if any
 */
export function fieldFit(
  page: unknown,
  pointer: string,
  kind: FieldKind,
): FieldMisfit | undefined {
  let value: unknown;
  try {
    value = getPointer(page, pointer);
  } catch {
    value = undefined;
  }
  if (value === undefined) {
    const tokens = safeTokens(pointer);
    const key = tokens.at(-1);
    const parent = pointer.slice(0, pointer.lastIndexOf("/"));
    return {
      reason: "missing",
      sentence: key === undefined
        ? text("regionNotPointer", { pointer })
        : parent === ""
        ? text("regionMissing", { key, pointer })
        : text("regionMissingIn", {
          parent: fieldName(parent),
          key,
          pointer,
        }),
    };
  }
  if (fitsKind(value, kind)) return undefined;
  return {
    reason: "kind",
    sentence: text("regionMismatch", {
      field: fieldName(pointer),
      value: describeValue(value),
      wanted: text(WANTED[kind]),
    }),
  };
}

function safeTokens(pointer: string): string[] {
  try {
    return parsePointer(pointer);
  } catch {
    return [];
  }
}

/**
 * Whether a change at `pointer` would write a key the page does not hold
 * (publish refuses such a change unless it was made to create one).
 *
 * @param page the page as read
 * @param pointer the change's pointer
 * @returns true when nothing is there yet
 */
export function createsKey(page: unknown, pointer: string): boolean {
  try {
    return getPointer(page, pointer) === undefined;
  } catch {
    return true;
  }
}

/** A region that cannot be edited, for the console's warning. */
export interface Misfit {
  /** The page path. */
  path: string;
  /** The region's pointer. */
  pointer: string;
  /** The region's kind. */
  kind: FieldKind;
  /** Why. */
  sentence: string;
}

/**
 * The console's grouped warning for regions that cannot be edited: its
 * title and one line per region.
 *
 * @param misfits the regions
 * @returns the title and the lines, or `undefined` when there are none
 */
export function misfitReport(
  misfits: readonly Misfit[],
): { title: string; lines: string[] } | undefined {
  if (misfits.length === 0) return undefined;
  return {
    title: plural("regionsNotEditable", misfits.length),
    lines: misfits.map((misfit) =>
      text("regionNotEditableLine", {
        attribute: `data-inpage-${misfit.kind}`,
        pointer: misfit.pointer,
        path: misfit.path,
        sentence: misfit.sentence,
      })
    ),
  };
}
