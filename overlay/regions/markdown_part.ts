/**
 * The markdown editor (`../markdown_text.ts`: Tiptap, the markdown engine
 * and markdown-it), a lazily loaded part: fetched when a page holds a
 * markdown region, and fetched again after a failure, under a URL of its
 * own (`?retry=N`, see `../lazy_part.ts`).
 *
 * @module
 */

import { lazyPart } from "../lazy_part.ts";

/**
 * Loads the markdown editor: at most once, and again after a failure.
 *
 * @returns the part
 */
export const loadMarkdownText: () => Promise<
  typeof import("../markdown_text.ts")
> = lazyPart(() => import("../markdown_text.ts"), import.meta.url);
