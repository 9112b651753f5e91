/**
 * The rich text editor (`../rich_text.ts`, Tiptap and ProseMirror, most of
 * the overlay's bytes), a lazily loaded part: fetched when a rich text
 * region is first approached, and fetched again after a failure.
 *
 * @module
 */

/** The rich text editor, a lazily loaded part; loaded at most once. */
let richTextPart: Promise<typeof import("../rich_text.ts")> | undefined;

/**
 * Loads the rich text editor (again after a failure).
 *
 * @returns the part
 */
export function loadRichText(): Promise<typeof import("../rich_text.ts")> {
  richTextPart ??= import("../rich_text.ts").catch((error) => {
    richTextPart = undefined;
    throw error;
  });
  return richTextPart;
}
