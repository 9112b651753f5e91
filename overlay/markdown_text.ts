/// <reference lib="dom" />
/**
 * Markdown regions' editor: a Tiptap editor on the markdown engine's
 * document (`lib/markdown/`, schema in `markdown/schema.ts`). The string is
 * opened into its blocks; the blocks the engine can represent (headings,
 * paragraphs with bold, italic, code spans and links, lists, block quotes)
 * are edited as rich text, the others are shown as the site renders them
 * and kept as written. After each edit the document is written back as
 * markdown: the blocks that did not change byte for byte, only the changed
 * ones anew. Undo and redo within the field are Tiptap's. An edit the
 * engine could not write back (never expected) is taken back.
 *
 * It belongs to the lazily loaded rich text part (`rich_text.ts` exports
 * it, one file with Tiptap): `regions/markdown.ts` loads it when a page
 * holds a markdown region.
 *
 * @module
 */

import { Editor } from "@tiptap/core";
import markdownIt from "markdown-it";
// From the engine's modules rather than its barrel: the overlay's entry
// holds looks_like.ts, which this part does not need.
import type { EditorNode } from "../lib/markdown/editor_doc.ts";
import { type MarkdownDocument, openMarkdown } from "../lib/markdown/open.ts";
import { writeMarkdown } from "../lib/markdown/write.ts";
import { MarkdownWriteError } from "../lib/markdown/write_error.ts";
import { textboxProps } from "./editor_props.ts";
import { markdownExtensions } from "./markdown/schema.ts";
import { blockTextPosition } from "./markdown/text_position.ts";
import { focusText, type RichText } from "./rich_text.ts";

/** What a markdown region's editor tells its owner. */
export interface MarkdownTextOptions {
  /** The accessible name of the editable area. */
  label: string;
  /** The title of a block kept as written ("Kept as written…"). */
  keptTitle: string;
  /** Called with the markdown after each edit. */
  onChange(markdown: string): void;
  /** Called when the area gains focus. */
  onFocus(): void;
  /** Called when the area loses focus. */
  onBlur(): void;
  /** Called when the selection or marks change, to refresh a toolbar. */
  onSelection(): void;
}

/**
 * A markdown region's editor: the rich-text editor's interface, where the
 * value (`html()`, `setHtml()`, `edit()`) is the markdown string.
 */
export type MarkdownText = RichText;

/**
 * The renderer of kept blocks: CommonMark with tables and strikethrough,
 * raw HTML shown as text and unsafe links left out, so that a kept block
 * shows what it holds and runs nothing.
 */
const display = markdownIt("default", { html: false, linkify: false });

/** Kinds whose rendering is not what a visitor sees: shown as source. */
const AS_SOURCE = new Set(["html", "front_matter", "reference", "footnote"]);

/** A kept block's element: rendered as the site would, or its source. */
function keptView(title: string) {
  return (source: string, kind: string): HTMLElement => {
    const element = document.createElement("div");
    element.setAttribute("data-markdown-kept", kind);
    element.title = title;
    element.style.cssText =
      "outline:1px dashed #8a8a8a;outline-offset:3px;cursor:default";
    if (AS_SOURCE.has(kind) || kind === "other") {
      const pre = document.createElement("pre");
      pre.style.cssText = "white-space:pre-wrap;margin:0;font-size:.85em";
      pre.textContent = source;
      element.append(pre);
    } else element.innerHTML = display.render(source);
    return element;
  };
}

/**
 * Mounts a markdown editor in a region, replacing its content.
 *
 * @param element the region (`data-inpage-markdown`)
 * @param markdown the field's current value
 * @param options the callbacks and words
 * @returns the editor
 */
export function createMarkdownText(
  element: HTMLElement,
  markdown: string,
  options: MarkdownTextOptions,
): MarkdownText {
  let opened: MarkdownDocument = openMarkdown(markdown);
  let written = markdown;
  let quiet = false;
  element.replaceChildren();
  const write = (): string =>
    writeMarkdown(opened, editor.getJSON() as EditorNode);
  const editor: Editor = new Editor({
    element,
    extensions: markdownExtensions(keptView(options.keptTitle)),
    content: opened.doc,
    editorProps: textboxProps(options.label),
    onUpdate() {
      if (quiet) return;
      try {
        written = write();
      } catch (error) {
        if (!(error instanceof MarkdownWriteError)) throw error;
        // Never expected (the engine's properties are tested on real
        // documents): an edit that cannot be written is taken back.
        editor.commands.undo();
        return;
      }
      options.onChange(written);
    },
    onFocus: () => options.onFocus(),
    onBlur: () => options.onBlur(),
    onSelectionUpdate: () => options.onSelection(),
    onTransaction: () => options.onSelection(),
  });
  const replace = (value: string, emitUpdate: boolean) => {
    quiet = !emitUpdate;
    try {
      opened = openMarkdown(value);
      written = value;
      editor.commands.setContent(opened.doc, { emitUpdate });
    } finally {
      quiet = false;
    }
  };
  return {
    editor,
    inline: false,
    html: () => written,
    setHtml: (value) => replace(value, false),
    edit: (value) => replace(value, true),
    // What a visitor sees: rendered as the site renders it, raw HTML as text.
    markup: (value) => display.render(value),
    focusAt: (anchor, head) =>
      focusText(
        editor,
        anchor,
        head,
        (editor, offset) => blockTextPosition(editor.state.doc, offset),
      ),
    destroy: () => editor.destroy(),
  };
}
