/**
 * The markdown region's editor schema (`overlay/markdown/schema.ts`) with
 * the markdown engine, without a browser: every document of the markdown
 * corpus goes into the editor's schema and comes back out (`toJSON`, as
 * `editor.getJSON()` gives it) written byte for byte, so opening and
 * leaving a region writes nothing; an edit made as the editor makes it (a
 * ProseMirror transaction: a word made bold, a list item split off, list
 * items swapped) rewrites that block alone, every other block
 * byte-identical.
 */
import assert from "node:assert/strict";
import { getSchema } from "@tiptap/core";
import { Fragment, Node as PmNode, type Schema, Slice } from "@tiptap/pm/model";
import { EditorState, TextSelection } from "@tiptap/pm/state";
import { splitListItem } from "@tiptap/pm/schema-list";
import {
  type EditorNode,
  type MarkdownDocument,
  openMarkdown,
  writeMarkdown,
} from "../../lib/markdown/mod.ts";
import { markdownExtensions } from "../../overlay/markdown/schema.ts";
import { markdownCorpus } from "../markdown/corpus.ts";

const schema: Schema = getSchema(markdownExtensions());
const corpus = await markdownCorpus();

/** The editor's document of a markdown string, checked against the schema. */
function load(opened: MarkdownDocument): PmNode {
  const node = PmNode.fromJSON(schema, opened.doc);
  node.check();
  return node;
}

/** The text of each block of a written string, as opened again. */
function blockSources(markdown: string): string[] {
  return openMarkdown(markdown).blocks.map((block) => block.source);
}

/** Asserts that only block `changed` differs between two strings. */
function assertOnlyBlock(before: string, after: string, changed: number) {
  const old = openMarkdown(before).blocks;
  const now = openMarkdown(after).blocks;
  assert.equal(now.length, old.length);
  now.forEach((block, i) => {
    if (i === changed) assert.notEqual(block.source, old[i]!.source);
    else {
      assert.equal(block.source, old[i]!.source, `block ${i}`);
      assert.equal(block.before, old[i]!.before, `the lines before block ${i}`);
    }
  });
  assert.equal(openMarkdown(after).after, openMarkdown(before).after);
}

/** The position just inside the start of top-level block `index`. */
function blockStart(doc: PmNode, index: number): number {
  let position = 0;
  for (let i = 0; i < index; i++) position += doc.child(i).nodeSize;
  return position + 1;
}

Deno.test("every corpus document goes through the editor's schema and is written back byte for byte", () => {
  let kept = 0;
  for (const { name, markdown } of corpus) {
    const opened = openMarkdown(markdown);
    const json = load(opened).toJSON() as EditorNode;
    assert.equal(writeMarkdown(opened, json), markdown, name);
    kept += opened.blocks.filter((block) => !block.editable).length;
  }
  assert.ok(corpus.length > 600, `${corpus.length} documents`);
  // The corpus holds blocks the editor cannot represent: they pass too.
  assert.ok(kept > 100, `${kept} kept blocks`);
});

Deno.test("the schema keeps every attribute the engine maps", () => {
  const source = [
    "## Two",
    "",
    "* star",
    "* list",
    "",
    "3) three",
    "4) four",
    "",
    '> quoted `code` and [a link](/x "Title")  ',
    "> next",
    "",
    "~~~",
    "kept",
    "~~~",
    "",
  ].join("\n");
  const opened = openMarkdown(source);
  const json = load(opened).toJSON() as EditorNode;
  const [heading, bullets, ordered, quote, fence] = json.content!;
  assert.equal(heading!.attrs!.level, 2);
  assert.equal(bullets!.attrs!.bullet, "*");
  assert.equal(bullets!.attrs!.tight, true);
  assert.deepEqual(
    [ordered!.attrs!.start, ordered!.attrs!.delimiter],
    [3, ")"],
  );
  assert.equal(quote!.type, "blockquote");
  const marks = JSON.stringify(quote);
  assert.match(marks, /"type":"code"/);
  assert.match(marks, /"href":"\/x","title":"Title"/);
  assert.match(marks, /"type":"hardBreak"/);
  assert.deepEqual({ ...fence!.attrs }, {
    source: "~~~\nkept\n~~~",
    kind: "code",
  });
  assert.equal(writeMarkdown(opened, json), source);
});

Deno.test("a word made bold rewrites its paragraph alone, on every corpus document that has one", () => {
  let edited = 0;
  for (const { name, markdown } of corpus.slice(0, 40)) {
    const opened = openMarkdown(markdown);
    const index = opened.blocks.findIndex((block) =>
      block.editable && block.kind === "paragraph" &&
      /^[A-Za-z]{3,}\b/.test(block.node.content?.[0]?.text ?? "") &&
      block.node.content?.[0]?.marks === undefined
    );
    if (index < 0) continue;
    const doc = load(opened);
    const from = blockStart(doc, index);
    const word = /^[A-Za-z]+/.exec(doc.child(index).firstChild!.text!)![0];
    const state = EditorState.create({ schema, doc });
    const tr = state.tr.addMark(
      from,
      from + word.length,
      schema.marks.bold!.create(),
    );
    const written = writeMarkdown(opened, tr.doc.toJSON() as EditorNode);
    assertOnlyBlock(markdown, written, index);
    assert.ok(
      blockSources(written)[index]!.includes(`**${word}**`),
      `${name}: ${blockSources(written)[index]}`,
    );
    edited++;
  }
  assert.ok(edited >= 10, `${edited} documents edited`);
});

Deno.test("a list item added with Enter adds its line and changes nothing else", () => {
  const source =
    "Intro *here*.\n\n- one\n- two\n\n```\ncode\n```\n\n  Last words.\n";
  const opened = openMarkdown(source);
  const doc = load(opened);
  // The caret at the end of "two", then Enter, then text typed.
  const list = doc.child(1);
  const end = blockStart(doc, 1) + list.content.size - 2;
  let state = EditorState.create({ schema, doc });
  state = state.apply(state.tr.setSelection(TextSelection.create(doc, end)));
  splitListItem(schema.nodes.listItem!)(state, (tr) => {
    state = state.apply(tr);
  });
  state = state.apply(state.tr.insertText("three"));
  const written = writeMarkdown(opened, state.doc.toJSON() as EditorNode);
  assert.equal(
    written,
    "Intro *here*.\n\n- one\n- two\n- three\n\n```\ncode\n```\n\n  Last words.\n",
  );
});

Deno.test("list items swapped keep their lines as written", () => {
  const source = "Text.\n\n1) first  item\n2) second\n3) third\n";
  const opened = openMarkdown(source);
  const doc = load(opened);
  const list = doc.child(1);
  const items = [list.child(1), list.child(0), list.child(2)];
  const swapped = doc.replace(
    blockStart(doc, 1),
    blockStart(doc, 1) + list.content.size,
    new Slice(Fragment.from(items), 0, 0),
  );
  const written = writeMarkdown(opened, swapped.toJSON() as EditorNode);
  assert.equal(written, "Text.\n\n1) second\n2) first  item\n3) third\n");
});

Deno.test("nothing edited, nothing written: the stored string comes back as it was", () => {
  const source = "Para\none.\n\n\n\n* a\n\n* b\n\n<div>\nraw\n</div>\n\n";
  const opened = openMarkdown(source);
  const json = load(opened).toJSON() as EditorNode;
  assert.equal(writeMarkdown(opened, json), source);
});
