/**
 * `lib/markdown/`, the markdown concern: a markdown string edited as rich
 * text and written back changing only what changed. Pure: no DOM, no host
 * API; markdown-it is its one dependency, so it bundles into the overlay's
 * rich-text part as it runs on the server.
 *
 * - {@linkcode openMarkdown} splits a string (CommonMark, as sites render
 *   it) into its top-level blocks with their exact source, says which the
 *   editor can represent (headings, paragraphs with bold, italic, links and
 *   code spans, bullet and ordered lists, block quotes) and gives the
 *   editor's document (ProseMirror/Tiptap JSON, `editor_doc.ts`); the
 *   others (code, HTML blocks, tables, reference definitions, footnotes,
 *   front matter…) are `markdownBlock` nodes, kept as written.
 * - {@linkcode writeMarkdown} writes the edited document back: unchanged
 *   blocks byte for byte, changed ones anew.
 * - {@linkcode looksLikeMarkdown} tells a markdown string stored where rich
 *   text (HTML) is expected.
 *
 * The page rules apply to what is written as to any string: nothing is
 * allowed because it is markdown.
 *
 * @example
 * ```ts
 * import { openMarkdown, writeMarkdown } from "./mod.ts";
 * import assert from "node:assert/strict";
 *
 * const source = "# Notes\n\nFirst *one*.\n\n~~~js\nrun();\n~~~\n\n- a\n- b\n";
 * const opened = openMarkdown(source);
 * assert.deepEqual(opened.blocks.map((b) => [b.kind, b.editable]), [
 *   ["heading", true],
 *   ["paragraph", true],
 *   ["code", false],
 *   ["bullet_list", true],
 * ]);
 * assert.equal(writeMarkdown(opened, opened.doc), source);
 *
 * // Make "First" bold: only that paragraph is written anew.
 * const doc = structuredClone(opened.doc);
 * doc.content![1] = {
 *   type: "paragraph",
 *   content: [
 *     { type: "text", text: "First", marks: [{ type: "bold" }] },
 *     { type: "text", text: " " },
 *     { type: "text", text: "one", marks: [{ type: "italic" }] },
 *     { type: "text", text: "." },
 *   ],
 * };
 * assert.equal(
 *   writeMarkdown(opened, doc),
 *   "# Notes\n\n**First** *one*.\n\n~~~js\nrun();\n~~~\n\n- a\n- b\n",
 * );
 * ```
 *
 * @module
 */

export { openMarkdown } from "./open.ts";
export type { MarkdownBlock, MarkdownDocument } from "./open.ts";
export { writeMarkdown } from "./write.ts";
export { looksLikeMarkdown } from "./looks_like.ts";
export { MarkdownWriteError } from "./write_error.ts";
export { MARK, NODE } from "./editor_doc.ts";
export type {
  EditorMark,
  EditorNode,
  MarkdownBlockKind,
} from "./editor_doc.ts";
