/**
 * Canonical blocks (`normalise.ts`) written as CommonMark: ATX headings,
 * `**bold**`, `*italic*`, `` `code` ``, `[text](href "title")`, lists with
 * their own markers, `> ` quotes, `\` line breaks; text escaped where
 * markdown would read it as syntax (`*`, `_` outside words, `[`, `]`,
 * `` ` ``, `~`, `\`, `<` as `&lt;`, `&` before a character reference, and
 * what begins a line: `#`, `>`, `-`, `+`, `1.`, `=`, a table's delimiter
 * row).
 *
 * `printBlock` checks what it writes: read back, it must be the same block.
 * When emphasis cannot be written with `*` (a run that begins or ends with
 * punctuation inside a word: `a**"b"**c`), or a link with `[…](…)` (code
 * holding `]:` at the start of a paragraph reads as a reference
 * definition), the block's marks are written with the tags the page rules
 * allow (`<strong>`, `<em>`, `<a href title>`), which markdown keeps as
 * HTML.
 *
 * @module
 */

import {
  type EditorMark,
  type EditorNode,
  isTight,
  MARK,
  NODE,
  numberAttr,
  stringAttr,
} from "./editor_doc.ts";
import {
  linkHref,
  linkTitle,
  normaliseBlock,
  sameBlock,
  sameMark,
} from "./normalise.ts";
import { parseMarkdown } from "./parser.ts";
import { blockNode, closing } from "./to_doc.ts";
import { MarkdownWriteError } from "./write_error.ts";

/** How emphasis is written: markdown's `*`, or the HTML tags. */
interface Style {
  html: boolean;
}

const ALNUM = /[\p{L}\p{N}]/u;
const REFERENCE =
  /^&(?:#[0-9]{1,7}|#[xX][0-9a-fA-F]{1,6}|[A-Za-z][A-Za-z0-9]{0,31});/;

/** Text escaped so that markdown reads it as text. */
export function escapeText(text: string): string {
  let out = "";
  for (let index = 0; index < text.length; index++) {
    const char = text[index]!;
    switch (char) {
      case "\\":
      case "*":
      case "`":
      case "[":
      case "]":
      case "~":
      case "^":
        out += "\\" + char;
        break;
      case "_": {
        const inWord = ALNUM.test(text[index - 1] ?? "") &&
          ALNUM.test(text[index + 1] ?? "");
        out += inWord ? "_" : "\\_";
        break;
      }
      case "<":
        out += "&lt;";
        break;
      case "&":
        out += REFERENCE.test(text.slice(index, index + 40)) ? "&amp;" : "&";
        break;
      default:
        out += char;
    }
  }
  return out;
}

const TABLE_DELIMITER =
  /^\|?[ \t]*:?-+:?[ \t]*(?:\|[ \t]*:?-+:?[ \t]*)*\|?[ \t]*$/;

/** A printed line of a paragraph, escaped where it would begin a block. */
function escapeLineStart(line: string): string {
  const ordered = /^(\d{1,9})([.)])(?=[ \t]|$)/.exec(line);
  if (ordered) {
    return ordered[1] + "\\" + line.slice(ordered[1]!.length);
  }
  if (
    /^[#>]/.test(line) || /^[-+](?:[ \t]|$)/.test(line) ||
    /^-[ \t-]*$/.test(line) || /^=+[ \t]*$/.test(line) ||
    (line.includes("|") && TABLE_DELIMITER.test(line))
  ) {
    return "\\" + line;
  }
  return line;
}

/** A code span holding `text` as it is. */
function codeSpan(text: string): string {
  const longest = Math.max(
    0,
    ...(text.match(/`+/g) ?? []).map((r) => r.length),
  );
  const fence = "`".repeat(longest + 1);
  const pad = /^`|`$/.test(text) ||
      (text.startsWith(" ") && text.endsWith(" ") && /[^ ]/.test(text))
    ? " "
    : "";
  return fence + pad + text + pad + fence;
}

/** A link's destination and title, as written after `](`. */
function linkEnd(mark: EditorMark): string {
  const destination = linkHref(mark)
    .replace(/[\\()]/g, "\\$&")
    .replace(/&(?=#?[A-Za-z0-9]+;)/g, "\\&");
  const title = linkTitle(mark);
  const quoted = title === null
    ? ""
    : ` "${
      title.replace(/[\\"]/g, "\\$&").replace(/&(?=#?[A-Za-z0-9]+;)/g, "\\&")
    }"`;
  // An empty destination before a title is written `<>`.
  return `](${
    destination === "" && title !== null ? "<>" : destination
  }${quoted})`;
}

/** A value in a double-quoted HTML attribute. */
function attribute(value: string): string {
  return value.replace(/&/g, "&amp;").replace(/"/g, "&quot;")
    .replace(/</g, "&lt;").replace(/>/g, "&gt;");
}

function opener(mark: EditorMark, style: Style): string {
  switch (mark.type) {
    case MARK.link: {
      if (!style.html) return "[";
      const title = linkTitle(mark);
      return `<a href="${attribute(linkHref(mark))}"${
        title === null ? "" : ` title="${attribute(title)}"`
      }>`;
    }
    case MARK.bold:
      return style.html ? "<strong>" : "**";
    default:
      return style.html ? "<em>" : "*";
  }
}

function closer(mark: EditorMark, style: Style): string {
  switch (mark.type) {
    case MARK.link:
      return style.html ? "</a>" : linkEnd(mark);
    case MARK.bold:
      return style.html ? "</strong>" : "**";
    default:
      return style.html ? "</em>" : "*";
  }
}

/** The inline content of a canonical paragraph or heading. */
function printInline(nodes: readonly EditorNode[], style: Style): string {
  let out = "";
  const open: EditorMark[] = [];
  const closeTo = (keep: number) => {
    while (open.length > keep) out += closer(open.pop()!, style);
  };
  for (const node of nodes) {
    const marks = (node.type === NODE.text ? node.marks ?? [] : [])
      .filter((mark) => mark.type !== MARK.code);
    let keep = 0;
    while (
      keep < open.length && keep < marks.length &&
      sameMark(open[keep]!, marks[keep]!)
    ) keep++;
    closeTo(keep);
    if (node.type === NODE.hardBreak) {
      out += "\\\n";
      continue;
    }
    for (const mark of marks.slice(keep)) {
      // `!` before a link's `[` would make it an image.
      if (mark.type === MARK.link && /(?:^|[^\\])(?:\\\\)*!$/.test(out)) {
        out = out.slice(0, -1) + "\\!";
      }
      out += opener(mark, style);
      open.push(mark);
    }
    const text = node.text ?? "";
    out += node.marks?.some((mark) => mark.type === MARK.code)
      ? codeSpan(text)
      : escapeText(text);
  }
  closeTo(0);
  return out;
}

function printParagraph(node: EditorNode, style: Style): string {
  return printInline(node.content ?? [], style).split("\n")
    .map(escapeLineStart).join("\n");
}

function printHeading(node: EditorNode, style: Style): string {
  const hashes = "#".repeat(numberAttr(node, "level", 1));
  let text = printInline(node.content ?? [], style);
  const closing = /(^|[ \t])(#+)$/.exec(text);
  if (closing) {
    const at = text.length - closing[2]!.length;
    text = text.slice(0, at) + "\\" + text.slice(at);
  }
  return text === "" ? hashes : `${hashes} ${text}`;
}

/**
 * A list item's blocks, without its marker.
 *
 * @param item a canonical list item
 * @param tight whether its list is tight
 * @param style how emphasis is written
 * @returns the item's markdown, unindented
 */
export function printItemBody(
  item: EditorNode,
  tight: boolean,
  style: Style = { html: false },
): string {
  return (item.content ?? []).map((block) => printNode(block, style))
    .join(tight ? "\n" : "\n\n");
}

/**
 * The marker of an item of a canonical list.
 *
 * @param list the list
 * @param index the item's index
 * @returns `-`, `*` or `+`, or the number and its delimiter
 */
export function itemMarker(list: EditorNode, index: number): string {
  return list.type === NODE.bulletList
    ? stringAttr(list, "bullet", "-")
    : `${numberAttr(list, "start", 1) + index}${
      stringAttr(list, "delimiter", ".")
    }`;
}

/** Where an item's marker goes: spaces before it and after it. */
export interface ItemLayout {
  /** The spaces before the marker: 0 to 3. */
  indent: string;
  /** The spaces after it: 1 to 4. */
  gap: string;
}

const PLAIN_LAYOUT: ItemLayout = { indent: "", gap: " " };

/**
 * An item with its marker, its other lines indented under its first line's
 * text.
 *
 * @param marker the item's marker
 * @param body its markdown, from {@linkcode printItemBody}
 * @param layout the spaces around the marker; default none before, one after
 * @returns the item's lines
 */
export function printItem(
  marker: string,
  body: string,
  layout: ItemLayout = PLAIN_LAYOUT,
): string {
  const { indent, gap } = layout;
  const pad = " ".repeat(indent.length + marker.length + gap.length);
  return body.split("\n").map((line, index) =>
    index === 0
      ? (line === "" ? indent + marker : indent + marker + gap + line)
      : (line === "" ? "" : pad + line)
  ).join("\n");
}

function printNode(node: EditorNode, style: Style): string {
  switch (node.type) {
    case NODE.paragraph:
      return printParagraph(node, style);
    case NODE.heading:
      return printHeading(node, style);
    case NODE.blockquote:
      return (node.content ?? []).map((block) => printNode(block, style))
        .join("\n\n").split("\n")
        .map((line) => line === "" ? ">" : `> ${line}`).join("\n");
    case NODE.bulletList:
    case NODE.orderedList: {
      const tight = isTight(node);
      return (node.content ?? []).map((item, index) =>
        printItem(itemMarker(node, index), printItemBody(item, tight, style))
      ).join(tight ? "\n" : "\n\n");
    }
    case NODE.kept:
      return stringAttr(node, "source", "");
    default:
      throw new MarkdownWriteError(`a ${node.type} has no markdown`);
  }
}

/**
 * The block markdown reads from a text, canonical, or `undefined` when the
 * text is not exactly one block the editor represents.
 *
 * @param text the markdown of one block
 * @returns the block, canonical
 */
export function readBlock(text: string): EditorNode | undefined {
  const tokens = parseMarkdown(text);
  if (tokens.length === 0 || closing(tokens, 0) !== tokens.length - 1) {
    return undefined;
  }
  const node = blockNode(tokens, 0, tokens.length - 1);
  return node === undefined ? undefined : normaliseBlock(node);
}

/**
 * Writes a canonical block as markdown, checked: read back, it is the same
 * block. Emphasis is written with `*` when that reads back, else with
 * `<strong>` and `<em>`.
 *
 * @param node a canonical block (`normaliseBlock`)
 * @returns its markdown, without a final line feed
 * @throws {MarkdownWriteError} when no writing reads back as the block
 */
export function printBlock(node: EditorNode): string {
  if (node.type === NODE.kept) return stringAttr(node, "source", "");
  for (const html of [false, true]) {
    const text = printNode(node, { html });
    const back = readBlock(text);
    if (back !== undefined && sameBlock(back, node)) return text;
  }
  throw new MarkdownWriteError(
    `a ${node.type} could not be written as markdown that reads back the same`,
  );
}
