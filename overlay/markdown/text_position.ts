/**
 * Where a number of characters of a markdown region's editable text falls
 * in its editor's document, counted as the dormant region counts them
 * (`../regions/dormant_typing.ts`): the text of each block in order, each
 * step from one block to the next counting one, blocks kept as written
 * counting nothing. The start of a block is then not the end of the one
 * before it, and a caret placed there before the editor arrived, or a
 * word typed there, lands there.
 *
 * @module
 */

import type { Node as PmNode } from "@tiptap/pm/model";

/**
 * The document position after `offset` characters of editable text.
 *
 * @param doc the editor's document
 * @param offset characters of text, with one for each step between blocks
 * @returns the position; past the end, the end of the last block
 * @example
 * ```ts
 * import { getSchema } from "@tiptap/core";
 * import { markdownExtensions } from "./schema.ts";
 * import { blockTextPosition } from "./text_position.ts";
 * import assert from "node:assert/strict";
 *
 * const schema = getSchema(markdownExtensions());
 * const doc = schema.nodeFromJSON({
 *   type: "doc",
 *   content: [
 *     { type: "paragraph", content: [{ type: "text", text: "One" }] },
 *     { type: "paragraph", content: [{ type: "text", text: "Two" }] },
 *   ],
 * });
 * assert.equal(blockTextPosition(doc, 3), 4); // the end of "One"
 * assert.equal(blockTextPosition(doc, 4), 6); // the start of "Two"
 * ```
 */
export function blockTextPosition(doc: PmNode, offset: number): number {
  let left = offset;
  let found: number | undefined;
  let last: number | undefined;
  let first = true;
  doc.descendants((node, at) => {
    if (found !== undefined) return false;
    if (!node.isTextblock) return true;
    if (!first) left--;
    first = false;
    node.forEach((child, childOffset) => {
      if (found !== undefined || !child.isText) return;
      const length = child.text?.length ?? 0;
      if (left <= length) found = at + 1 + childOffset + Math.max(left, 0);
      else left -= length;
    });
    // An empty block, or one whose text ended before the point.
    if (found === undefined && left <= 0) found = at + 1;
    last = at + node.nodeSize - 1;
    return false;
  });
  return found ?? last ?? 0;
}
