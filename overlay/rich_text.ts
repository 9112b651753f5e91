/// <reference lib="dom" />
/**
 * Rich text regions: a Tiptap editor with only the marks and nodes the page
 * rules allow (paragraphs, bold, italic, underline, strike, small, sub, sup,
 * line breaks, lists, links with `href` and `title`), writing the canonical
 * markup the rules accept: lower-case tags, `<br>`, `name="value"`. Undo
 * and redo within the field are Tiptap's (Ctrl+Z, Shift+Ctrl+Z). Tab moves
 * the focus and never changes the text: a list item is indented with
 * Ctrl+] and outdented with Ctrl+[ (or the toolbar). A pasted link the link
 * rule refuses is dropped, its text kept.
 *
 * Every value it puts into the page (the stored one, one restored from
 * History or a draft, a merge's, and what Preview shows) passes first
 * through the page rules' own allowlist (`lib/pages/markup_rule.ts`, one
 * module for the server and the overlay): a value the markup rule accepts
 * goes in as it is; of any other (an `<img onerror>` written by hand in git,
 * say), only the allowed tags and attributes are kept, the rest dropped
 * (the text of an unknown element kept, a script's or a style's not). A
 * link the link rule refuses is kept in the editor, marked, to be fixed;
 * Preview unwraps it.
 *
 * This module is a lazily loaded part of the overlay (Tiptap and
 * ProseMirror are most of the overlay's bytes): `regions.ts` imports it
 * when a rich text region is first focused, or shows a value it must edit.
 *
 * @module
 */

import { Editor, Mark } from "@tiptap/core";
import { Bold } from "@tiptap/extension-bold";
import { Document } from "@tiptap/extension-document";
import { HardBreak } from "@tiptap/extension-hard-break";
import { Italic } from "@tiptap/extension-italic";
import { BulletList, ListItem, OrderedList } from "@tiptap/extension-list";
import { Paragraph } from "@tiptap/extension-paragraph";
import { Strike } from "@tiptap/extension-strike";
import { Text } from "@tiptap/extension-text";
import { Underline } from "@tiptap/extension-underline";
import { UndoRedo } from "@tiptap/extensions";
import { allowedMarkup } from "./allowed_markup.ts";
import { textboxProps } from "./editor_props.ts";

// Markdown regions' editor shares this part (one file, Tiptap once).
export { createMarkdownText } from "./markdown_text.ts";
export type { MarkdownText, MarkdownTextOptions } from "./markdown_text.ts";

function simpleMark(name: string, tag: string, excludes?: string) {
  return Mark.create({
    name,
    ...(excludes === undefined ? {} : { excludes }),
    parseHTML: () => [{ tag }],
    renderHTML: () => [tag, 0],
  });
}

/**
 * `<a href title>`: only these two attributes, no autolinking. The server's
 * link rule decides which addresses pass; a refused link is answered 422
 * and highlighted rather than silently dropped here.
 */
const Link = Mark.create({
  name: "link",
  inclusive: false,
  priority: 1000,
  addAttributes: () => ({
    href: { default: null },
    title: { default: null },
  }),
  parseHTML: () => [{ tag: "a[href]" }],
  renderHTML: ({ HTMLAttributes }) => ["a", HTMLAttributes, 0],
});

/** `<small>`: side comments and fine print. */
const Small = simpleMark("small", "small");
/** `<sub>`, never together with `<sup>`. */
const Subscript = simpleMark("subscript", "sub", "superscript");
/** `<sup>`, never together with `<sub>`. */
const Superscript = simpleMark("superscript", "sup", "subscript");

/**
 * List items without Tiptap's Tab and Shift+Tab, which would change the
 * content where people expect the focus to move.
 */
const ListItemNoTab = ListItem.extend({
  addKeyboardShortcuts() {
    return {
      Enter: () => this.editor.commands.splitListItem(this.name),
      "Mod-]": () => this.editor.commands.sinkListItem(this.name),
      "Mod-[": () => this.editor.commands.liftListItem(this.name),
    };
  },
});

const BLOCK = /<(?:p|ul|ol|li)[\s>]/i;

/** A rich text region's editor. */
export interface RichText {
  /** The Tiptap editor. */
  editor: Editor;
  /** Whether the field holds inline text only (no paragraphs or lists). */
  inline: boolean;
  /** The field's value in canonical markup. */
  html(): string;
  /** Replaces the content without counting it as an edit. */
  setHtml(html: string): void;
  /** Replaces the content as an edit (reported through `onChange`). */
  edit(html: string): void;
  /** A value as the page may show it ({@linkcode allowedMarkup}). */
  markup(value: string): string;
  /**
   * Focuses the editor with the selection between two numbers of
   * characters of its text (block boundaries count for nothing; the caret
   * when they are equal), or where it was.
   */
  focusAt(anchor?: number, head?: number): void;
  /** Removes the editor. */
  destroy(): void;
}

/** What a rich text region tells its owner. */
export interface RichTextOptions {
  /** The accessible name of the editable area. */
  label: string;
  /** Called with the canonical markup after each edit. */
  onChange(html: string): void;
  /** Called when the area gains focus. */
  onFocus(): void;
  /** Called when the area loses focus. */
  onBlur(): void;
  /** Called when the selection or marks change, to refresh a toolbar. */
  onSelection(): void;
  /** Makes pasted markup safe to insert (drops refused links). */
  paste(html: string): string;
}

/**
 * Mounts an editor in a region, replacing its content.
 *
 * @param element the region (`data-inpage-html`)
 * @param html the field's current value
 * @param options the callbacks
 * @returns the editor
 */
export function createRichText(
  element: HTMLElement,
  html: string,
  options: RichTextOptions,
): RichText {
  const inline = !BLOCK.test(html);
  element.replaceChildren();
  let quiet = false;
  const editor = new Editor({
    element,
    extensions: [
      inline ? Document.extend({ content: "paragraph" }) : Document,
      Paragraph,
      Text,
      HardBreak,
      Bold,
      Italic,
      Underline,
      Strike,
      Small,
      Subscript,
      Superscript,
      ...(inline ? [] : [BulletList, OrderedList, ListItemNoTab]),
      Link,
      UndoRedo,
    ],
    content: allowedMarkup(html),
    editorProps: {
      ...textboxProps(options.label),
      transformPastedHTML: (html) => options.paste(html),
    },
    onUpdate() {
      if (!quiet) options.onChange(canonical(editor.getHTML(), inline));
    },
    onFocus: () => options.onFocus(),
    onBlur: () => options.onBlur(),
    onSelectionUpdate: () => options.onSelection(),
    onTransaction: () => options.onSelection(),
  });
  return {
    editor,
    inline,
    html: () => canonical(editor.getHTML(), inline),
    setHtml(value) {
      quiet = true;
      try {
        editor.commands.setContent(allowedMarkup(value), {
          emitUpdate: false,
        });
      } finally {
        quiet = false;
      }
    },
    edit: (value) => void editor.commands.setContent(allowedMarkup(value)),
    markup: allowedMarkup,
    focusAt: (anchor, head) => focusText(editor, anchor, head),
    destroy: () => editor.destroy(),
  };
}

/**
 * Puts the caret or a selection at numbers of characters of an editor's
 * text and focuses it: at once, not in the next frame as Tiptap's focus
 * command does, since keys pressed meanwhile must reach the editor.
 *
 * @param editor the editor
 * @param anchor the selection's anchor, as characters of its text (none:
 *   where it was)
 * @param head the selection's head (default: the anchor)
 * @param position how characters of text make a document position
 *   (default: the text's characters only)
 * @example
 * ```ts ignore
 * focusText(editor, 12); // the caret after the 12th character
 * ```
 */
export function focusText(
  editor: Editor,
  anchor?: number,
  head: number | undefined = anchor,
  position: (editor: Editor, offset: number) => number = textPosition,
): void {
  if (anchor !== undefined && head !== undefined) {
    const from = position(editor, Math.min(anchor, head));
    const to = position(editor, Math.max(anchor, head));
    editor.commands.setTextSelection(
      anchor <= head ? { from, to } : { from: to, to: from },
    );
  }
  editor.view.focus();
}

/** The document position after a number of characters of its text. */
function textPosition(editor: Editor, offset: number): number {
  let found: number | undefined;
  let left = offset;
  editor.state.doc.descendants((node, at) => {
    if (found !== undefined) return false;
    if (!node.isText) return true;
    const length = node.text?.length ?? 0;
    if (left <= length) found = at + left;
    else left -= length;
    return false;
  });
  return found ?? editor.state.doc.content.size - 1;
}

/**
 * The canonical form of the editor's output: list items hold their text
 * directly when it is one paragraph, and an inline field loses the
 * paragraph the editor wraps it in.
 *
 * @param html the editor's HTML
 * @param inline whether the field is inline text
 * @returns the markup to store
 */
export function canonical(html: string, inline: boolean): string {
  const template = document.createElement("template");
  template.innerHTML = html;
  for (const item of template.content.querySelectorAll("li")) {
    const [only] = item.childNodes;
    if (item.childNodes.length === 1 && only instanceof HTMLParagraphElement) {
      only.replaceWith(...only.childNodes);
    }
  }
  if (inline) {
    const [only] = template.content.childNodes;
    if (
      template.content.childNodes.length === 1 &&
      only instanceof HTMLParagraphElement
    ) {
      return only.innerHTML;
    }
  }
  return template.innerHTML;
}
