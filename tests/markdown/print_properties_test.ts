/**
 * The markdown engine's printer as properties over random editor documents
 * (text full of markdown's own characters, every mark, line breaks,
 * headings, quotes and lists three levels deep): any document is written
 * as markdown that reads back as the same document, and what the engine
 * gives the editor is already canonical.
 */
import assert from "node:assert/strict";
import fc from "fast-check";
import { openMarkdown, writeMarkdown } from "../../lib/markdown/mod.ts";
import { normaliseBlocks } from "../../lib/markdown/normalise.ts";
import { editorBlock, editorDoc } from "./arbitrary.ts";
import { propertyRuns } from "../support/runs.ts";

Deno.test("any editor document is written as markdown that reads back as the same document", () => {
  fc.assert(
    fc.property(editorDoc, (doc) => {
      const written = writeMarkdown(openMarkdown(""), doc);
      const back = openMarkdown(written);
      assert.ok(back.blocks.every((block) => block.editable), written);
      assert.deepEqual(
        back.blocks.map((block) => block.node),
        normaliseBlocks(doc.content ?? []),
        written,
      );
      // Written again unchanged, it is the same text.
      assert.equal(writeMarkdown(back, back.doc), written);
    }),
    { numRuns: propertyRuns(300) },
  );
});

Deno.test("the canonical form is canonical: normalising twice is normalising once", () => {
  fc.assert(
    fc.property(fc.array(editorBlock, { maxLength: 4 }), (blocks) => {
      const once = normaliseBlocks(blocks);
      assert.deepEqual(normaliseBlocks(once), once);
    }),
    { numRuns: propertyRuns(500) },
  );
});
