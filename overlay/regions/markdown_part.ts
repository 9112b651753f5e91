/**
 * The markdown editor (`../markdown_text.ts`), which lives in the rich
 * text part (`../rich_text.ts`, loaded by `./rich_part.ts`): one
 * self-contained file for Tiptap, the markdown engine and markdown-it, so
 * that a retry after a failure (`?retry=N`) fetches everything again.
 *
 * @module
 */

import { loadRichText } from "./rich_part.ts";

/**
 * Loads the markdown editor: at most once, and again after a failure.
 *
 * @returns its module's exports
 */
export async function loadMarkdownText(): Promise<
  Pick<typeof import("../markdown_text.ts"), "createMarkdownText">
> {
  return await loadRichText();
}
