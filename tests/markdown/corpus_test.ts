/**
 * The markdown engine on real documents (`tests/fixtures/markdown/`: the
 * Eleventy base blog, markdown-it's docs, the 655 CommonMark spec
 * examples): opened and written back with no edit, byte for byte; each
 * editable block, written anew, shows what its source showed; an edit to
 * one block leaves every other block byte-identical; random edits, moves,
 * insertions and deletions read back as made.
 */
import assert from "node:assert/strict";
import fc from "fast-check";
import {
  type EditorNode,
  type MarkdownDocument,
  MarkdownWriteError,
  openMarkdown,
  writeMarkdown,
} from "../../lib/markdown/mod.ts";
import { normaliseBlocks } from "../../lib/markdown/normalise.ts";
import { printBlock } from "../../lib/markdown/print.ts";
import { markdownCorpus } from "./corpus.ts";
import { editorBlock } from "./arbitrary.ts";
import { referencesOf, seen } from "./rendering.ts";
import { propertyRuns } from "../support/runs.ts";

const corpus = await markdownCorpus();

/** The source of the blocks before block `i`, and of those after it. */
function around(opened: MarkdownDocument, i: number) {
  const blocks = opened.blocks;
  return {
    before: blocks.slice(0, i).map((b) => b.before + b.source).join("") +
      blocks[i]!.before,
    after: blocks.slice(i + 1).map((b) => b.before + b.source).join("") +
      opened.after,
  };
}

/**
 * Asserts that markdown opens as these blocks: a kept block with its
 * source, any other as the same node.
 */
function assertReadsAs(written: string, nodes: EditorNode[], name: string) {
  const blocks = openMarkdown(written).blocks;
  assert.equal(
    blocks.length,
    nodes.length,
    `${name}: ${JSON.stringify(written)}`,
  );
  blocks.forEach((block, i) => {
    const node = nodes[i]!;
    if (node.type === "markdownBlock") {
      assert.equal(block.source, node.attrs!.source, name);
    } else {assert.deepEqual(
        block.node,
        node,
        `${name}: ${JSON.stringify(written)}`,
      );}
  });
}

/** Whether a kept block takes in whatever follows it. */
function runsToTheEnd(node: EditorNode): boolean {
  return openMarkdown(`${node.attrs!.source}\n\nfollowing`).blocks.length === 1;
}

/** One block changed: a word added, or an item or a paragraph added. */
function changed(node: EditorNode): EditorNode {
  const copy = structuredClone(node);
  const added: EditorNode = {
    type: "paragraph",
    content: [{ type: "text", text: "added" }],
  };
  if (copy.type === "paragraph" || copy.type === "heading") {
    copy.content = [...copy.content ?? [], { type: "text", text: " edited" }];
  } else if (copy.type === "blockquote") copy.content!.push(added);
  else copy.content!.push({ type: "listItem", content: [added] });
  return copy;
}

Deno.test("the corpus: 669 documents, opened and written back with no edit, are byte-identical", () => {
  assert.equal(corpus.length, 669);
  let editable = 0;
  let kept = 0;
  for (const { name, markdown } of corpus) {
    const opened = openMarkdown(markdown);
    assert.equal(
      opened.blocks.map((b) => b.before + b.source).join("") + opened.after,
      markdown,
      `${name}: the blocks and blank lines make the source`,
    );
    assert.equal(writeMarkdown(opened, opened.doc), markdown, name);
    for (const block of opened.blocks) block.editable ? editable++ : kept++;
  }
  // Most blocks can be edited; code, HTML, tables and the like are kept.
  assert.ok(editable > 700 && kept > 300, `${editable} editable, ${kept} kept`);
});

Deno.test("every editable block of the corpus, written anew, shows what its source showed", () => {
  for (const { name, markdown } of corpus) {
    const opened = openMarkdown(markdown);
    const env = referencesOf(markdown);
    for (const block of opened.blocks) {
      if (!block.editable) continue;
      assert.equal(
        seen(printBlock(block.node), env),
        seen(block.source, env),
        `${name}: ${JSON.stringify(block.source)}`,
      );
    }
  }
});

Deno.test("an edit to any one block of the corpus leaves every other block byte-identical", () => {
  const rewritten: string[] = [];
  let edits = 0;
  for (const { name, markdown } of corpus) {
    const opened = openMarkdown(markdown);
    opened.blocks.forEach((block, i) => {
      if (!block.editable) return;
      edits++;
      const doc = structuredClone(opened.doc);
      doc.content![i] = changed(block.node);
      const written = writeMarkdown(opened, doc);
      const { before, after } = around(opened, i);
      if (
        !written.startsWith(before) || !written.endsWith(after) ||
        written.length < before.length + after.length
      ) rewritten.push(`${name} block ${i}`);
      assertReadsAs(written, normaliseBlocks(doc.content!), name);
    });
  }
  assert.ok(edits > 700);
  // The one exception: an item added after an empty item (`-`) would take
  // in the paragraph indented under it (`  foo`), which is written anew.
  assert.deepEqual(rewritten, ["spec 282 block 0"]);
});

/** An edit of a document: blocks replaced, added, removed or moved. */
const edit = fc.oneof(
  fc.record({ kind: fc.constant("replace"), at: fc.nat(), block: editorBlock }),
  fc.record({ kind: fc.constant("insert"), at: fc.nat(), block: editorBlock }),
  fc.record({ kind: fc.constant("delete"), at: fc.nat() }),
  fc.record({ kind: fc.constant("move"), at: fc.nat(), to: fc.nat() }),
);

Deno.test("random edits of corpus documents read back as made, and blocks left alone keep their bytes", () => {
  const documents = corpus.filter(({ markdown }) => markdown.length > 0);
  fc.assert(
    fc.property(
      fc.constantFrom(...documents),
      fc.array(edit, { minLength: 1, maxLength: 3 }),
      ({ name, markdown }, edits) => {
        const opened = openMarkdown(markdown);
        const content = [...opened.doc.content!];
        const untouched = new Set(content);
        for (const change of edits) {
          const at = change.at % (content.length + 1);
          if (change.kind === "insert") content.splice(at, 0, change.block);
          else if (content.length === 0) continue;
          else if (change.kind === "replace") {
            content[at % content.length] = change.block;
          } else if (change.kind === "delete") {
            content.splice(at % content.length, 1);
          } else {
            const [moved] = content.splice(at % content.length, 1);
            content.splice(change.to % (content.length + 1), 0, moved!);
          }
        }
        const doc = { type: "doc", content };
        let written: string;
        try {
          written = writeMarkdown(opened, doc);
        } catch (error) {
          // Refused only when a block kept as written cannot stand where it
          // is now: a block follows one that runs to the end (a code fence
          // never closed), or one indented (indented code) follows another.
          assert.ok(error instanceof MarkdownWriteError);
          assert.ok(
            content.some((node, i) =>
              node.type === "markdownBlock" &&
              ((i < content.length - 1 && runsToTheEnd(node)) ||
                (i > 0 && /^[ \t]/.test(String(node.attrs!.source))))
            ),
            `${name}: ${JSON.stringify(content)}`,
          );
          return;
        }
        // Front matter goes first, wherever it was moved.
        const front = content.filter((node) =>
          node.attrs?.kind === "front_matter"
        );
        const rest = content.filter((node) => !front.includes(node));
        assertReadsAs(written, normaliseBlocks([...front, ...rest]), name);
        // A block kept as it was (code, HTML, a table) is still written as
        // it was, wherever it went.
        for (const node of content) {
          if (untouched.has(node) && node.type === "markdownBlock") {
            assert.ok(
              written.includes(String(node.attrs!.source)),
              `${name}: ${JSON.stringify(node.attrs!.source)} kept`,
            );
          }
        }
      },
    ),
    { numRuns: propertyRuns(300) },
  );
});
