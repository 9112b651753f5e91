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
import { linkProblem } from "./session/checks.ts";

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

/**
 * Pasted markup with every link the link rule refuses unwrapped: its text
 * stays, the link goes.
 *
 * @param html the pasted markup
 * @returns the markup to insert
 */
export function dropRefusedLinks(html: string): string {
  const template = document.createElement("template");
  template.innerHTML = html;
  for (const link of template.content.querySelectorAll("a")) {
    const href = link.getAttribute("href");
    if (href === null || linkProblem(href)) {
      link.replaceWith(...link.childNodes);
    }
  }
  return template.innerHTML;
}

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
    content: html,
    editorProps: {
      attributes: {
        "aria-label": options.label,
        "aria-multiline": "true",
        role: "textbox",
      },
      transformPastedHTML: dropRefusedLinks,
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
        editor.commands.setContent(value, { emitUpdate: false });
      } finally {
        quiet = false;
      }
    },
    destroy: () => editor.destroy(),
  };
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
