/**
 * The attribute-name rule: page keys read as HTML attribute names. Templates
 * spread page objects onto elements (`<a {...link}>` in Astro and JSX), so a
 * key becomes an attribute name, which HTML reads without regard to ASCII
 * case, and which a template engine that does not check names may split
 * where the HTML tokenizer ends an attribute name (white space, `/`, `>`,
 * `=`). Each part of a key so split, lowercased, is judged:
 *
 * - A key holding a character that can carry a value or end the tag when a
 *   template writes ` ${key}="${value}"` (`"`, `'`, `` ` ``, `=`, `<`, `>`),
 *   a control or a noncharacter is refused: `href="javascript:…" x` would
 *   set `href` from the key itself.
 * - `style`, `srcdoc` (a whole document) and every event-handler name (`on`
 *   followed by a letter: the HTML standard's `onclick`, `onerror`, … and the
 *   ones browsers add over time) are refused as keys, whatever their value.
 * - A URL-bearing attribute name (`href`, `src`, `srcset`, `action`,
 *   `formaction`, `xlink:href`, `poster`, `cite`, `data`, `background`,
 *   `ping`, …) makes a value with text (a string, or a list, written as its
 *   items joined by commas) pass the link rule (`link_rule.ts`), or the media
 *   rule in an image (an object with a `src`).
 * - The page rules' own names are matched whatever their case
 *   ({@linkcode keyRole}): `ID` is an `id`, `HREF` an `href`, `SRC` makes its
 *   object an image whose `WIDTH`, `HEIGHT` and `ALT` are checked.
 *
 * @module
 */

/** What a key is as an attribute name: nothing the rules look at. */
export const PLAIN = 0;
/** A key refused: `style` or an event handler. */
export const FORBIDDEN = 1;
/** A key whose string value must pass the link rule. */
export const URL_VALUED = 2;
/** `id`, whatever its case ({@linkcode keyRole} only). */
export const ID_KEY = 3;
/** `href`, whatever its case ({@linkcode keyRole} only). */
export const HREF_KEY = 4;
/** `src`, whatever its case: its object is an image ({@linkcode keyRole}). */
export const SRC_KEY = 5;
/** `width`, `height` or `alt`, whatever their case ({@linkcode keyRole}). */
export const MEDIA_FIELD_KEY = 6;

/**
 * Attribute names whose value is a URL somewhere in HTML, SVG or MathML,
 * including obsolete ones that browsers still honour.
 */
export const URL_ATTRIBUTES: ReadonlySet<string> = new Set([
  "href",
  "src",
  "srcset",
  "imagesrcset",
  "action",
  "formaction",
  "xlink:href",
  "poster",
  "cite",
  "data",
  "background",
  "ping",
  "longdesc",
  "lowsrc",
  "dynsrc",
  "codebase",
  "archive",
  "classid",
  "manifest",
  "icon",
  "profile",
  "usemap",
  "itemtype",
  "xml:base",
  "attributionsrc",
]);

/** Where the HTML tokenizer ends an attribute name. */
const NAME_END = /[\t\n\f\r />=]+/;
/**
 * What may not be in a key at all: quotes, the backtick, `=`, `<`, `>`, C0
 * and C1 controls but the white space above, DEL, and noncharacters.
 */
const NOT_IN_NAME =
  // deno-lint-ignore no-control-regex
  /["'`=<>\u0000-\u0008\u000b\u000e-\u001f\u007f-\u009f\p{Noncharacter_Code_Point}]/u;
/** An event-handler attribute name. */
const EVENT_HANDLER = /^on[a-z]/;
/** Keys that are plain at once: lowercase letters, digits, `_` and `-`. */
const SIMPLE = /^[a-z0-9_-]+$/;

/**
 * What a page key is as an attribute name.
 *
 * @param key the key, sanitised
 * @returns {@linkcode PLAIN}, {@linkcode FORBIDDEN} or {@linkcode URL_VALUED}
 */
export function attributeKind(key: string): number {
  if (SIMPLE.test(key)) return kindOf(key);
  if (NOT_IN_NAME.test(key)) return FORBIDDEN;
  let kind = PLAIN;
  for (const part of key.toLowerCase().split(NAME_END)) {
    const found = kindOf(part);
    if (found === FORBIDDEN) return FORBIDDEN;
    if (found === URL_VALUED) kind = URL_VALUED;
  }
  return kind;
}

function kindOf(name: string): number {
  if (name === "style" || name === "srcdoc" || EVENT_HANDLER.test(name)) {
    return FORBIDDEN;
  }
  return URL_ATTRIBUTES.has(name) ? URL_VALUED : PLAIN;
}

/**
 * What a page key means to the page rules: {@linkcode FORBIDDEN}, one of the
 * rules' own names whatever its case ({@linkcode ID_KEY}, {@linkcode HREF_KEY},
 * {@linkcode SRC_KEY}, {@linkcode MEDIA_FIELD_KEY}), else its attribute kind
 * ({@linkcode URL_VALUED} or {@linkcode PLAIN}).
 *
 * @param key the key, sanitised
 * @returns the role
 */
export function keyRole(key: string): number {
  const kind = attributeKind(key);
  if (kind === FORBIDDEN) return FORBIDDEN;
  switch (key.length <= 6 ? key.toLowerCase() : "") {
    case "id":
      return ID_KEY;
    case "href":
      return HREF_KEY;
    case "src":
      return SRC_KEY;
    case "width":
    case "height":
    case "alt":
      return MEDIA_FIELD_KEY;
  }
  return kind;
}

/**
 * The text a value gets when a template writes it as an attribute value
 * (`String(value)`), for the values whose text an attacker can shape:
 * strings and lists (items joined by commas). Objects (`[object Object]`),
 * numbers, booleans and `null` have none.
 *
 * @param value a parsed JSON value
 * @returns the text, or `undefined`
 */
export function attributeText(value: unknown): string | undefined {
  if (typeof value === "string") return value;
  return Array.isArray(value) ? listText(value) : undefined;
}

function listText(items: readonly unknown[]): string {
  return items.map((item) =>
    item === null
      ? ""
      : Array.isArray(item)
      ? listText(item)
      : typeof item === "object"
      ? "[object Object]"
      : String(item)
  ).join(",");
}

/**
 * Why a key is refused as an attribute name ({@linkcode FORBIDDEN}), in
 * words naming the character or the attribute HTML reads it as.
 *
 * @param key the key, sanitised
 * @returns the reason, starting with a verb (`is read by HTML as …`)
 * @example
 * ```ts
 * import { forbiddenKeyWhy } from "./attribute_rule.ts";
 *
 * console.assert(forbiddenKeyWhy("onClick").includes("event handler"));
 * ```
 */
export function forbiddenKeyWhy(key: string): string {
  const character = NOT_IN_NAME.exec(key)?.[0];
  if (character !== undefined) {
    return `holds the character ${
      JSON.stringify(character)
    }, which can end an attribute name or carry a value in HTML`;
  }
  for (const part of key.toLowerCase().split(NAME_END)) {
    if (part === "style") {
      return `is read by HTML as the style attribute${
        part === key ? "" : ` (its part ${JSON.stringify(part)})`
      }`;
    }
    if (part === "srcdoc") {
      return "is read by HTML as srcdoc, a whole document";
    }
    if (EVENT_HANDLER.test(part)) {
      return `is read by HTML as the event handler ${part}`;
    }
  }
  return "is read by HTML as an attribute it refuses";
}
