/**
 * The markdown engine, case by case: which blocks the editor gets, and what
 * a write-back changes, line by line, for the edits people make (a word made
 * bold, an item added, items reordered, a block moved or deleted).
 */
import assert from "node:assert/strict";
import {
  type EditorNode,
  looksLikeMarkdown,
  MarkdownWriteError,
  openMarkdown,
  writeMarkdown,
} from "../../lib/markdown/mod.ts";
import { commonPairs } from "../../lib/markdown/write.ts";

/** The lines a write removed and added, as a line diff shows them. */
function diff(before: string, after: string) {
  const a = before.split("\n");
  const b = after.split("\n");
  const pairs = commonPairs(a, b);
  const keptA = new Set(pairs.map(([i]) => i));
  const keptB = new Set(pairs.map(([, j]) => j));
  return {
    removed: a.filter((_, i) => !keptA.has(i)),
    added: b.filter((_, j) => !keptB.has(j)),
  };
}

/** The document with one top-level node replaced. */
function withBlock(doc: EditorNode, at: number, node: EditorNode): EditorNode {
  const content = [...doc.content!];
  content[at] = node;
  return { ...doc, content };
}

const text = (value: string, ...marks: string[]): EditorNode =>
  marks.length > 0
    ? { type: "text", text: value, marks: marks.map((type) => ({ type })) }
    : { type: "text", text: value };
const paragraph = (...content: EditorNode[]): EditorNode => ({
  type: "paragraph",
  content,
});
const item = (...content: EditorNode[]): EditorNode => ({
  type: "listItem",
  content: [paragraph(...content)],
});

const POST = `---
title: A post
---
Setext title
============

Leverage agile frameworks to provide
a robust synopsis for *high level* overviews.

* First point
* Second point, with [a link](/en/about/ "About")
* Third point

1. One
1. Two

| a | b |
|---|---|
| 1 | 2 |

\`\`\`js
run();
\`\`\`

<div class="note">Raw HTML</div>

> A quote with \`code\`.

![A possum](possum.png)

See the note[^1] and [the docs][docs].

[docs]: https://example.com/docs
[^1]: The note.
`;

Deno.test("opening a post: each block's kind and source, editable or kept as written", () => {
  const opened = openMarkdown(POST);
  assert.deepEqual(
    opened.blocks.map((b) => [b.kind, b.editable]),
    [
      ["front_matter", false],
      ["heading", true],
      ["paragraph", true],
      ["bullet_list", true],
      ["ordered_list", true],
      ["table", false],
      ["code", false],
      ["html", false],
      ["blockquote", true],
      ["paragraph", false], // an image
      ["paragraph", false], // a footnote
      ["reference", false],
      ["footnote", false],
    ],
  );
  assert.equal(opened.blocks[1]!.source, "Setext title\n============");
  assert.equal(opened.blocks[11]!.source, "[docs]: https://example.com/docs");
  assert.deepEqual(opened.blocks[6]!.node, {
    type: "markdownBlock",
    attrs: { source: "```js\nrun();\n```", kind: "code" },
  });
  assert.deepEqual(opened.blocks[3]!.node.attrs, { bullet: "*", tight: true });
  assert.deepEqual(opened.blocks[4]!.node.attrs, {
    start: 1,
    delimiter: ".",
    tight: true,
  });
  assert.deepEqual(opened.doc.content, opened.blocks.map((b) => b.node));
  assert.equal(writeMarkdown(opened, opened.doc), POST);
});

Deno.test("a word made bold changes that paragraph's lines and nothing else", () => {
  const opened = openMarkdown(POST);
  const edited = withBlock(
    opened.doc,
    2,
    paragraph(
      text("Leverage "),
      text("agile", "bold"),
      text(" frameworks to provide a robust synopsis for "),
      text("high level", "italic"),
      text(" overviews."),
    ),
  );
  const written = writeMarkdown(opened, edited);
  assert.deepEqual(diff(POST, written), {
    removed: [
      "Leverage agile frameworks to provide",
      "a robust synopsis for *high level* overviews.",
    ],
    added: [
      "Leverage **agile** frameworks to provide a robust synopsis for *high level* overviews.",
    ],
  });
});

Deno.test("an item added to a list adds its line: the other items keep their bytes", () => {
  const opened = openMarkdown(POST);
  const list = opened.blocks[3]!.node;
  const content = [...list.content!];
  content.splice(2, 0, item(text("A new point")));
  const written = writeMarkdown(
    opened,
    withBlock(opened.doc, 3, { ...list, content }),
  );
  assert.deepEqual(diff(POST, written), {
    removed: [],
    added: ["* A new point"],
  });
});

Deno.test("items reordered: each item moves with its bytes", () => {
  const opened = openMarkdown(POST);
  const list = opened.blocks[3]!.node;
  const [first, second, third] = list.content!;
  const written = writeMarkdown(
    opened,
    withBlock(opened.doc, 3, { ...list, content: [third!, first!, second!] }),
  );
  assert.ok(
    written.includes(
      '* Third point\n* First point\n* Second point, with [a link](/en/about/ "About")\n',
    ),
    written,
  );
  assert.deepEqual(diff(POST, written), {
    removed: ["* Third point"],
    added: ["* Third point"],
  });
});

Deno.test("a numbered list goes on numbering as it did", () => {
  const opened = openMarkdown(POST);
  const list = opened.blocks[4]!.node;
  const written = writeMarkdown(
    opened,
    withBlock(opened.doc, 4, {
      ...list,
      content: [...list.content!, item(text("Three"))],
    }),
  );
  assert.deepEqual(diff(POST, written), { removed: [], added: ["1. Three"] });
  const counted = openMarkdown("Steps:\n\n1. One\n2. Two\n");
  const steps = counted.blocks[1]!.node;
  assert.equal(
    writeMarkdown(
      counted,
      withBlock(counted.doc, 1, {
        ...steps,
        content: [item(text("Zero")), ...steps.content!],
      }),
    ),
    "Steps:\n\n1. Zero\n2. One\n3. Two\n",
  );
});

Deno.test("a block moved or deleted: the others keep their bytes, a kept block moves whole", () => {
  const opened = openMarkdown(POST);
  const content = [...opened.doc.content!];
  const [code] = content.splice(6, 1);
  content.splice(2, 0, code!);
  const moved = writeMarkdown(opened, { type: "doc", content });
  assert.deepEqual(diff(POST, moved), {
    removed: ["```js", "run();", "```", ""],
    added: ["```js", "run();", "```", ""],
  });
  const without = [...opened.doc.content!];
  without.splice(8, 1); // the quote
  assert.deepEqual(
    diff(POST, writeMarkdown(opened, { type: "doc", content: without })),
    {
      removed: ["> A quote with `code`.", ""],
      added: [],
    },
  );
});

Deno.test("a loose list stays loose, and a setext heading is written as ATX once changed", () => {
  const source = "Title\n=====\n\n- a\n\n- b\n";
  const opened = openMarkdown(source);
  const list = opened.blocks[1]!.node;
  assert.equal(list.attrs!.tight, false);
  const written = writeMarkdown(opened, {
    type: "doc",
    content: [
      { type: "heading", attrs: { level: 1 }, content: [text("New title")] },
      { ...list, content: [...list.content!, item(text("c"))] },
    ],
  });
  assert.equal(written, "# New title\n\n- a\n\n- b\n\n- c\n");
});

Deno.test("text is escaped where markdown would read syntax, and marks `*` cannot hold are written as tags", () => {
  const write = (...content: EditorNode[]) =>
    writeMarkdown(openMarkdown(""), { type: "doc", content });
  assert.equal(
    write(paragraph(text("1. not a list, *not* [a link], a_b, <b> & &amp;"))),
    "1\\. not a list, \\*not\\* \\[a link\\], a_b, &lt;b> & &amp;amp;",
  );
  assert.equal(write(paragraph(text("# not a heading"))), "\\# not a heading");
  assert.equal(
    write(
      paragraph(text("a"), { type: "hardBreak" }, text("- b")),
    ),
    "a\\\n\\- b",
  );
  // `**` cannot close after `"` before a letter: the tags can.
  assert.equal(
    write(paragraph(text("a"), text('"b"', "bold"), text("c"))),
    'a<strong>"b"</strong>c',
  );
  assert.equal(
    write(paragraph(text("Wow!"), {
      type: "text",
      text: "look",
      marks: [{ type: "link", attrs: { href: "/x", title: null } }],
    })),
    "Wow\\![look](/x)",
  );
  // Bold white space is plain: `** a**` is no emphasis.
  assert.equal(write(paragraph(text(" a ", "bold"), text("b"))), "**a** b");
});

Deno.test("two lists of one kind side by side are told apart by their markers", () => {
  const opened = openMarkdown("- a\n\nBetween.\n\n- b\n");
  const content = [...opened.doc.content!];
  content.splice(1, 1);
  assert.equal(
    writeMarkdown(opened, { type: "doc", content }),
    "- a\n\n* b\n",
  );
});

Deno.test("what markdown cannot hold is refused with a MarkdownWriteError", () => {
  const opened = openMarkdown("Text\n");
  assert.throws(
    () =>
      writeMarkdown(opened, {
        type: "doc",
        content: [{ type: "image", attrs: { src: "a.png" } }],
      }),
    MarkdownWriteError,
  );
  assert.throws(
    () => writeMarkdown(opened, paragraph(text("x"))),
    MarkdownWriteError,
  );
  assert.throws(
    () =>
      writeMarkdown(opened, {
        type: "doc",
        content: [paragraph({ ...text("x"), marks: [{ type: "underline" }] })],
      }),
    MarkdownWriteError,
  );
});

Deno.test("an empty string opens as one empty paragraph and writes back empty; a carriage return keeps the string whole", () => {
  const empty = openMarkdown("");
  assert.deepEqual(empty.doc, {
    type: "doc",
    content: [{ type: "paragraph" }],
  });
  assert.equal(writeMarkdown(empty, empty.doc), "");
  const windows = openMarkdown("a\r\n\r\nb");
  assert.deepEqual(windows.blocks.map((b) => [b.kind, b.editable]), [
    ["other", false],
  ]);
  assert.equal(writeMarkdown(windows, windows.doc), "a\r\n\r\nb");
});

Deno.test("looksLikeMarkdown names markdown stored for rich text, and leaves rich text and plain words alone", () => {
  const cases: [string, string | undefined][] = [
    ["## Setup\n\nRun it.", "a heading line (# …)"],
    ["- one\n- two", "a list line (- …)"],
    ["1. one", "a numbered list line (1. …)"],
    ["> quoted", "a quote line (> …)"],
    ["```\ncode\n```", "a code fence (```)"],
    ["First.\n\nSecond.", "a blank line between paragraphs"],
    ["Some **bold** words", "bold written **…**"],
    ["See [the docs](/docs/).", "a link written [text](address)"],
    ["Run `deno task`.", "code written `…`"],
    ["<p>First.</p>\n\n<p>Second with **stars**.</p>", undefined],
    ["<ul><li>- one</li></ul>", undefined],
    ["Plain words, 2 * 3 = 6.", undefined],
    ["Ça va ? Oui !", undefined],
  ];
  for (const [value, sign] of cases) {
    assert.equal(looksLikeMarkdown(value), sign, value);
  }
});
