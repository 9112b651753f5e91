/**
 * The Tiptap schema of markdown regions: exactly the nodes and marks of the
 * markdown engine's document (`lib/markdown/editor_doc.ts`), with every
 * attribute it maps, so that a document read from markdown comes back from
 * the editor (`editor.getJSON()`) as it went in and is written back byte
 * for byte where nothing changed.
 *
 * - `heading` (`level`), `paragraph`, `blockquote`, `hardBreak`;
 * - `bulletList` (`bullet`, `tight`), `orderedList` (`start`, `delimiter`,
 *   `tight`), `listItem` (a paragraph, then blocks);
 * - `markdownBlock` (`source`, `kind`): a block the engine keeps as
 *   written: an atom, shown as the site renders it and never changed (it
 *   may be moved or deleted as a whole);
 * - marks `bold`, `italic`, `code` (with a link only) and `link` (`href`,
 *   `title`).
 *
 * No DOM is needed to build the schema (`getSchema(markdownExtensions())`):
 * the unit tests read and write documents through it without a browser.
 *
 * @module
 */

import { type AnyExtension, Mark, Node } from "@tiptap/core";
import { Blockquote } from "@tiptap/extension-blockquote";
import { Bold } from "@tiptap/extension-bold";
import { Code } from "@tiptap/extension-code";
import { Document } from "@tiptap/extension-document";
import { HardBreak } from "@tiptap/extension-hard-break";
import { Heading } from "@tiptap/extension-heading";
import { Italic } from "@tiptap/extension-italic";
import { BulletList, ListItem, OrderedList } from "@tiptap/extension-list";
import { Paragraph } from "@tiptap/extension-paragraph";
import { Text } from "@tiptap/extension-text";
import { UndoRedo } from "@tiptap/extensions";
import { MARK, NODE } from "../../lib/markdown/editor_doc.ts";

/** An attribute kept in the document and never written to the DOM. */
const kept = (value: unknown) => ({ default: value, rendered: false });

/**
 * A list's tightness, kept in the document; a loose list is marked
 * `data-loose`, so that a tight list's items keep the site's spacing
 * (their paragraphs have no margins, as markdown renders them without
 * paragraphs). A pasted list is tight.
 */
const tightness = {
  default: true,
  parseHTML: (element: { hasAttribute(name: string): boolean }) =>
    !element.hasAttribute("data-loose"),
  renderHTML: (attributes: Record<string, unknown>) =>
    attributes.tight === false ? { "data-loose": "" } : {},
};

/** A bullet list that remembers its bullet (`-`, `*`, `+`) and tightness. */
const MarkdownBulletList = BulletList.extend({
  addAttributes() {
    return { ...this.parent?.(), bullet: kept("-"), tight: tightness };
  },
});

/** An ordered list that remembers its delimiter (`.`, `)`) and tightness. */
const MarkdownOrderedList = OrderedList.extend({
  addAttributes() {
    return {
      ...this.parent?.(),
      delimiter: kept("."),
      tight: tightness,
    };
  },
});

/**
 * List items without Tiptap's Tab and Shift+Tab, which would change the
 * content where people expect the focus to move (Ctrl+] and Ctrl+[ indent
 * and outdent, as in rich-text regions).
 */
const MarkdownListItem = ListItem.extend({
  addKeyboardShortcuts() {
    return {
      Enter: () => this.editor.commands.splitListItem(this.name),
      "Mod-]": () => this.editor.commands.sinkListItem(this.name),
      "Mod-[": () => this.editor.commands.liftListItem(this.name),
    };
  },
});

/** A code span: markdown holds no emphasis inside one, only a link. */
const MarkdownCode = Code.extend({ excludes: `${MARK.bold} ${MARK.italic}` });

/** `[text](href "title")`: the address and title, no autolinking. */
const MarkdownLink = Mark.create({
  name: MARK.link,
  inclusive: false,
  priority: 1000,
  addAttributes: () => ({ href: { default: null }, title: { default: null } }),
  parseHTML: () => [{ tag: "a[href]" }],
  renderHTML: ({ HTMLAttributes }) => ["a", HTMLAttributes, 0],
});

/**
 * How a kept block is shown: an element the node view fills. The default
 * writes the source as text; the editor part passes one that renders it as
 * the site does.
 */
export type KeptView = (source: string, kind: string) => KeptElement;

/**
 * The element of a kept block (an `HTMLElement`: written so that the
 * schema type-checks without the DOM's types, for the tests without a
 * browser).
 */
export interface KeptElement {
  /** Set to `false`: the block is never edited in place. */
  contentEditable: string;
}

/** A block kept as written: an atom holding its source and kind. */
function keptBlock(view: KeptView | undefined) {
  return Node.create({
    name: NODE.kept,
    group: "block",
    atom: true,
    selectable: true,
    draggable: false,
    addAttributes: () => ({ source: kept(""), kind: kept("other") }),
    // Never made from pasted markup: only markdown opens as kept blocks.
    parseHTML: () => [],
    renderHTML: ({ node }) => [
      "div",
      { "data-markdown-kept": String(node.attrs.kind) },
      String(node.attrs.source),
    ],
    ...(view === undefined ? {} : {
      addNodeView: () => ({ node }) => {
        const dom = view(String(node.attrs.source), String(node.attrs.kind));
        dom.contentEditable = "false";
        // The view makes an HTMLElement (see KeptElement).
        return { dom: dom as never };
      },
    }),
  });
}

/**
 * The extensions of a markdown region's editor.
 *
 * @param view how kept blocks are shown (default: their source as text)
 * @returns Tiptap's extensions, undo and redo included
 * @example
 * ```ts
 * import { getSchema } from "@tiptap/core";
 * import { markdownExtensions } from "./schema.ts";
 *
 * const schema = getSchema(markdownExtensions());
 * console.assert(schema.nodes.markdownBlock?.isAtom);
 * ```
 */
export function markdownExtensions(view?: KeptView): AnyExtension[] {
  return [
    Document,
    Paragraph,
    Text,
    HardBreak,
    Heading,
    Blockquote,
    MarkdownBulletList,
    MarkdownOrderedList,
    MarkdownListItem,
    keptBlock(view),
    Bold,
    Italic,
    MarkdownCode,
    MarkdownLink,
    UndoRedo,
  ];
}
