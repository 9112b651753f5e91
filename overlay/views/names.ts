/// <reference lib="dom" />
/**
 * A field's name for a person, from the page rather than its pointer: the
 * kind of element that shows it (a heading, a paragraph, a button's text)
 * and, inside a list item, which one ("heading, section 2"). Regions are
 * named so for screen readers ("Edit heading, section 2"), and the
 * problems, dialogs and History list name fields the same way; a field no
 * region shows (a page field) is named from its pointer.
 *
 * @module
 */

import { INPAGE_ATTRIBUTES } from "../../lib/wire/regions.ts";
import { text, type TextKey } from "../i18n/mod.ts";
import { fieldName, itemNoun } from "./words.ts";

/** The word for each kind of element. */
const WORDS: ReadonlyArray<[RegExp, TextKey]> = [
  [/^H1$/, "wordTitle"],
  [/^H[2-6]$/, "wordHeading"],
  [/^P$/, "wordParagraph"],
  [/^A$/, "wordLinkText"],
  [/^BUTTON$/, "wordButtonText"],
  [/^LI$/, "wordListItem"],
  [/^(?:FIGCAPTION|CAPTION)$/, "wordCaption"],
  [/^(?:BLOCKQUOTE|Q)$/, "wordQuote"],
  [/^(?:IMG|PICTURE|FIGURE)$/, "wordImage"],
];

/**
 * What an element is, in a word.
 *
 * @param element the region's element
 * @returns "heading", "paragraph", "link text", … or "text"
 */
export function elementWord(element: Element): string {
  const found = WORDS.find(([tag]) => tag.test(element.tagName));
  if (found) return text(found[1]);
  if (element.querySelector("img")) return text("wordImage");
  return text("wordText");
}

/**
 * The list item an element is in (itself included): its noun and its
 * position, from 1.
 *
 * @param element an element of the page
 * @returns the item's noun and position, if it is in one
 */
export function placeOf(
  element: Element,
): { noun: string; position: number } | undefined {
  const item = element.closest(`[${INPAGE_ATTRIBUTES.item}]`);
  const pointer = item?.getAttribute(INPAGE_ATTRIBUTES.item) ?? "";
  const cut = pointer.lastIndexOf("/");
  const index = Number(pointer.slice(cut + 1));
  if (!item || cut < 0 || !Number.isInteger(index)) return undefined;
  return { noun: itemNoun(pointer.slice(0, cut)), position: index + 1 };
}

/**
 * A region's name for a person: what it is and where.
 *
 * @param element the region's element
 * @param word what it is, when not its element's word (a link object)
 * @returns such as "heading, section 2"
 */
export function regionName(element: Element, word?: string): string {
  const field = word ?? elementWord(element);
  const place = placeOf(element);
  return place ? text("fieldIn", { field, ...place }) : field;
}

/**
 * A field's name, capitalised, for lists and dialogs: the name of the
 * region showing it, or else of its pointer.
 *
 * @param element the element showing the field, if any
 * @param pointer the field's pointer
 * @returns such as "Heading, section 2" or "Description"
 */
export function fieldLabel(
  element: Element | undefined,
  pointer: string,
): string {
  const link = element?.getAttribute(INPAGE_ATTRIBUTES.link);
  const isLink = link !== null && link !== undefined &&
    (pointer === link || pointer.startsWith(`${link}/`));
  const name = element
    ? regionName(element, isLink ? text("wordLink") : undefined)
    : fieldName(pointer);
  return name.charAt(0).toUpperCase() + name.slice(1);
}

/** The words of each kind's accessible name. */
const LABELS: Readonly<Record<"text" | "html" | "image", TextKey>> = {
  text: "editField",
  html: "editRichField",
  image: "replaceImageField",
};

/**
 * A region's accessible name: what it does, to what, and where.
 *
 * @param kind the region's kind
 * @param element its element
 * @returns such as "Edit heading, section 2"
 */
export function regionLabel(
  kind: "text" | "html" | "image",
  element: Element,
): string {
  return text(LABELS[kind], { field: regionName(element) });
}
