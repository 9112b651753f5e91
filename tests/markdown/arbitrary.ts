/**
 * fast-check arbitraries of the editor's documents that markdown regions
 * hold: text full of markdown's own characters, every mark, line breaks,
 * headings, quotes and lists nested a few levels deep.
 *
 * @module
 */

import fc from "fast-check";
import type { EditorMark, EditorNode } from "../../lib/markdown/mod.ts";

/** Characters markdown reads as syntax, and others. */
const CHARS = [
  ..."abcXYZ019 ",
  ..."*_`[]()<>&#\\~|!-+=.:;\"'/",
  "\t",
  "\u00a0",
  "é",
  "日",
  "😀",
  "&amp;",
  "&copy;",
  "1.",
  "- ",
  "# ",
  "> ",
  "```",
  "---",
  "http://x.y",
  "[^1]",
  "<em>",
  "{{",
];

const text = fc.array(fc.constantFrom(...CHARS), { minLength: 1, maxLength: 8 })
  .map((parts) => parts.join(""));

const link = fc.record({
  href: fc.constantFrom(
    "/about/",
    "https://example.com/a?b=1&c=2",
    "#top",
    "",
    "/a b",
    "/(x)",
    "mailto:a@b.c",
  ),
  title: fc.constantFrom(null, "A title", 'say "hi"', "back\\slash"),
}).map((attrs): EditorMark => ({ type: "link", attrs }));

const marks = fc.tuple(
  fc.boolean(),
  fc.boolean(),
  fc.boolean(),
  fc.option(link, { nil: undefined }),
).map(([bold, italic, code, href]) => {
  const list: EditorMark[] = [];
  if (bold) list.push({ type: "bold" });
  if (italic) list.push({ type: "italic" });
  if (code) list.push({ type: "code" });
  if (href) list.push(href);
  return list;
});

const inline: fc.Arbitrary<EditorNode[]> = fc.array(
  fc.oneof(
    {
      weight: 6,
      arbitrary: fc.tuple(text, marks).map(([t, m]): EditorNode =>
        m.length > 0
          ? { type: "text", text: t, marks: m }
          : { type: "text", text: t }
      ),
    },
    { weight: 1, arbitrary: fc.constant<EditorNode>({ type: "hardBreak" }) },
  ),
  { maxLength: 6 },
);

const paragraph = inline.map((content): EditorNode =>
  content.length > 0 ? { type: "paragraph", content } : { type: "paragraph" }
);
const heading = fc.tuple(fc.integer({ min: 1, max: 6 }), inline).map((
  [level, content],
): EditorNode => ({ type: "heading", attrs: { level }, content }));

/** A block, nested at most `depth` levels. */
function block(depth: number): fc.Arbitrary<EditorNode> {
  if (depth <= 0) return fc.oneof(paragraph, heading);
  const inner = block(depth - 1);
  const item = fc.tuple(paragraph, fc.array(inner, { maxLength: 2 })).map((
    [first, rest],
  ): EditorNode => ({ type: "listItem", content: [first, ...rest] }));
  const items = fc.array(item, { minLength: 1, maxLength: 3 });
  return fc.oneof(
    { weight: 4, arbitrary: paragraph },
    { weight: 2, arbitrary: heading },
    {
      weight: 1,
      arbitrary: fc.array(inner, { minLength: 1, maxLength: 3 }).map((
        content,
      ): EditorNode => ({ type: "blockquote", content })),
    },
    {
      weight: 1,
      arbitrary: fc.tuple(fc.constantFrom("-", "*", "+"), fc.boolean(), items)
        .map(([bullet, tight, content]): EditorNode => ({
          type: "bulletList",
          attrs: { bullet, tight },
          content,
        })),
    },
    {
      weight: 1,
      arbitrary: fc.tuple(
        fc.constantFrom(0, 1, 2, 9, 10, 99, 123456789),
        fc.constantFrom(".", ")"),
        fc.boolean(),
        items,
      ).map(([start, delimiter, tight, content]): EditorNode => ({
        type: "orderedList",
        attrs: { start, delimiter, tight },
        content,
      })),
    },
  );
}

/** A top-level block, nested up to three levels. */
export const editorBlock: fc.Arbitrary<EditorNode> = block(3);

/** An editor's document of up to six blocks. */
export const editorDoc: fc.Arbitrary<EditorNode> = fc.array(editorBlock, {
  maxLength: 6,
}).map((content) => ({ type: "doc", content }));
