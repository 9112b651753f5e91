/**
 * The editor's document: the JSON a ProseMirror or Tiptap editor reads and
 * gives back (`editor.getJSON()`), limited to what markdown regions edit.
 *
 * Nodes, with their Tiptap names:
 * - `doc`: the blocks of one markdown string;
 * - `paragraph`, `heading` (`level` 1 to 6), `blockquote`;
 * - `bulletList` (`bullet`: `-`, `*` or `+`; `tight`), `orderedList`
 *   (`start`, `delimiter`: `.` or `)`; `tight`), `listItem` (a paragraph,
 *   then blocks);
 * - `text` (with marks), `hardBreak`;
 * - `markdownBlock` (`source`, `kind`): a block the editor cannot represent
 *   (fenced code, an HTML block, a table, …), kept as written: an atom the
 *   editor shows and may move or delete, never change.
 *
 * Marks: `bold`, `italic`, `code` (with `link` only) and `link` (`href`,
 * `title`). The editor's schema must keep the attributes named here: a list
 * that lost its `tight` would be written back differently.
 *
 * @module
 */

/** A mark on a text node. */
export interface EditorMark {
  /** `bold`, `italic`, `code` or `link`. */
  type: string;
  /** A link's `href` and `title` (`null` when none). */
  attrs?: Record<string, unknown>;
}

/** A node of the editor's document, as `editor.getJSON()` gives it. */
export interface EditorNode {
  /** The node's type, such as `paragraph`. */
  type: string;
  /** Its attributes, such as a heading's `level`. */
  attrs?: Record<string, unknown>;
  /** Its children. */
  content?: EditorNode[];
  /** A text node's text. */
  text?: string;
  /** A text node's marks. */
  marks?: EditorMark[];
}

/** The node types and marks of the editor's document. */
export const NODE = {
  doc: "doc",
  paragraph: "paragraph",
  heading: "heading",
  blockquote: "blockquote",
  bulletList: "bulletList",
  orderedList: "orderedList",
  listItem: "listItem",
  text: "text",
  hardBreak: "hardBreak",
  kept: "markdownBlock",
} as const;

/** The marks of the editor's document. */
export const MARK = {
  bold: "bold",
  italic: "italic",
  code: "code",
  link: "link",
} as const;

/**
 * What a top-level block is. The editable kinds are `paragraph`,
 * `heading`, `bullet_list`, `ordered_list` and `blockquote` (when all they
 * hold is editable too); the others are kept as written.
 */
export type MarkdownBlockKind =
  | "paragraph"
  | "heading"
  | "bullet_list"
  | "ordered_list"
  | "blockquote"
  | "code"
  | "html"
  | "table"
  | "thematic_break"
  | "reference"
  | "footnote"
  | "front_matter"
  | "other";

/** A string attribute of a node, or `fallback`. */
export function stringAttr(
  node: EditorNode,
  name: string,
  fallback: string,
): string {
  const value = node.attrs?.[name];
  return typeof value === "string" ? value : fallback;
}

/** A whole-number attribute of a node, or `fallback`. */
export function numberAttr(
  node: EditorNode,
  name: string,
  fallback: number,
): number {
  const value = node.attrs?.[name];
  return typeof value === "number" && Number.isInteger(value)
    ? value
    : fallback;
}

/** A list's `tight` attribute: true unless it says false. */
export function isTight(node: EditorNode): boolean {
  return node.attrs?.tight !== false;
}
