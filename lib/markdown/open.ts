/**
 * Opening a markdown string: its top-level blocks, each with its exact
 * source and the blank lines before it, which blocks the editor can
 * represent, and the editor's document.
 *
 * @module
 */

import { type EditorNode, type MarkdownBlockKind, NODE } from "./editor_doc.ts";
import { normaliseBlock } from "./normalise.ts";
import { type Env, parseMarkdown, type Token } from "./parser.ts";
import { printBlock } from "./print.ts";
import { blockNode, closing } from "./to_doc.ts";
import { MarkdownWriteError } from "./write_error.ts";

/** One top-level block of a markdown string. */
export interface MarkdownBlock {
  /** What it is. */
  readonly kind: MarkdownBlockKind;
  /** Whether the editor can change it; otherwise it is kept as written. */
  readonly editable: boolean;
  /** Its exact source: its lines, without the line feed after the last. */
  readonly source: string;
  /** The blank lines before it, exactly (line feeds, spaces, tabs). */
  readonly before: string;
  /**
   * Its node in the editor's document: the block itself when editable,
   * else a `markdownBlock` holding its source and kind.
   */
  readonly node: EditorNode;
}

/** A markdown string, opened for editing. */
export interface MarkdownDocument {
  /** The string as it was opened. */
  readonly source: string;
  /**
   * Its top-level blocks, in order: `source` is each block's `before` and
   * `source`, then `after`.
   */
  readonly blocks: readonly MarkdownBlock[];
  /** The blank lines after the last block. */
  readonly after: string;
  /** The editor's document: a `doc` of the blocks' nodes. */
  readonly doc: EditorNode;
}

const KINDS: Readonly<Record<string, MarkdownBlockKind>> = {
  paragraph_open: "paragraph",
  heading_open: "heading",
  bullet_list_open: "bullet_list",
  ordered_list_open: "ordered_list",
  blockquote_open: "blockquote",
  fence: "code",
  code_block: "code",
  html_block: "html",
  table_open: "table",
  hr: "thematic_break",
};

const BLANK_LINE = /^[ \t]*$/;
/** Front matter: `---` on the first line, up to a line `---` or `...`. */
const FRONT_MATTER = /^---[ \t]*\n(?:[^\n]*\n)*?(?:---|\.\.\.)[ \t]*(?=\n|$)/;

/** The node of a block the editor keeps as written. */
function keptNode(source: string, kind: MarkdownBlockKind): EditorNode {
  return { type: NODE.kept, attrs: { source, kind } };
}

/** A block read from its tokens, editable when the editor can write it. */
function block(
  kind: MarkdownBlockKind,
  source: string,
  before: string,
  node: EditorNode | undefined,
): MarkdownBlock {
  // A reference definition inside a block (in a quote, a list item) would
  // be lost by the editor: its block is kept too.
  let canonical: EditorNode | undefined;
  if (
    node !== undefined && !definesReferences(source)
  ) {
    try {
      canonical = normaliseBlock(node);
      printBlock(canonical);
    } catch (error) {
      if (!(error instanceof MarkdownWriteError)) throw error;
      canonical = undefined;
    }
  }
  return canonical === undefined
    ? { kind, editable: false, source, before, node: keptNode(source, kind) }
    : { kind, editable: true, source, before, node: canonical };
}

/** Whether a block's source defines a link reference. */
function definesReferences(source: string): boolean {
  if (!source.includes("]:")) return false;
  const env: Env = {};
  parseMarkdown(source, env);
  return Object.keys(env.references ?? {}).length > 0;
}

/**
 * The kept blocks of the lines of a gap that are not blank (reference
 * definitions, which markdown-it leaves out of its tokens), and the blank
 * text after the last of them.
 */
function gapBlocks(text: string): { blocks: MarkdownBlock[]; before: string } {
  const blocks: MarkdownBlock[] = [];
  let done = 0;
  let start = -1;
  let end = 0;
  const flush = () => {
    if (start < 0) return;
    const source = text.slice(start, end);
    const kind = source.startsWith("[^")
      ? "footnote"
      : source.startsWith("[")
      ? "reference"
      : "other";
    const before = text.slice(done, start);
    blocks.push({
      kind,
      editable: false,
      source,
      before,
      node: keptNode(source, kind),
    });
    done = end;
    start = -1;
  };
  for (let at = 0; at <= text.length;) {
    const next = text.indexOf("\n", at);
    const lineEnd = next < 0 ? text.length : next;
    if (BLANK_LINE.test(text.slice(at, lineEnd))) flush();
    else {
      if (start < 0) start = at;
      end = lineEnd;
    }
    if (next < 0) break;
    at = next + 1;
  }
  flush();
  return { blocks, before: text.slice(done) };
}

/**
 * Opens a markdown string: its top-level blocks with their exact source,
 * which the editor can change, and the editor's document.
 *
 * Headings, paragraphs (with bold, italic, links and code spans), bullet and
 * ordered lists and block quotes are editable when all they hold is; fenced
 * and indented code, HTML blocks, tables, thematic breaks, reference
 * definitions, footnotes, front matter and anything else are kept as
 * written, as `markdownBlock` nodes. A string holding a carriage return or
 * a NUL (never stored: the page rules remove them) is kept whole.
 *
 * @param source the markdown
 * @returns the opened document
 */
export function openMarkdown(source: string): MarkdownDocument {
  const blocks: MarkdownBlock[] = [];
  let after: string;
  if (/[\r\0]/.test(source)) {
    blocks.push(block("other", source, "", undefined));
    after = "";
  } else {
    let rest = source;
    const front = FRONT_MATTER.exec(source)?.[0];
    if (front !== undefined) {
      blocks.push(block("front_matter", front, "", undefined));
      rest = source.slice(front.length);
    }
    after = splitBlocks(rest, blocks);
  }
  const content = blocks.map((each) => each.node);
  return {
    source,
    blocks,
    after,
    doc: {
      type: NODE.doc,
      content: content.length > 0 ? content : [{ type: NODE.paragraph }],
    },
  };
}

/**
 * Appends the blocks of `text` (whose line 0 starts a line) to `blocks`.
 *
 * @returns the blank text after the last block
 */
function splitBlocks(text: string, blocks: MarkdownBlock[]): string {
  const tokens: Token[] = parseMarkdown(text);
  const starts = [0];
  for (let at = text.indexOf("\n"); at >= 0; at = text.indexOf("\n", at + 1)) {
    starts.push(at + 1);
  }
  const lineEnd = (line: number) =>
    line + 1 < starts.length ? starts[line + 1]! - 1 : text.length;
  const blank = (line: number) =>
    BLANK_LINE.test(text.slice(starts[line]!, lineEnd(line)));
  let done = 0; // the offset where the text not yet in a block begins
  const addGap = (end: number): string => {
    const gap = gapBlocks(text.slice(done, end));
    blocks.push(...gap.blocks);
    return gap.before;
  };
  for (let index = 0; index < tokens.length;) {
    const token = tokens[index]!;
    const end = closing(tokens, index);
    const map = token.map;
    if (map === null || token.level !== 0) {
      index = end + 1;
      continue;
    }
    let last = map[1] - 1;
    while (last > map[0] && blank(last)) last--;
    const from = starts[map[0]]!;
    const to = lineEnd(last);
    const before = addGap(from);
    const source = text.slice(from, to);
    // A footnote's definition (`[^1]: The note.`) reads as a paragraph.
    const kind = /^\[\^[^\]\s]+\]:/.test(source)
      ? "footnote"
      : KINDS[token.type] ?? "other";
    const node = kind === "paragraph" || kind === "heading" ||
        kind === "bullet_list" || kind === "ordered_list" ||
        kind === "blockquote"
      ? blockNode(tokens, index, end)
      : undefined;
    blocks.push(block(kind, source, before, node));
    done = to;
    index = end + 1;
  }
  return addGap(text.length);
}
