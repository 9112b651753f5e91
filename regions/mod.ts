/**
 * `@inpage/editor/regions`: the attributes a site's templates write to mark
 * editable regions, as typed objects to spread onto elements. It runs
 * anywhere (Astro, JSX, any template engine, Node, Deno, Bun, the browser):
 * no host API, no dependency.
 *
 * - `page(path)` on a container names the page file, for example
 *   `src/content/pages/en/home.json`.
 * - Inside it, `text(pointer)` marks plain text, `html(pointer)` rich text,
 *   `markdown(pointer)` a string the site renders as CommonMark,
 *   `image(pointer)` a media object (`src`, `width`, `height`, `alt`) and
 *   `link(pointer)` a link object (`href`, optional `title`).
 * - `list(pointer)` marks the element whose element children render an
 *   array, `item(pointer)` each of those children (the list's pointer, then
 *   the index), and `template(pointer, item)` a `<template>` inside the list
 *   holding the markup of a first item and its JSON, for an empty list.
 * - `fields(pointers)` on the container names the page fields no region
 *   shows (a description, a date) that the Page panel edits.
 *
 * A pointer is an RFC 6901 JSON Pointer into that page file, given either
 * written out (`"/sections/0/heading"`, checked) or as its reference tokens
 * (`["sections", 0, "heading"]`, escaped: `~` becomes `~0`, `/` becomes `~1`).
 *
 * @example In an Astro template
 * ```ts ignore
 * ---
 * import { inpage } from "@inpage/editor/regions";
 * const { entry } = Astro.props;
 * ---
 * <main {...inpage.page(entry.filePath)}>
 *   <h1 {...inpage.text("/title")}>{entry.data.title}</h1>
 *   <div {...inpage.html(["sections", 0, "body"])} set:html={entry.data.sections[0].body} />
 * </main>
 * ```
 *
 * @example As plain objects
 * ```ts
 * import { inpage } from "@inpage/editor/regions";
 * import assert from "node:assert/strict";
 *
 * assert.deepEqual(inpage.text("/sections/0/heading"), {
 *   "data-inpage-text": "/sections/0/heading",
 * });
 * assert.deepEqual(inpage.html(["sections", 1, "a/b"]), {
 *   "data-inpage-html": "/sections/1/a~1b",
 * });
 * ```
 *
 * @module
 */

import {
  formatPointer,
  parsePointer,
  pointerProblem,
} from "../lib/wire/pointer.ts";
import {
  INPAGE_ATTRIBUTES,
  REGION_KINDS,
  type RegionKind,
} from "../lib/wire/regions.ts";

export type { RegionKind };

/** A JSON Pointer as written (`"/sections/0/heading"`) or as its tokens. */
export type Pointer = string | readonly (string | number)[];

/**
 * The attribute naming the page file of a container.
 *
 * @example
 * ```ts
 * import { page, type PageAttributes } from "@inpage/editor/regions";
 *
 * const attributes: PageAttributes = page("src/content/pages/en/home.json");
 * ```
 */
export interface PageAttributes {
  /** `data-inpage-page`: the page file, relative to the repository root. */
  readonly [INPAGE_ATTRIBUTES.page]: string;
}

/**
 * The attribute marking an element whose text is a plain-text field.
 *
 * @example
 * ```ts
 * import { text, type TextAttributes } from "@inpage/editor/regions";
 *
 * const attributes: TextAttributes = text("/title");
 * ```
 */
export interface TextAttributes {
  /** `data-inpage-text`: the JSON Pointer of the field. */
  readonly [INPAGE_ATTRIBUTES.text]: string;
}

/**
 * The attribute marking an element whose content is a rich-text field.
 *
 * @example
 * ```ts
 * import { html, type HtmlAttributes } from "@inpage/editor/regions";
 *
 * const attributes: HtmlAttributes = html("/sections/0/body");
 * ```
 */
export interface HtmlAttributes {
  /** `data-inpage-html`: the JSON Pointer of the field. */
  readonly [INPAGE_ATTRIBUTES.html]: string;
}

/**
 * The attribute marking an element whose content the site renders from a
 * markdown string.
 *
 * @example
 * ```ts
 * import { markdown, type MarkdownAttributes } from "@inpage/editor/regions";
 *
 * const attributes: MarkdownAttributes = markdown("/body");
 * ```
 */
export interface MarkdownAttributes {
  /** `data-inpage-markdown`: the JSON Pointer of the field. */
  readonly [INPAGE_ATTRIBUTES.markdown]: string;
}

/**
 * The attribute marking an image whose media object is editable.
 *
 * @example
 * ```ts
 * import { image, type ImageAttributes } from "@inpage/editor/regions";
 *
 * const attributes: ImageAttributes = image("/sections/1/image");
 * ```
 */
export interface ImageAttributes {
  /** `data-inpage-image`: the JSON Pointer of the media object. */
  readonly [INPAGE_ATTRIBUTES.image]: string;
}

/**
 * The attribute marking an element rendered from a link object.
 *
 * @example
 * ```ts
 * import { link, type LinkAttributes } from "@inpage/editor/regions";
 *
 * const attributes: LinkAttributes = link("/nav/0/link");
 * ```
 */
export interface LinkAttributes {
  /** `data-inpage-link`: the JSON Pointer of the link object. */
  readonly [INPAGE_ATTRIBUTES.link]: string;
}

/**
 * The attribute marking the element whose element children render an array.
 *
 * @example
 * ```ts
 * import { list, type ListAttributes } from "@inpage/editor/regions";
 *
 * const attributes: ListAttributes = list("/sections");
 * ```
 */
export interface ListAttributes {
  /** `data-inpage-list`: the JSON Pointer of the array. */
  readonly [INPAGE_ATTRIBUTES.list]: string;
}

/**
 * The attribute marking one element child of a list.
 *
 * @example
 * ```ts
 * import { item, type ItemAttributes } from "@inpage/editor/regions";
 *
 * const attributes: ItemAttributes = item(["sections", 0]);
 * ```
 */
export interface ItemAttributes {
  /** `data-inpage-item`: the JSON Pointer of the item: the list's pointer, `/`, its index. */
  readonly [INPAGE_ATTRIBUTES.item]: string;
}

/**
 * The attributes of a list's `<template>`: which list, and the JSON of the
 * item it adds.
 *
 * @example
 * ```ts
 * import { template, type TemplateAttributes } from "@inpage/editor/regions";
 *
 * const attributes: TemplateAttributes = template("/sections", { heading: "" });
 * ```
 */
export interface TemplateAttributes {
  /** `data-inpage-template`: the JSON Pointer of the list. */
  readonly [INPAGE_ATTRIBUTES.template]: string;
  /** `data-inpage-default`: the new item, as JSON. */
  readonly [INPAGE_ATTRIBUTES.default]: string;
}

/**
 * The attribute naming the page fields that the Page panel edits.
 *
 * @example
 * ```ts
 * import { fields, type FieldsAttributes } from "@inpage/editor/regions";
 *
 * const attributes: FieldsAttributes = fields(["/description"]);
 * ```
 */
export interface FieldsAttributes {
  /** `data-inpage-fields`: the JSON Pointers of the fields, separated by a space. */
  readonly [INPAGE_ATTRIBUTES.fields]: string;
}

/**
 * Builds a JSON Pointer (RFC 6901) from its reference tokens: each token is
 * escaped (`~` to `~0`, then `/` to `~1`) and prefixed with `/`. No token
 * gives `""`, the whole page. A number token must be a non-negative integer
 * (an array index).
 *
 * @example
 * ```ts
 * import { pointer } from "@inpage/editor/regions";
 * import assert from "node:assert/strict";
 *
 * assert.equal(pointer(["sections", 0, "heading"]), "/sections/0/heading");
 * assert.equal(pointer(["a/b", "m~n"]), "/a~1b/m~0n");
 * assert.equal(pointer([]), "");
 * ```
 *
 * @param tokens the keys and array indexes, outermost first
 * @returns the pointer
 * @throws {TypeError} when a number token is not a non-negative integer
 */
export function pointer(tokens: readonly (string | number)[]): string {
  return formatPointer(tokens);
}

/**
 * The reference tokens of a written JSON Pointer, unescaped (`~1` to `/`,
 * then `~0` to `~`). The inverse of {@linkcode pointer} for string tokens.
 *
 * @example
 * ```ts
 * import { tokens } from "@inpage/editor/regions";
 * import assert from "node:assert/strict";
 *
 * assert.deepEqual(tokens("/a~1b/m~0n/0"), ["a/b", "m~n", "0"]);
 * assert.deepEqual(tokens(""), []);
 * ```
 *
 * @param written the pointer, `""` or starting with `/`
 * @returns its tokens
 * @throws {TypeError} when it is not a valid pointer
 */
export function tokens(written: string): string[] {
  return parsePointer(check(written));
}

function check(written: string): string {
  const problem = pointerProblem(written);
  if (problem !== undefined) throw new TypeError(problem);
  return written;
}

function written(at: Pointer): string {
  return typeof at === "string" ? check(at) : pointer(at);
}

/**
 * The attribute naming a container's page file: `data-inpage-page`.
 *
 * @example
 * ```ts
 * import { page } from "@inpage/editor/regions";
 * import assert from "node:assert/strict";
 *
 * assert.deepEqual(page("src/content/pages/en/home.json"), {
 *   "data-inpage-page": "src/content/pages/en/home.json",
 * });
 * ```
 *
 * @param path the page file, relative to the repository root
 * @returns the attribute object
 * @throws {TypeError} when `path` is not a non-empty relative `.json` path
 */
export function page(path: string): PageAttributes {
  if (
    typeof path !== "string" || !path.endsWith(".json") ||
    path.startsWith("/") || path.split("/").includes("..")
  ) {
    throw new TypeError(
      `A page path is a relative .json path: ${JSON.stringify(path)}`,
    );
  }
  return { [INPAGE_ATTRIBUTES.page]: path };
}

/**
 * The attribute marking a plain-text field: `data-inpage-text`.
 *
 * @example
 * ```ts
 * import { text } from "@inpage/editor/regions";
 * import assert from "node:assert/strict";
 *
 * assert.deepEqual(text(["nav", 0, "text"]), { "data-inpage-text": "/nav/0/text" });
 * ```
 *
 * @param at the field's JSON Pointer, written or as tokens
 * @returns the attribute object
 * @throws {TypeError} when a written pointer is not valid
 */
export function text(at: Pointer): TextAttributes {
  return { [INPAGE_ATTRIBUTES.text]: written(at) };
}

/**
 * The attribute marking a rich-text field: `data-inpage-html`. The element's
 * content is the field's markup (in Astro: `set:html`), which the page rules
 * limit to the allowed tags.
 *
 * @example
 * ```ts
 * import { html } from "@inpage/editor/regions";
 * import assert from "node:assert/strict";
 *
 * assert.deepEqual(html("/sections/0/body"), {
 *   "data-inpage-html": "/sections/0/body",
 * });
 * ```
 *
 * @param at the field's JSON Pointer, written or as tokens
 * @returns the attribute object
 * @throws {TypeError} when a written pointer is not valid
 */
export function html(at: Pointer): HtmlAttributes {
  return { [INPAGE_ATTRIBUTES.html]: written(at) };
}

/**
 * The attribute marking a string the site renders as CommonMark:
 * `data-inpage-markdown`. The element's content is the rendered markdown
 * (in Eleventy: `{{ body | markdown | safe }}`; in Hugo: `{{ .body |
 * markdownify }}`). The editor edits it in place as rich text and writes
 * markdown back, changing only the blocks that changed; the page rules
 * apply to the string as to any other.
 *
 * @example
 * ```ts
 * import { markdown } from "@inpage/editor/regions";
 * import assert from "node:assert/strict";
 *
 * assert.deepEqual(markdown(["posts", 0, "body"]), {
 *   "data-inpage-markdown": "/posts/0/body",
 * });
 * ```
 *
 * @param at the field's JSON Pointer, written or as tokens
 * @returns the attribute object
 * @throws {TypeError} when a written pointer is not valid
 */
export function markdown(at: Pointer): MarkdownAttributes {
  return { [INPAGE_ATTRIBUTES.markdown]: written(at) };
}

/**
 * The attribute marking an image whose media object (`src`, `width`,
 * `height`, `alt`) is editable: `data-inpage-image`. Write `width` and
 * `height` on the `<img>` from the media object, so that a replaced image
 * keeps the page's layout stable.
 *
 * @example
 * ```ts
 * import { image } from "@inpage/editor/regions";
 * import assert from "node:assert/strict";
 *
 * assert.deepEqual(image(["sections", 1, "image"]), {
 *   "data-inpage-image": "/sections/1/image",
 * });
 * ```
 *
 * @param at the media object's JSON Pointer, written or as tokens
 * @returns the attribute object
 * @throws {TypeError} when a written pointer is not valid
 */
export function image(at: Pointer): ImageAttributes {
  return { [INPAGE_ATTRIBUTES.image]: written(at) };
}

/**
 * The attribute marking an element rendered from a link object (`href`, an
 * optional `title`): `data-inpage-link`. Spread the link object onto the
 * `<a>` as well; its text may be a plain-text field of its own.
 *
 * @example
 * ```ts
 * import { link, text } from "@inpage/editor/regions";
 * import assert from "node:assert/strict";
 *
 * assert.deepEqual({ ...link(["nav", 0, "link"]), ...text(["nav", 0, "text"]) }, {
 *   "data-inpage-link": "/nav/0/link",
 *   "data-inpage-text": "/nav/0/text",
 * });
 * ```
 *
 * @param at the link object's JSON Pointer, written or as tokens
 * @returns the attribute object
 * @throws {TypeError} when a written pointer is not valid
 */
export function link(at: Pointer): LinkAttributes {
  return { [INPAGE_ATTRIBUTES.link]: written(at) };
}

/**
 * The attribute marking the element whose element children render an
 * array, one child per item, in order: `data-inpage-list`. Each child
 * carries {@linkcode item}; a `<template>` child (see
 * {@linkcode template}) is not an item.
 *
 * @example
 * ```ts
 * import { list } from "@inpage/editor/regions";
 * import assert from "node:assert/strict";
 *
 * assert.deepEqual(list("/sections"), { "data-inpage-list": "/sections" });
 * ```
 *
 * @param at the array's JSON Pointer, written or as tokens
 * @returns the attribute object
 * @throws {TypeError} when a written pointer is not valid
 */
export function list(at: Pointer): ListAttributes {
  return { [INPAGE_ATTRIBUTES.list]: written(at) };
}

/** An array index as RFC 6901 writes it: no sign, no leading zero. */
const INDEX = /^(?:0|[1-9]\d*)$/;

/**
 * The attribute marking one item of a list, a child of the
 * {@linkcode list} element: `data-inpage-item`, the list's pointer then the
 * item's index (`/sections/2`), numbered from 0 in the order of the
 * children.
 *
 * @example
 * ```ts
 * import { item } from "@inpage/editor/regions";
 * import assert from "node:assert/strict";
 *
 * assert.deepEqual(item(["sections", 2]), { "data-inpage-item": "/sections/2" });
 * assert.throws(() => item("/sections/first"), TypeError);
 * ```
 *
 * @param at the item's JSON Pointer, written or as tokens, ending in an index
 * @returns the attribute object
 * @throws {TypeError} when the pointer is not valid or does not end in an
 *   array index
 */
export function item(at: Pointer): ItemAttributes {
  const pointer = written(at);
  const last = pointer === ""
    ? ""
    : pointer.slice(pointer.lastIndexOf("/") + 1);
  if (!INDEX.test(last)) {
    throw new TypeError(
      `An item's pointer ends in an array index: ${JSON.stringify(pointer)}`,
    );
  }
  return { [INPAGE_ATTRIBUTES.item]: pointer };
}

/** Whether a value is JSON data: what `JSON.parse` can give back. */
function isJson(value: unknown, depth = 0): boolean {
  if (depth > 64) return false;
  if (value === null || typeof value === "string" || value === true) {
    return true;
  }
  if (value === false) return true;
  if (typeof value === "number") return Number.isFinite(value);
  if (Array.isArray(value)) return value.every((v) => isJson(v, depth + 1));
  if (typeof value !== "object") return false;
  const prototype = Object.getPrototypeOf(value);
  if (prototype !== Object.prototype && prototype !== null) return false;
  return Object.values(value).every((v) => isJson(v, depth + 1));
}

/**
 * The attributes of the `<template>` that gives an empty list its first
 * item: `data-inpage-template`, the list's pointer, and
 * `data-inpage-default`, the new item as JSON. Put the `<template>` inside
 * the {@linkcode list} element, holding the markup of that item at index 0.
 *
 * @example
 * ```ts
 * import { template } from "@inpage/editor/regions";
 * import assert from "node:assert/strict";
 *
 * assert.deepEqual(template("/sections", { id: "new", heading: "A heading" }), {
 *   "data-inpage-template": "/sections",
 *   "data-inpage-default": '{"id":"new","heading":"A heading"}',
 * });
 * ```
 *
 * @param at the list's JSON Pointer, written or as tokens
 * @param value the new item: JSON data (objects, arrays, strings, finite
 *   numbers, booleans, null)
 * @returns the attribute object
 * @throws {TypeError} when the pointer is not valid or the item is not JSON
 *   data
 */
export function template(at: Pointer, value: unknown): TemplateAttributes {
  const pointer = written(at);
  if (!isJson(value)) {
    throw new TypeError("A template's default item must be JSON data");
  }
  return {
    [INPAGE_ATTRIBUTES.template]: pointer,
    [INPAGE_ATTRIBUTES.default]: JSON.stringify(value),
  };
}

/**
 * The attribute naming the page fields the Page panel edits, on the page
 * container: `data-inpage-fields`, the pointers separated by a space. Each
 * is a field no region shows (an SEO title, a description, a date, a
 * switch); an empty list offers none. A pointer in it cannot be `""` nor
 * hold white space.
 *
 * @example
 * ```ts
 * import { fields } from "@inpage/editor/regions";
 * import assert from "node:assert/strict";
 *
 * assert.deepEqual(fields(["/description", ["seo", "title"]]), {
 *   "data-inpage-fields": "/description /seo/title",
 * });
 * ```
 *
 * @param pointers the fields' JSON Pointers, each written or as tokens
 * @returns the attribute object
 * @throws {TypeError} when a pointer is not valid, is `""` or holds white
 *   space
 */
export function fields(pointers: readonly Pointer[]): FieldsAttributes {
  const list = pointers.map((at) => {
    const pointer = written(at);
    if (pointer === "" || /\s/.test(pointer)) {
      throw new TypeError(
        `A field's pointer is not "" and holds no white space: ${
          JSON.stringify(pointer)
        }`,
      );
    }
    return pointer;
  });
  return { [INPAGE_ATTRIBUTES.fields]: list.join(" ") };
}

/** The kinds of region marked by one pointer, as {@linkcode region} takes them. */
export type PointerKind = Exclude<RegionKind, "fields">;

/**
 * The attribute of any kind of region marked by one pointer, by the kind's
 * name in the region contract: `region("text", at)` is `text(at)`. A kind
 * added to the contract is written this way before it has a helper of its
 * own.
 *
 * @example
 * ```ts
 * import { region } from "@inpage/editor/regions";
 * import assert from "node:assert/strict";
 *
 * assert.deepEqual(region("html", ["sections", 0, "body"]), {
 *   "data-inpage-html": "/sections/0/body",
 * });
 * ```
 *
 * @param kind the kind's name (`text`, `html`, `markdown`, `image`, `link`,
 *   `list`, `item`)
 * @param at its JSON Pointer, written or as tokens
 * @returns the attribute object
 * @throws {TypeError} when the kind is unknown or the pointer is not valid
 *   (for `item`, when it does not end in an array index)
 */
export function region(
  kind: PointerKind,
  at: Pointer,
): { readonly [attribute: string]: string } {
  if (
    !Object.hasOwn(REGION_KINDS, kind) || REGION_KINDS[kind].pointers !== "one"
  ) {
    throw new TypeError(`No kind of region is named ${JSON.stringify(kind)}`);
  }
  if (kind === "item") return { ...item(at) };
  return { [REGION_KINDS[kind].attribute]: written(at) };
}

/**
 * The helpers under one name, for templates: `inpage.page(path)`,
 * `inpage.text(at)`, `inpage.html(at)`, `inpage.markdown(at)`,
 * `inpage.image(at)`,
 * `inpage.link(at)`, `inpage.list(at)`, `inpage.item(at)`,
 * `inpage.template(at, item)`, `inpage.fields(pointers)`,
 * `inpage.region(kind, at)`,
 * `inpage.pointer(tokens)` and `inpage.tokens(written)`.
 *
 * @example
 * ```ts
 * import { inpage } from "@inpage/editor/regions";
 * import assert from "node:assert/strict";
 *
 * const at = (i: number, key: string) => inpage.pointer(["sections", i, key]);
 * assert.deepEqual(inpage.text(at(0, "heading")), {
 *   "data-inpage-text": "/sections/0/heading",
 * });
 * ```
 */
export const inpage: {
  readonly page: typeof page;
  readonly text: typeof text;
  readonly html: typeof html;
  readonly markdown: typeof markdown;
  readonly image: typeof image;
  readonly link: typeof link;
  readonly list: typeof list;
  readonly item: typeof item;
  readonly template: typeof template;
  readonly fields: typeof fields;
  readonly region: typeof region;
  readonly pointer: typeof pointer;
  readonly tokens: typeof tokens;
} = Object.freeze({
  page,
  text,
  html,
  markdown,
  image,
  link,
  list,
  item,
  template,
  fields,
  region,
  pointer,
  tokens,
});
