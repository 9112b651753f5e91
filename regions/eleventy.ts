/**
 * `@inpage/editor/regions/eleventy`: the regions helper for Eleventy's
 * Nunjucks and Liquid templates, which have no attribute spread. One
 * shortcode, `inpage`, writes the `data-inpage-*` attributes of a region,
 * escaped for a double-quoted attribute:
 *
 * ```njk
 * <main {% inpage "page", entry.path %}>
 *   <h1 {% inpage "text", "/title" %}>{{ entry.data.title }}</h1>
 *   <div {% inpage "markdown", "/body" %}>{{ entry.data.body | markdown | safe }}</div>
 *   <ul {% inpage "list", "/nav" %}>
 *   {%- for link in site.nav %}
 *     <li {% inpage "item", "nav", loop.index0 %}><a href="{{ link.link.href }}"
 *       {% inpage "link", "nav", loop.index0, "link" %}
 *       {% inpage "text", "nav", loop.index0, "text" %}>{{ link.text }}</a></li>
 *   {%- endfor %}
 *   </ul>
 * </main>
 * ```
 *
 * In Liquid the same, with `forloop.index0`. After the kind come the
 * region's JSON Pointer written out (`"/sections/0/heading"`, one argument
 * starting with `/`) or its reference tokens (`"sections", 0, "heading"`,
 * escaped for you). The kinds are those of `@inpage/editor/regions`:
 * `page` (a page file's path), `text`, `html`, `markdown`, `image`, `link`,
 * `list`, `item`, `template` (the list's pointer, then the new item, or its
 * JSON as a string for Liquid) and `fields` (one pointer per field).
 *
 * It runs anywhere Eleventy does (Node, Deno, Bun): no host API.
 *
 * @example In `eleventy.config.js`
 * ```ts ignore
 * import { eleventyRegions } from "@inpage/editor/regions/eleventy";
 *
 * export default function (eleventyConfig) {
 *   eleventyConfig.addPlugin(eleventyRegions);
 * }
 * ```
 *
 * @example The attributes it writes
 * ```ts
 * import { inpageAttributes } from "@inpage/editor/regions/eleventy";
 * import assert from "node:assert/strict";
 *
 * assert.equal(inpageAttributes("text", "/title"), 'data-inpage-text="/title"');
 * assert.equal(
 *   inpageAttributes("item", "nav", 2),
 *   'data-inpage-item="/nav/2"',
 * );
 * ```
 *
 * @module
 */

import {
  fields,
  html,
  image,
  item,
  link,
  list,
  markdown,
  page,
  type Pointer,
  template,
  text,
} from "./mod.ts";

/** What the plugin needs of Eleventy's configuration object. */
export interface EleventyConfigLike {
  /** Eleventy's `addShortcode`: a tag for Nunjucks, Liquid and 11ty.js. */
  addShortcode(
    name: string,
    shortcode: (...args: unknown[]) => string,
  ): unknown;
}

/** The options of {@linkcode eleventyRegions}. */
export interface EleventyRegionsOptions {
  /** The shortcode's name; default `inpage`. */
  name?: string;
}

/** The kinds that take one pointer. */
const POINTED = {
  text,
  html,
  markdown,
  image,
  link,
  list,
  item,
} as const satisfies Record<string, (at: Pointer) => object>;

/** Every kind, for the error message. */
const KINDS = [...Object.keys(POINTED), "page", "template", "fields"];

/**
 * One pointer from shortcode arguments: a written pointer (one string
 * starting with `/`, or `""`), an array of tokens, or the tokens themselves.
 */
function pointerOf(args: readonly unknown[]): Pointer {
  if (args.length === 1) {
    const [only] = args;
    if (typeof only === "string" && (only === "" || only.startsWith("/"))) {
      return only;
    }
    if (Array.isArray(only)) return tokensOf(only);
  }
  if (args.length === 0) {
    throw new TypeError("A region needs a JSON Pointer or its tokens");
  }
  return tokensOf(args);
}

function tokensOf(values: readonly unknown[]): (string | number)[] {
  return values.map((value) => {
    if (typeof value === "number" || typeof value === "string") return value;
    throw new TypeError(
      `A pointer's token is a string or a number, not ${JSON.stringify(value)}`,
    );
  });
}

/** A value written inside a double-quoted HTML attribute. */
function escaped(value: string): string {
  return value.replace(/&/g, "&amp;").replace(/"/g, "&quot;")
    .replace(/</g, "&lt;").replace(/>/g, "&gt;");
}

/** The template's new item: the value, or its JSON when given as a string. */
function itemOf(value: unknown): unknown {
  if (typeof value !== "string") return value;
  try {
    return JSON.parse(value);
  } catch {
    throw new TypeError(
      `A template's item given as a string is its JSON: ${
        JSON.stringify(value)
      } is not JSON`,
    );
  }
}

/**
 * The `data-inpage-*` attributes of a region, as HTML: `name="value"`,
 * escaped for a double-quoted attribute, separated by a space.
 *
 * @param kind `page`, `text`, `html`, `markdown`, `image`, `link`, `list`,
 *   `item`, `template` or `fields`
 * @param args for `page`, the page file's path; for `template`, the list's
 *   pointer (written, or its tokens as an array) then the new item (or its
 *   JSON as a string); for `fields`, one pointer per field; otherwise the
 *   region's pointer written (`"/nav/0/text"`) or as tokens (`"nav", 0,
 *   "text"`)
 * @returns the attributes
 * @throws {TypeError} on an unknown kind, a pointer or path that is not
 *   valid, or an item that is not JSON data
 * @example
 * ```ts
 * import { inpageAttributes } from "@inpage/editor/regions/eleventy";
 * import assert from "node:assert/strict";
 *
 * assert.equal(
 *   inpageAttributes("page", "src/content/pages/en/home.json"),
 *   'data-inpage-page="src/content/pages/en/home.json"',
 * );
 * assert.equal(
 *   inpageAttributes("template", "/nav", '{"text":"A link"}'),
 *   'data-inpage-template="/nav" data-inpage-default="{&quot;text&quot;:&quot;A link&quot;}"',
 * );
 * assert.equal(
 *   inpageAttributes("fields", "/description", ["seo", "title"]),
 *   'data-inpage-fields="/description /seo/title"',
 * );
 * ```
 */
export function inpageAttributes(kind: string, ...args: unknown[]): string {
  let attributes: object;
  if (Object.hasOwn(POINTED, kind)) {
    attributes = POINTED[kind as keyof typeof POINTED](pointerOf(args));
  } else if (kind === "page") {
    attributes = page(args[0] as string);
  } else if (kind === "template") {
    if (args.length !== 2) {
      throw new TypeError(
        "A template takes the list's pointer, then the new item",
      );
    }
    attributes = template(pointerOf([args[0]]), itemOf(args[1]));
  } else if (kind === "fields") {
    attributes = fields(args.map((at) => pointerOf([at])));
  } else {
    throw new TypeError(
      `The kind of a region is one of ${KINDS.join(", ")}, not ${
        JSON.stringify(kind)
      }`,
    );
  }
  return Object.entries(attributes).map(([name, value]) =>
    `${name}="${escaped(String(value))}"`
  ).join(" ");
}

/**
 * The Eleventy plugin: adds the `inpage` shortcode (see the module doc) to
 * Nunjucks, Liquid and 11ty.js templates.
 *
 * @param eleventyConfig Eleventy's configuration object
 * @param options the shortcode's name
 * @example
 * ```ts
 * import { eleventyRegions } from "@inpage/editor/regions/eleventy";
 * import assert from "node:assert/strict";
 *
 * const shortcodes = new Map<string, (...args: unknown[]) => string>();
 * eleventyRegions({ addShortcode: (name, code) => shortcodes.set(name, code) });
 * assert.equal(
 *   shortcodes.get("inpage")!("markdown", "/body"),
 *   'data-inpage-markdown="/body"',
 * );
 * ```
 */
export function eleventyRegions(
  eleventyConfig: EleventyConfigLike,
  options: EleventyRegionsOptions = {},
): void {
  eleventyConfig.addShortcode(
    options.name ?? "inpage",
    (kind: unknown, ...args: unknown[]) =>
      inpageAttributes(String(kind), ...args),
  );
}
