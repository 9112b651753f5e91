/// <reference lib="dom" />
/**
 * What a region is, for the overlay: its kind, pointer and element, how it
 * shows a value, and what it tells the controller (its hooks). The makers
 * of each kind (`text.ts`, `html.ts`, `image.ts`) make one; `../regions.ts`
 * finds the elements and calls them.
 *
 * @module
 */

import type { RichText } from "../rich_text.ts";

/** A page container and the values its file holds as read. */
export interface RegionPage {
  /** The page path, from `data-inpage-page`. */
  path: string;
  /** The element holding its regions. */
  container: HTMLElement;
  /** The value at a pointer as read from the file. */
  stored(pointer: string): unknown;
  /** Where to look for regions (itself included); default: the container. */
  scope?: HTMLElement;
}

/** One editable region. */
export interface Region {
  /** Which kind of region it is. */
  kind: "text" | "html" | "image";
  /** Its JSON Pointer into the page file. */
  pointer: string;
  /** The page's element. */
  element: HTMLElement;
  /** The page path it belongs to. */
  path: string;
  /** Shows a value without counting it as an edit (when it differs). */
  show(value: unknown): void;
  /** Makes the element plain again. */
  destroy(): void;
  /** Points the region at another field (its list item moved). */
  repoint(pointer: string): void;
  /** The editor of a rich-text region, once loaded. */
  rich?: RichText;
  /**
   * For a rich-text region: editable or read-only, before and after its
   * editor is loaded.
   */
  setEditable?(on: boolean): void;
  /**
   * For an image region: shows a chosen image itself (an object URL) until
   * the site renders the published one its own way.
   */
  preview?(image: Blob, src: string): void;
  /**
   * For an image region: a chosen image named `from` (its object URL) is
   * stored as `to`; a value naming `to` goes on showing the chosen image,
   * since the site may serve its file only once it is built again.
   */
  alias?(from: string, to: string): void;
}

/** What regions tell the controller. */
export interface RegionHooks {
  /** A region's value was typed (or went back to the stored one). */
  typed(region: Region, value: unknown): void;
  /** A region gained the focus (a rich-text one before its editor). */
  focus(region: Region): void;
  /** A region lost the focus. */
  blur(region: Region): void;
  /** A rich-text region's editor gained focus. */
  richFocus(region: Region): void;
  /** The selection of a rich-text region changed. */
  richSelection(region: Region): void;
  /** Alt+F10 in a rich-text region. */
  richToolbar(region: Region): void;
  /** Ctrl+K in a rich-text region. */
  richLink(region: Region): void;
  /** The rich text editor could not be loaded (it is tried again). */
  richUnavailable(region: Region): void;
  /** A rich-text region's editor took its place. */
  richReady(region: Region): void;
  /** An image region asks for a new image. */
  replaceImage(region: Region, image: HTMLImageElement | null): void;
  /**
   * A region's accessible name, in words the views choose ("Edit heading,
   * section 2"), from its kind and where its element stands.
   */
  label(kind: Region["kind"], element: Element): string;
}

/** Makes one region of an element marked with its pointer. */
export type RegionMaker = (
  page: RegionPage,
  element: HTMLElement,
  pointer: string,
  hooks: RegionHooks,
) => Region;
