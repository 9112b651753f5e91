/// <reference lib="dom" />
/**
 * Rich text as the page may show it, through the page rules' own allowlist
 * (`lib/pages/markup_rule.ts`, one module for the server and the overlay):
 * a value the markup rule accepts goes in as it is; of any other, only the
 * allowed tags and attributes are kept. Shared by the rich text editor
 * (`rich_text.ts`) and the preview of a review (`preview/mode.ts`), which
 * puts a review's values into the live page.
 *
 * @example
 * ```ts ignore
 * import { allowedMarkup } from "./allowed_markup.ts";
 *
 * allowedMarkup('<p>Hi<img src="x" onerror="alert(1)"></p>'); // "<p>Hi</p>"
 * ```
 *
 * @module
 */

import {
  isSafeMarkup,
  MARKUP_ATTRIBUTES,
  MARKUP_TAGS,
} from "../lib/pages/markup_rule.ts";

/** Elements dropped whole, their text too (it is code, not words). */
const DROPPED = new Set([
  "script",
  "style",
  "template",
  "textarea",
  "title",
  "iframe",
  "object",
  "embed",
  "noscript",
  "noembed",
  "noframes",
  "xmp",
  "plaintext",
  "select",
  "svg",
  "math",
]);
const TAGS = new Set(MARKUP_TAGS);

/**
 * A value as the page may show it: as it is when the page rules' markup
 * rule accepts it; else read in an inert template and kept to the same
 * allowlist: an element outside it gives way to its children (or goes
 * whole, {@linkcode DROPPED}), every attribute outside it goes, and
 * comments go. Walked without recursion.
 *
 * @param value a rich text value
 * @returns markup holding only allowed tags and attributes
 */
export function allowedMarkup(value: string): string {
  if (isSafeMarkup(value)) return value;
  const template = document.createElement("template");
  template.innerHTML = value;
  const walk = [...template.content.childNodes];
  for (let node = walk.pop(); node; node = walk.pop()) {
    if (node instanceof Element) {
      const name = node.localName;
      if (DROPPED.has(name)) {
        node.remove();
        continue;
      }
      walk.push(...node.childNodes);
      if (!TAGS.has(name) || node.namespaceURI !== document.body.namespaceURI) {
        node.replaceWith(...node.childNodes);
        continue;
      }
      const allowed = MARKUP_ATTRIBUTES[name] ?? [];
      for (const attribute of [...node.attributes]) {
        if (!allowed.includes(attribute.name)) {
          node.removeAttribute(attribute.name);
        }
      }
    } else if (node.nodeType !== Node.TEXT_NODE) {
      node.parentNode?.removeChild(node);
    }
  }
  return template.innerHTML;
}
