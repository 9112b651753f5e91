/**
 * Characters of a markdown region's editable text made a position of its
 * editor's document (`overlay/markdown/text_position.ts`), counted as the
 * dormant region counts them: each step between blocks counts one, so the
 * start of a block is not the end of the block before it. Documents are
 * opened by the markdown engine, as the editor opens them.
 */
import assert from "node:assert/strict";
import { getSchema } from "@tiptap/core";
import { Node as PmNode } from "@tiptap/pm/model";
import { openMarkdown } from "../../lib/markdown/mod.ts";
import { markdownExtensions } from "../../overlay/markdown/schema.ts";
import { blockTextPosition } from "../../overlay/markdown/text_position.ts";

const schema = getSchema(markdownExtensions());

/** The editor's document of a markdown string. */
const open = (markdown: string) =>
  PmNode.fromJSON(schema, openMarkdown(markdown).doc);

/** The text around a position: `before|after` within its block. */
function at(doc: PmNode, position: number): string {
  const $pos = doc.resolve(position);
  const text = $pos.parent.textContent;
  return `${text.slice(0, $pos.parentOffset)}|${text.slice($pos.parentOffset)}`;
}

Deno.test("the end of a block and the start of the next are one apart", () => {
  const doc = open("One *two*\n\nThree\n");
  assert.equal(at(doc, blockTextPosition(doc, 0)), "|One two");
  assert.equal(at(doc, blockTextPosition(doc, 5)), "One t|wo");
  assert.equal(at(doc, blockTextPosition(doc, 7)), "One two|");
  assert.equal(at(doc, blockTextPosition(doc, 8)), "|Three");
  assert.equal(at(doc, blockTextPosition(doc, 13)), "Three|");
});

Deno.test("headings, list items and nested lists are blocks each; a block kept as written counts nothing", () => {
  const doc = open(
    "# Title\n\n- a\n- b\n  - c\n\n```js\nkept();\n```\n\n> quoted\n",
  );
  // "Title" 0–5, "a" 6–7, "b" 8–9, "c" 10–11, "quoted" 12–18.
  assert.equal(at(doc, blockTextPosition(doc, 5)), "Title|");
  assert.equal(at(doc, blockTextPosition(doc, 6)), "|a");
  assert.equal(at(doc, blockTextPosition(doc, 8)), "|b");
  assert.equal(at(doc, blockTextPosition(doc, 10)), "|c");
  assert.equal(at(doc, blockTextPosition(doc, 11)), "c|");
  assert.equal(at(doc, blockTextPosition(doc, 12)), "|quoted");
});

Deno.test("an empty block is a place of its own, and past the end is the end", () => {
  const doc = schema.nodeFromJSON({
    type: "doc",
    content: [
      { type: "paragraph", content: [{ type: "text", text: "One" }] },
      { type: "paragraph" },
      { type: "paragraph", content: [{ type: "text", text: "Two" }] },
    ],
  });
  assert.equal(blockTextPosition(doc, 4), 6, "inside the empty paragraph");
  assert.equal(at(doc, blockTextPosition(doc, 5)), "|Two");
  assert.equal(at(doc, blockTextPosition(doc, 99)), "Two|");
});
