/**
 * The rich text editor (`../rich_text.ts`, Tiptap and ProseMirror, most of
 * the overlay's bytes), a lazily loaded part: fetched when a rich text
 * region is first approached, and fetched again after a failure, under a
 * URL of its own (`?retry=N`, see `../lazy_part.ts`).
 *
 * @module
 */

import { lazyPart } from "../lazy_part.ts";

/**
 * Loads the rich text editor: at most once, and again after a failure.
 *
 * @returns the part
 */
export const loadRichText: () => Promise<typeof import("../rich_text.ts")> =
  lazyPart(() => import("../rich_text.ts"), import.meta.url);
