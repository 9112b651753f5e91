/**
 * `@inpage/editor/regions`: the attributes a site's templates write to mark
 * editable regions, as typed objects to spread onto elements. It runs
 * anywhere (Astro, JSX, any template engine, Node, Deno, Bun, the browser):
 * no host API, no dependency.
 *
 * - `page(path)` on a container names the page file, for example
 *   `src/content/pages/en/home.json`.
 * - Inside it, `text(pointer)` marks plain text, `html(pointer)` rich text and
 *   `image(pointer)` a media object (`src`, `width`, `height`, `alt`).
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
import { INPAGE_ATTRIBUTES } from "../lib/wire/names.ts";

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
  /** The page file, relative to the repository root. */
  readonly "data-inpage-page": string;
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
  /** The JSON Pointer of the field. */
  readonly "data-inpage-text": string;
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
  /** The JSON Pointer of the field. */
  readonly "data-inpage-html": string;
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
  /** The JSON Pointer of the media object. */
  readonly "data-inpage-image": string;
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
 * The helpers under one name, for templates: `inpage.page(path)`,
 * `inpage.text(at)`, `inpage.html(at)`, `inpage.image(at)`,
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
  readonly image: typeof image;
  readonly pointer: typeof pointer;
  readonly tokens: typeof tokens;
} = Object.freeze({ page, text, html, image, pointer, tokens });
