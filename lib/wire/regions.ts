/**
 * The region contract between a site's templates and the editor, written
 * once: every `data-inpage-*` attribute, and each kind of region with the
 * attribute that marks it and the value it edits. The overlay (which
 * regions it makes editable), `editor check --html` (which regions fit
 * their page file) and the regions helper (`@inpage/editor/regions`) all
 * read this table, so that they cannot disagree; a new kind of region is
 * one more entry in {@linkcode REGION_KINDS}. No host API, no dependency.
 *
 * A kind fits a value when every key the overlay writes there holds, when
 * present, what the overlay writes: an image's `src` is required and, like
 * its `alt`, a string, its `width` and `height` numbers; a link's `href`
 * is required and, like its `title`, a string. A region whose value does
 * not fit is left as the site rendered it (editing it would lose a value
 * or write a key no visitor sees).
 *
 * @example
 * ```ts
 * import { fitsKind, REGION_KINDS } from "./regions.ts";
 * import assert from "node:assert/strict";
 *
 * assert.equal(REGION_KINDS.image.attribute, "data-inpage-image");
 * assert.ok(fitsKind("image", { src: "a.png", alt: "A" }));
 * assert.ok(!fitsKind("image", { alt: "no src" }));
 * assert.ok(!fitsKind("link", { href: "/", title: 42 }));
 * ```
 *
 * @module
 */

/**
 * Every attribute of the page the templates, the overlay and the CLI
 * share: those the templates write (`page`, `text`, `html`, `markdown`,
 * `image`, `link`, `list`, `item`, `template`, `default`, `fields`,
 * `imageFormat`, `strings`) and those the overlay sets while editing.
 *
 * @example
 * ```ts
 * import { INPAGE_ATTRIBUTES } from "./regions.ts";
 * import assert from "node:assert/strict";
 *
 * assert.equal(INPAGE_ATTRIBUTES.text, "data-inpage-text");
 * ```
 */
export const INPAGE_ATTRIBUTES = {
  /** On a container: the page file it shows. */
  page: "data-inpage-page",
  /** A plain-text field, by its JSON Pointer. */
  text: "data-inpage-text",
  /** A rich-text field, by its JSON Pointer. */
  html: "data-inpage-html",
  /** A string the site renders as CommonMark, by its JSON Pointer. */
  markdown: "data-inpage-markdown",
  /** A media object, by its JSON Pointer. */
  image: "data-inpage-image",
  /** A link object (`href`, optional `title`), by its JSON Pointer. */
  link: "data-inpage-link",
  /** The element whose element children render an array, by its pointer. */
  list: "data-inpage-list",
  /** One element child of a list: the list's pointer, `/`, its index. */
  item: "data-inpage-item",
  /** A `<template>` inside a list: the markup of the first item of an empty one. */
  template: "data-inpage-template",
  /** On that `<template>`: the new item's JSON. */
  default: "data-inpage-default",
  /** On a container: the page fields the Page panel edits, space-separated. */
  fields: "data-inpage-fields",
  /** On a container: the format of uploaded images (`webp`, `jpeg`, `png`). */
  imageFormat: "data-inpage-image-format",
  /** On a `<script type="application/json">`: the overlay's words in a language. */
  strings: "data-inpage-strings",
  /** On `<html>` while the overlay edits. */
  editing: "data-inpage-editing",
  /** On `<html>` while a past version is shown. */
  previewing: "data-inpage-previewing",
  /** On the overlay's own host element. */
  overlay: "data-inpage-overlay",
  /** On a region changed and not yet published. */
  changed: "data-inpage-changed",
  /** On a region with a problem. */
  invalid: "data-inpage-invalid",
  /** On a region with a problem: the reasons, for its title. */
  problem: "data-inpage-problem",
  /** On a replaced image: the stored name. */
  src: "data-inpage-src",
  /** On a region that cannot be edited: the sentence saying why. */
  unresolved: "data-inpage-unresolved",
  /** On a region a past version shows differently. */
  differs: "data-inpage-differs",
  /** The host of a list item's controls. */
  controls: "data-inpage-controls",
  /** The host of an empty list's "Add" button. */
  empty: "data-inpage-empty",
  /** The host of a link object's "Link" button. */
  linkControl: "data-inpage-link-control",
  /** The host of an image's "Alt text" button. */
  altControl: "data-inpage-alt-control",
  /** On a list item while it is dragged. */
  dragging: "data-inpage-dragging",
  /** On a list item where a dragged one would drop (`before`, `after`). */
  drop: "data-inpage-drop",
  /** Prefix of an attribute kept aside in Preview (`…-role`). */
  kept: "data-inpage-kept",
} as const;

/** One kind of region: how templates mark it and what it edits. */
export interface RegionKindRule {
  /** The attribute that marks it, holding its JSON Pointer. */
  readonly attribute: string;
  /**
   * `one`: the attribute holds one pointer; `many`: pointers separated by
   * white space (the page fields).
   */
  readonly pointers: "one" | "many";
  /**
   * Whether the overlay edits it in place (the person types in it or
   * clicks it); the others are structure (lists, items) or panels.
   */
  readonly inPlace: boolean;
  /** The keys of an object value the overlay writes; none: the whole value. */
  readonly edits: readonly string[];
  /** What the value must be, in words, for a site's developer. */
  readonly needs: string;
  /**
   * Whether a value is what this kind edits.
   *
   * @param value the value its pointer names
   * @returns true when it fits
   */
  fits(value: unknown): boolean;
}

function record(value: unknown): Record<string, unknown> | undefined {
  return typeof value === "object" && value !== null && !Array.isArray(value)
    ? value as Record<string, unknown>
    : undefined;
}

/** Whether a key is absent, or holds a value of a JavaScript type. */
function absentOr(
  object: Record<string, unknown>,
  key: string,
  type: "string" | "number",
): boolean {
  return !Object.hasOwn(object, key) || typeof object[key] === type;
}

/**
 * The name of a kind of region: the key of its entry in
 * {@linkcode REGION_KINDS}.
 */
export type RegionKind =
  | "item"
  | "list"
  | "link"
  | "text"
  | "html"
  | "markdown"
  | "image"
  | "fields";

/**
 * The kinds of region, in the order `editor check --html` checks the
 * attributes of one element. Each says which attribute marks it, what it
 * edits and which values fit it.
 *
 * @example
 * ```ts
 * import { REGION_KINDS } from "./regions.ts";
 * import assert from "node:assert/strict";
 *
 * assert.ok(REGION_KINDS.text.fits("Hello"));
 * assert.ok(REGION_KINDS.list.fits([]));
 * assert.deepEqual(REGION_KINDS.link.edits, ["href", "title"]);
 * ```
 */
export const REGION_KINDS: { readonly [K in RegionKind]: RegionKindRule } = {
  item: {
    attribute: INPAGE_ATTRIBUTES.item,
    pointers: "one",
    inPlace: false,
    edits: [],
    needs: "an item needs a value",
    fits: () => true,
  },
  list: {
    attribute: INPAGE_ATTRIBUTES.list,
    pointers: "one",
    inPlace: false,
    edits: [],
    needs: "a list needs an array",
    fits: (value: unknown) => Array.isArray(value),
  },
  link: {
    attribute: INPAGE_ATTRIBUTES.link,
    pointers: "one",
    inPlace: false,
    edits: ["href", "title"],
    needs:
      "a link region needs a link object (a string href, a string title if any)",
    fits: (value: unknown) => {
      const link = record(value);
      return typeof link?.href === "string" &&
        absentOr(link, "title", "string");
    },
  },
  text: {
    attribute: INPAGE_ATTRIBUTES.text,
    pointers: "one",
    inPlace: true,
    edits: [],
    needs: "a text region needs a string",
    fits: (value: unknown) => typeof value === "string",
  },
  html: {
    attribute: INPAGE_ATTRIBUTES.html,
    pointers: "one",
    inPlace: true,
    edits: [],
    needs: "a rich-text region needs a string",
    fits: (value: unknown) => typeof value === "string",
  },
  markdown: {
    attribute: INPAGE_ATTRIBUTES.markdown,
    pointers: "one",
    // The site renders it as CommonMark; the overlay leaves it as rendered
    // until it has a markdown editor (the regions stay outlined as none).
    inPlace: false,
    edits: [],
    needs: "a markdown region needs a string",
    fits: (value: unknown) => typeof value === "string",
  },
  image: {
    attribute: INPAGE_ATTRIBUTES.image,
    pointers: "one",
    inPlace: true,
    edits: ["src", "width", "height", "alt"],
    needs:
      "an image region needs a media object (a string src, a string alt if any, numbers for width and height)",
    fits: (value: unknown) => {
      const media = record(value);
      return typeof media?.src === "string" &&
        absentOr(media, "alt", "string") &&
        absentOr(media, "width", "number") &&
        absentOr(media, "height", "number");
    },
  },
  fields: {
    attribute: INPAGE_ATTRIBUTES.fields,
    pointers: "many",
    inPlace: false,
    edits: [],
    needs: "a page field is a string, a number or a boolean",
    fits: (value: unknown) =>
      ["string", "number", "boolean"].includes(typeof value),
  },
};

/**
 * Every kind of region, in the table's order.
 *
 * @example
 * ```ts
 * import { REGION_KIND_NAMES } from "./regions.ts";
 * import assert from "node:assert/strict";
 *
 * assert.ok(REGION_KIND_NAMES.includes("html"));
 * ```
 */
export const REGION_KIND_NAMES: readonly RegionKind[] = Object.keys(
  REGION_KINDS,
) as RegionKind[];

/**
 * Whether a value is what a kind of region edits.
 *
 * @example
 * ```ts
 * import { fitsKind } from "./regions.ts";
 * import assert from "node:assert/strict";
 *
 * assert.ok(fitsKind("link", { href: "/about/" }));
 * assert.ok(!fitsKind("text", 3));
 * ```
 *
 * @param kind the kind
 * @param value the value its pointer names
 * @returns true when it fits
 */
export function fitsKind(kind: RegionKind, value: unknown): boolean {
  return REGION_KINDS[kind].fits(value);
}

/**
 * The kinds the overlay edits in place (typed in or clicked), with their
 * attributes: each is a region of its own on the page.
 *
 * @example
 * ```ts
 * import { IN_PLACE_KINDS } from "./regions.ts";
 * import assert from "node:assert/strict";
 *
 * assert.deepEqual(IN_PLACE_KINDS, ["text", "html", "image"]);
 * ```
 */
export const IN_PLACE_KINDS: readonly RegionKind[] = REGION_KIND_NAMES.filter(
  (kind) => REGION_KINDS[kind].inPlace,
);

/**
 * The attributes whose value is one JSON Pointer into the page file (the
 * regions' own, and a list's `<template>`): rewritten when a list item
 * moves.
 *
 * @example
 * ```ts
 * import { POINTER_ATTRIBUTES } from "./regions.ts";
 * import assert from "node:assert/strict";
 *
 * assert.ok(POINTER_ATTRIBUTES.includes("data-inpage-item"));
 * ```
 */
export const POINTER_ATTRIBUTES: readonly string[] = [
  ...REGION_KIND_NAMES.filter((kind) => REGION_KINDS[kind].pointers === "one")
    .map((kind) => REGION_KINDS[kind].attribute),
  INPAGE_ATTRIBUTES.template,
];

/**
 * A CSS selector for the elements marked with any of some kinds.
 *
 * @example
 * ```ts
 * import { kindSelector } from "./regions.ts";
 * import assert from "node:assert/strict";
 *
 * assert.equal(kindSelector(["text", "html"]), "[data-inpage-text],[data-inpage-html]");
 * ```
 *
 * @param kinds the kinds
 * @returns the selector
 */
export function kindSelector(kinds: readonly RegionKind[]): string {
  return kinds.map((kind) => `[${REGION_KINDS[kind].attribute}]`).join(",");
}
