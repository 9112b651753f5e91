/// <reference lib="dom" />
/**
 * The page's editable regions, made editable in place: each kind the
 * region contract edits in place (`lib/wire/regions.ts`) has its maker
 * here, by kind: plain text (`regions/text.ts`), rich text
 * (`regions/html.ts`, a Tiptap editor loaded lazily) and images
 * (`regions/image.ts`, replaced through the image dialog). A region shows
 * the values the state gives it and tells the controller what the person
 * does through {@linkcode RegionHooks}; it holds no value of its own.
 *
 * The rich text editor is a lazily loaded part (`rich_text.ts`): until a
 * rich text region is first focused, it is the site's own markup made
 * editable by the browser. The part is fetched when the pointer first comes
 * over such a region; on focus the editor takes the region's place, with
 * what was typed meanwhile and the caret where it was.
 *
 * @module
 */

import {
  IN_PLACE_KINDS,
  INPAGE_ATTRIBUTES,
  REGION_KINDS,
} from "../lib/wire/regions.ts";
import type { FieldKind } from "./state/fields.ts";
import { isWithin } from "./state/pointer.ts";
import type {
  Region,
  RegionHooks,
  RegionMaker,
  RegionPage,
} from "./regions/region.ts";
import { textRegion } from "./regions/text.ts";
import { htmlRegion } from "./regions/html.ts";
import { imageRegion } from "./regions/image.ts";

export type { Region, RegionHooks, RegionMaker, RegionPage };
export { loadRichText } from "./regions/rich_part.ts";

/** The maker of each kind edited in place. */
const MAKERS: Readonly<Partial<Record<FieldKind, RegionMaker>>> = {
  text: textRegion,
  html: htmlRegion,
  image: imageRegion,
};

/**
 * Makes every region of a page editable.
 *
 * @param page the page container and its stored values
 * @param hooks what the regions report to
 * @param refuse says which elements are left as they are (a pointer that
 *   names nothing, or a value of another kind)
 * @returns its regions
 */
export function mountRegions(
  page: RegionPage,
  hooks: RegionHooks,
  refuse: (
    element: HTMLElement,
    pointer: string,
    kind: FieldKind,
  ) => boolean = () => false,
): Region[] {
  const own = (element: Element) =>
    element.closest(`[${INPAGE_ATTRIBUTES.page}]`) === page.container;
  const scope = page.scope ?? page.container;
  const found = (name: string) =>
    [
      ...(scope.hasAttribute(name) ? [scope] : []),
      ...scope.querySelectorAll<HTMLElement>(`[${name}]`),
    ].filter(own);
  const regions: Region[] = [];
  for (const kind of IN_PLACE_KINDS) {
    const make = MAKERS[kind];
    const name = REGION_KINDS[kind].attribute;
    for (const element of make ? found(name) : []) {
      const pointer = element.getAttribute(name) ?? "";
      if (refuse(element, pointer, kind)) continue;
      regions.push(make!(page, element, pointer, hooks));
    }
  }
  return regions;
}

/**
 * The region holding the place a problem names: the one whose pointer is
 * `at` or its longest prefix.
 *
 * @param regions the page's regions
 * @param at the problem's JSON Pointer
 * @returns the region, if any
 */
export function findRegion(
  regions: readonly Region[],
  at: string,
): Region | undefined {
  let best: Region | undefined;
  for (const region of regions) {
    if (
      isWithin(at, region.pointer) &&
      (!best || region.pointer.length > best.pointer.length)
    ) best = region;
  }
  return best;
}
