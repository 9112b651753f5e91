/// <reference lib="dom" />
/**
 * The banner of a review's preview: at the top of the page, in a shadow
 * root of its own (the site's CSS does not reach it), it names the review,
 * its author and that it is not published; or says why the link shows the
 * published page. A landmark with an accessible name, its words in the
 * page's language.
 *
 * @module
 */

import { INPAGE_ATTRIBUTES as A } from "../../lib/wire/regions.ts";

const CSS = `
:host { all: initial; }
.banner { position: fixed; inset: 0 0 auto 0; z-index: 2147483647;
  font: 15px/1.4 system-ui, sans-serif; color: #1e1b4b; background: #eef2ff;
  border-bottom: 3px solid #6366f1; padding: 10px 16px;
  box-shadow: 0 2px 8px rgba(0,0,0,.15); }
.banner.refused { background: #fef2f2; color: #7f1d1d; border-color: #dc2626; }
strong { display: block; font-size: 16px; overflow-wrap: anywhere; }
p { margin: 4px 0 0; overflow-wrap: anywhere; }
`;

/** What the banner says: a title (optional) and sentences. */
export interface BannerWords {
  /** Its accessible name. */
  label: string;
  /** A first line, in bold. */
  title?: string | undefined;
  /** The sentences under it. */
  lines: readonly string[];
  /** Whether it says the link was refused. */
  refused?: boolean;
}

/**
 * Shows the banner, and keeps room for it above the page's own content.
 *
 * @param words what it says
 * @returns its host element
 */
export function showBanner(words: BannerWords): HTMLElement {
  const host = document.createElement("div");
  host.setAttribute(A.overlay, "preview");
  const root = host.attachShadow({ mode: "open" });
  const style = document.createElement("style");
  style.textContent = CSS;
  const banner = document.createElement("section");
  banner.className = words.refused ? "banner refused" : "banner";
  banner.setAttribute("aria-label", words.label);
  banner.setAttribute("role", "region");
  if (words.title !== undefined) {
    const title = document.createElement("strong");
    title.textContent = words.title;
    banner.append(title);
  }
  for (const line of words.lines) {
    const paragraph = document.createElement("p");
    paragraph.textContent = line;
    banner.append(paragraph);
  }
  root.append(style, banner);
  document.body.prepend(host);
  const room = () => {
    document.documentElement.style.scrollPaddingTop =
      `${banner.offsetHeight}px`;
    document.body.style.marginTop = `${banner.offsetHeight}px`;
  };
  room();
  new ResizeObserver(room).observe(banner);
  return host;
}
