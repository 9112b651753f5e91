/**
 * From markdown-it's tokens to the editor's document: the blocks and inline
 * content a markdown region edits, or `undefined` for anything the editor
 * cannot represent (an image, raw HTML but the emphasis tags, strikethrough,
 * a footnote, code with emphasis, a list item that does not start with a paragraph, a
 * fence or a table inside a list…), whose block is then kept as written.
 *
 * @module
 */

import type { Token } from "./parser.ts";
import { type EditorMark, type EditorNode, MARK, NODE } from "./editor_doc.ts";

/**
 * The inline HTML tags read as marks, as the page rules allow them (and as
 * the printer writes marks that `*` and `[…](…)` cannot hold).
 */
const HTML_MARKS: Readonly<Record<string, string>> = {
  "<em>": MARK.italic,
  "<i>": MARK.italic,
  "<strong>": MARK.bold,
  "<b>": MARK.bold,
};
const HTML_CLOSERS: Readonly<Record<string, string>> = {
  "</em>": "<em>",
  "</i>": "<i>",
  "</strong>": "<strong>",
  "</b>": "<b>",
  "</a>": "<a>",
};
/** `<a href="…">` or `<a href="…" title="…">`, as the printer writes it. */
const HTML_LINK = /^<a href="([^"<>]*)"(?: title="([^"<>]*)")?>$/;

/** The text of an HTML attribute value the printer wrote. */
function attributeText(value: string): string {
  return value.replace(
    /&(amp|quot|lt|gt);/g,
    (_, name: string) => ({ amp: "&", quot: '"', lt: "<", gt: ">" })[name]!,
  );
}

/** An open mark: its mark, and what opened it (to match the closer). */
interface Opened {
  mark: EditorMark;
  by: string;
}

/**
 * The inline nodes of a paragraph or heading.
 *
 * @param children the inline token's children
 * @returns the nodes, or `undefined` when one cannot be represented
 */
export function inlineNodes(
  children: readonly Token[],
): EditorNode[] | undefined {
  const stack: Opened[] = [];
  const nodes: EditorNode[] = [];
  const text = (value: string, extra?: EditorMark) => {
    if (value === "") return;
    const marks = stack.map((opened) => opened.mark);
    if (extra) marks.push(extra);
    nodes.push(
      marks.length > 0
        ? { type: NODE.text, text: value, marks }
        : { type: NODE.text, text: value },
    );
  };
  const close = (by: string): boolean => {
    if (stack.at(-1)?.by !== by) return false;
    stack.pop();
    return true;
  };
  for (let index = 0; index < children.length; index++) {
    const token = children[index]!;
    switch (token.type) {
      case "text":
        // A footnote (`[^1]`), which not every renderer reads as CommonMark
        // does, is kept.
        if (token.content.includes("[^")) return undefined;
        text(token.content);
        break;
      case "text_special":
        text(token.content);
        break;
      case "softbreak":
        text(" ");
        break;
      case "hardbreak":
        nodes.push({ type: NODE.hardBreak });
        break;
      case "em_open":
        stack.push({ mark: { type: MARK.italic }, by: "em" });
        break;
      case "strong_open":
        stack.push({ mark: { type: MARK.bold }, by: "strong" });
        break;
      case "link_open":
        if (children[index + 1]?.content.startsWith("^")) return undefined;
        stack.push({
          mark: {
            type: MARK.link,
            attrs: {
              href: token.attrGet("href") ?? "",
              title: token.attrGet("title") ?? null,
            },
          },
          by: "link",
        });
        break;
      case "em_close":
      case "strong_close":
      case "link_close":
        if (!close(token.type.slice(0, -"_close".length))) return undefined;
        break;
      case "code_inline":
        // Code goes with a link, never with emphasis (Tiptap's code mark
        // excludes the others).
        if (stack.some((opened) => opened.mark.type !== MARK.link)) {
          return undefined;
        }
        text(token.content, { type: MARK.code });
        break;
      case "html_inline": {
        const tag = token.content.toLowerCase();
        const mark = HTML_MARKS[tag];
        const link = HTML_LINK.exec(token.content);
        if (link) {
          stack.push({
            mark: {
              type: MARK.link,
              attrs: {
                href: attributeText(link[1]!),
                title: link[2] === undefined ? null : attributeText(link[2]),
              },
            },
            by: "<a>",
          });
        } else if (mark !== undefined) {
          stack.push({ mark: { type: mark }, by: tag });
        } else if (!close(HTML_CLOSERS[tag] ?? "-")) return undefined;
        break;
      }
      default:
        return undefined;
    }
  }
  return stack.length === 0 ? nodes : undefined;
}

/** The index of the token closing the one at `open` (itself if single). */
export function closing(tokens: readonly Token[], open: number): number {
  if (tokens[open]!.nesting !== 1) return open;
  let depth = 0;
  for (let index = open; index < tokens.length; index++) {
    depth += tokens[index]!.nesting;
    if (depth === 0) return index;
  }
  return tokens.length - 1;
}

/**
 * The blocks of a token range: each block from its opening token to its
 * closing one.
 *
 * @returns the nodes, or `undefined` when one cannot be represented
 */
export function blockNodes(
  tokens: readonly Token[],
  from: number,
  to: number,
): EditorNode[] | undefined {
  const nodes: EditorNode[] = [];
  for (let index = from; index < to;) {
    const end = closing(tokens, index);
    const node = blockNode(tokens, index, end);
    if (node === undefined) return undefined;
    nodes.push(node);
    index = end + 1;
  }
  return nodes;
}

/**
 * One block, from its opening token at `open` to its closing one at
 * `close`.
 *
 * @returns the node, or `undefined` when it cannot be represented
 */
export function blockNode(
  tokens: readonly Token[],
  open: number,
  close: number,
): EditorNode | undefined {
  const token = tokens[open]!;
  switch (token.type) {
    case "paragraph_open":
    case "heading_open": {
      const content = inlineNodes(tokens[open + 1]?.children ?? []);
      if (content === undefined) return undefined;
      const node: EditorNode = token.type === "heading_open"
        ? { type: NODE.heading, attrs: { level: Number(token.tag.slice(1)) } }
        : { type: NODE.paragraph };
      if (content.length > 0) node.content = content;
      return node;
    }
    case "blockquote_open": {
      const content = blockNodes(tokens, open + 1, close);
      if (content === undefined) return undefined;
      return {
        type: NODE.blockquote,
        content: content.length > 0 ? content : [{ type: NODE.paragraph }],
      };
    }
    case "bullet_list_open":
    case "ordered_list_open":
      return listNode(tokens, open, close);
    default:
      return undefined;
  }
}

function listNode(
  tokens: readonly Token[],
  open: number,
  close: number,
): EditorNode | undefined {
  const token = tokens[open]!;
  const items: EditorNode[] = [];
  let tight = true;
  for (let index = open + 1; index < close;) {
    const end = closing(tokens, index);
    for (
      let inner = index + 1;
      inner < end;
      inner = closing(tokens, inner) + 1
    ) {
      const child = tokens[inner]!;
      if (child.type === "paragraph_open" && !child.hidden) tight = false;
    }
    const content = blockNodes(tokens, index + 1, end);
    if (content === undefined) return undefined;
    if (content.length === 0) content.push({ type: NODE.paragraph });
    if (content[0]!.type !== NODE.paragraph) return undefined;
    items.push({ type: NODE.listItem, content });
    index = end + 1;
  }
  if (token.type === "bullet_list_open") {
    return {
      type: NODE.bulletList,
      attrs: { bullet: token.markup, tight },
      content: items,
    };
  }
  const start = Number(token.attrGet("start") ?? 1);
  return {
    type: NODE.orderedList,
    attrs: { start, delimiter: token.markup, tight },
    content: items,
  };
}
