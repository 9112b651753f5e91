/// <reference lib="dom" />
/**
 * An image region (`data-inpage-image`): a click, Enter or Space asks the
 * controller for a new image (the image dialog). It shows the value the
 * state gives it: the image as the site rendered it while the value names
 * the stored image, a chosen image from its own object URL, a published
 * one under its stored name (the site may serve its file only once it is
 * built again), and always the value's `alt`.
 *
 * @module
 */

import { IMAGES_FOLDER, INPAGE_ATTRIBUTES } from "../../lib/wire/names.ts";
import type { Region, RegionHooks, RegionMaker } from "./region.ts";

/** The image as the site rendered it, to show again. */
function rendered(image: HTMLImageElement | null) {
  const sources = image?.parentElement instanceof HTMLPictureElement
    ? [...image.parentElement.querySelectorAll("source")]
    : [];
  const attributes = ["src", "srcset", "sizes"].map((name) =>
    [name, image?.getAttribute(name) ?? null] as const
  );
  const srcsets = sources.map((source) => source.getAttribute("srcset"));
  return {
    /** Shows the image as the site rendered it. */
    show() {
      if (!image) return;
      for (const [name, value] of attributes) {
        if (value === null) image.removeAttribute(name);
        else image.setAttribute(name, value);
      }
      sources.forEach((source, index) => {
        const srcset = srcsets[index];
        if (srcset !== null && srcset !== undefined) {
          source.setAttribute("srcset", srcset);
        }
      });
      image.removeAttribute(INPAGE_ATTRIBUTES.src);
    },
    /** Shows another image, named `src` in the value. */
    showUrl(url: string, src: string) {
      if (!image) return;
      // A responsive image would keep showing the candidates it names.
      image.removeAttribute("srcset");
      image.removeAttribute("sizes");
      for (const source of sources) source.removeAttribute("srcset");
      image.src = url;
      image.setAttribute(INPAGE_ATTRIBUTES.src, src);
    },
  };
}

/**
 * Where the site serves an image by its stored name: beside the rendered
 * image when its address ends with the stored name, else under /images/
 * (an image component's own address says nothing of it).
 */
function folderOf(image: HTMLImageElement | null, storedSrc: unknown): URL {
  const renderedSrc = new URL(image?.getAttribute("src") ?? "", location.href);
  return typeof storedSrc === "string" &&
      renderedSrc.pathname.endsWith(`/${storedSrc}`)
    ? renderedSrc
    : new URL(`/${IMAGES_FOLDER.replace(/^public\//, "")}/`, location.href);
}

/** Names an image region for a person. */
function label(hooks: RegionHooks, element: HTMLElement): void {
  element.setAttribute("aria-label", hooks.label("image", element));
}

/** A click, Enter or Space asks for a new image. */
function listen(
  element: HTMLElement,
  hooks: { ask(): void; focus(): void },
): () => void {
  const ask = (event: Event) => {
    if (
      event instanceof KeyboardEvent && event.key !== "Enter" &&
      event.key !== " "
    ) return;
    event.preventDefault();
    hooks.ask();
  };
  const focus = () => hooks.focus();
  element.addEventListener("click", ask);
  element.addEventListener("keydown", ask);
  element.addEventListener("focus", focus);
  return () => {
    element.removeEventListener("click", ask);
    element.removeEventListener("keydown", ask);
    element.removeEventListener("focus", focus);
  };
}

/** Makes an image region. */
export const imageRegion: RegionMaker = (page, element, pointer, hooks) => {
  const image = element instanceof HTMLImageElement
    ? element
    : element.querySelector("img");
  element.tabIndex = 0;
  element.setAttribute("role", "button");
  label(hooks, element);
  const stop = listen(element, {
    ask: () => hooks.replaceImage(region, image),
    focus: () => hooks.focus(region),
  });
  /** The chosen images shown, by the name they are stored under. */
  const previews = new Map<string, string>();
  const stored = page.stored(pointer);
  const storedSrc = typeof stored === "object" && stored !== null
    ? (stored as Record<string, unknown>).src
    : undefined;
  const folder = folderOf(image, storedSrc);
  const site = rendered(image);
  const region: Region = {
    kind: "image",
    pointer,
    element,
    path: page.path,
    show(next) {
      if (!image || typeof next !== "object" || next === null) return;
      const media = next as Record<string, unknown>;
      if (media.src === storedSrc) {
        if (image.hasAttribute(INPAGE_ATTRIBUTES.src)) site.show();
      } else if (
        typeof media.src === "string" &&
        image.getAttribute(INPAGE_ATTRIBUTES.src) !== media.src
      ) {
        site.showUrl(
          previews.get(media.src) ?? new URL(media.src, folder).href,
          media.src,
        );
      }
      if (typeof media.alt === "string" && image.alt !== media.alt) {
        image.alt = media.alt;
      }
    },
    preview(chosen, src) {
      // The region's own object URL: the chosen image's is revoked once
      // the image is published.
      const url = previews.get(src) ?? URL.createObjectURL(chosen);
      previews.set(src, url);
      site.showUrl(url, src);
    },
    alias(from, to) {
      const url = previews.get(from);
      if (url !== undefined) previews.set(to, url);
      if (image?.getAttribute(INPAGE_ATTRIBUTES.src) === from) {
        image.setAttribute(INPAGE_ATTRIBUTES.src, to);
      }
    },
    destroy() {
      for (const url of new Set(previews.values())) URL.revokeObjectURL(url);
      stop();
    },
    repoint(next) {
      region.pointer = next;
      label(hooks, element);
    },
  };
  return region;
};
