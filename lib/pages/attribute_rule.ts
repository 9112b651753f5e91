/**
 * The attribute-name rule: page keys read as HTML attribute names. Templates
 * spread page objects onto elements (`<a {...link}>` in Astro and JSX), so a
 * key becomes an attribute name, which HTML reads without regard to ASCII
 * case, and which a template engine that does not check names may split
 * where the HTML tokenizer ends an attribute name (white space, `/`, `>`,
 * `=`). Each part of a key so split, lowercased, is judged:
 *
 * - `style`, and every event-handler name (`on` followed by a letter: the
 *   HTML standard's `onclick`, `onerror`, … and the ones browsers add over
 *   time), are refused as keys, whatever their value.
 * - A URL-bearing attribute name (`href`, `src`, `srcset`, `action`,
 *   `formaction`, `xlink:href`, `poster`, `cite`, `data`, `background`,
 *   `ping`, …) makes a string value pass the link rule (`link_rule.ts`). The
 *   exact key `src` keeps the media rule instead, and `href` its own check.
 *
 * @module
 */

/** What a key is as an attribute name. */
export const PLAIN = 0;
/** A key refused: `style` or an event handler. */
export const FORBIDDEN = 1;
/** A key whose string value must pass the link rule. */
export const URL_VALUED = 2;

/**
 * Attribute names whose value is a URL somewhere in HTML, SVG or MathML,
 * including obsolete ones that browsers still honour.
 */
const URL_ATTRIBUTES: ReadonlySet<string> = new Set([
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
  let kind = PLAIN;
  for (const part of key.toLowerCase().split(NAME_END)) {
    const found = kindOf(part);
    if (found === FORBIDDEN) return FORBIDDEN;
    if (found === URL_VALUED) kind = URL_VALUED;
  }
  return kind;
}

function kindOf(name: string): number {
  if (name === "style" || EVENT_HANDLER.test(name)) return FORBIDDEN;
  return URL_ATTRIBUTES.has(name) ? URL_VALUED : PLAIN;
}
