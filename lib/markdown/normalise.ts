/**
 * The canonical form of an editor's block: what markdown can say of it, so
 * that two blocks that would be written alike compare equal.
 *
 * - Text: adjacent runs with the same marks merged, empty runs dropped, line
 *   feeds as spaces; spaces and tabs trimmed at the start and end of a block
 *   and around a line break (markdown drops them there); a line break at the
 *   start or end of a block dropped, and in a heading a space.
 * - Marks: in one order (link, bold, italic, code), each once; code only
 *   with a link; bold and italic never begin or end with white space (it
 *   moves out of them).
 * - Blocks: empty paragraphs dropped (but the first of a list item, which
 *   becomes a no-break space when blocks follow it), a list tight only when
 *   markdown can write it so, and two lists of one kind side by side told
 *   apart by their markers (`-` then `*`, `.` then `)`), as markdown needs.
 * - Attributes: only those the markdown holds.
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
import { MarkdownWriteError } from "./write_error.ts";

const RANK: Readonly<Record<string, number>> = {
  [MARK.link]: 0,
  [MARK.bold]: 1,
  [MARK.italic]: 2,
  [MARK.code]: 3,
};

const BLANK = /^[ \t]+|[ \t]+$/g;
const LEADING = /^[ \t]+/;
const TRAILING = /[ \t]+$/;

/** Whether two marks are the same mark with the same attributes. */
export function sameMark(a: EditorMark, b: EditorMark): boolean {
  if (a.type !== b.type) return false;
  if (a.type !== MARK.link) return true;
  return linkHref(a) === linkHref(b) && linkTitle(a) === linkTitle(b);
}

/** A link mark's `href`. */
export function linkHref(mark: EditorMark): string {
  const href = mark.attrs?.href;
  // A destination holds no space, control character, `<` or `>`.
  return typeof href === "string"
    // deno-lint-ignore no-control-regex
    ? href.replace(/[\u0000-\u0020<>\u007f]/g, encodeURIComponent)
    : "";
}

/** A link mark's `title`, or `null`. */
export function linkTitle(mark: EditorMark): string | null {
  const title = mark.attrs?.title;
  return typeof title === "string" && title !== "" ? title : null;
}

function cleanMarks(marks: readonly EditorMark[] | undefined): EditorMark[] {
  const kept: EditorMark[] = [];
  for (const mark of marks ?? []) {
    if (!(mark.type in RANK)) {
      throw new MarkdownWriteError(`a ${mark.type} mark has no markdown`);
    }
    if (kept.some((other) => other.type === mark.type)) continue;
    kept.push(
      mark.type === MARK.link
        ? {
          type: MARK.link,
          attrs: { href: linkHref(mark), title: linkTitle(mark) },
        }
        : { type: mark.type },
    );
  }
  const code = kept.some((mark) => mark.type === MARK.code);
  return kept
    .filter((mark) =>
      !code || mark.type === MARK.code || mark.type === MARK.link
    )
    .sort((a, b) => RANK[a.type]! - RANK[b.type]!);
}

function sameMarks(a: readonly EditorMark[], b: readonly EditorMark[]) {
  return a.length === b.length && a.every((mark, i) => sameMark(mark, b[i]!));
}

/** A run of text with its marks. */
type Text = { text: string; marks: EditorMark[] };
/** A run of text, or a line break (`text` undefined). */
type Inline = Text | { text: undefined };

/** The inline content of a paragraph or heading, canonical. */
function normaliseInline(
  content: readonly EditorNode[] | undefined,
  heading: boolean,
): EditorNode[] {
  let runs: Inline[] = [];
  for (const node of content ?? []) {
    if (node.type === NODE.text) {
      runs.push({
        text: (node.text ?? "").replace(/\r\n?|\n/g, " "),
        marks: cleanMarks(node.marks),
      });
    } else if (node.type === NODE.hardBreak) {
      runs.push(heading ? { text: " ", marks: [] } : { text: undefined });
    } else {
      throw new MarkdownWriteError(`a ${node.type} has no place in a line`);
    }
  }
  runs = trimLines(runs);
  for (const type of [MARK.bold, MARK.italic]) runs = expel(runs, type);
  const merged: Inline[] = [];
  for (const run of runs) {
    const last = merged.at(-1);
    if (run.text === "") continue;
    if (
      last?.text !== undefined && run.text !== undefined &&
      sameMarks(last.marks, run.marks)
    ) {
      merged[merged.length - 1] = { ...last, text: last.text + run.text };
    } else merged.push(run);
  }
  return merged.map((run): EditorNode =>
    run.text === undefined
      ? { type: NODE.hardBreak }
      : run.marks.length > 0
      ? { type: NODE.text, text: run.text, marks: run.marks }
      : { type: NODE.text, text: run.text }
  );
}

/** Drops the spaces markdown drops: at each line's ends, and empty lines. */
function trimLines(runs: Inline[]): Inline[] {
  const lines: Inline[][] = [[]];
  for (const run of runs) {
    if (run.text === undefined) lines.push([]);
    else lines.at(-1)!.push({ ...run });
  }
  const trimmed = lines.map((line) => {
    const kept = line.filter((run) => run.text !== "");
    while (kept.length > 0 && !code(kept[0]!)) {
      const first = kept[0] as Text;
      first.text = first.text.replace(LEADING, "");
      if (first.text !== "") break;
      kept.shift();
    }
    while (kept.length > 0 && !code(kept.at(-1)!)) {
      const end = kept.at(-1) as Text;
      end.text = end.text.replace(TRAILING, "");
      if (end.text !== "") break;
      kept.pop();
    }
    return kept.filter((run) => run.text !== "");
  });
  // A break at the start or the end of a block says nothing.
  while (trimmed.length > 1 && trimmed[0]!.length === 0) trimmed.shift();
  while (trimmed.length > 1 && trimmed.at(-1)!.length === 0) trimmed.pop();
  return trimmed.flatMap((line, index) =>
    index === 0 ? line : [{ text: undefined }, ...line]
  );
}

function code(run: Inline): boolean {
  return run.text !== undefined &&
    run.marks.some((mark) => mark.type === MARK.code);
}

/**
 * Moves white space out of the ends of each stretch of `type` (markdown's
 * `*` and `**` cannot begin or end with it).
 */
function expel(runs: Inline[], type: string): Inline[] {
  const out: Inline[] = [];
  let stretch: Text[] = [];
  const has = (run: Inline): run is Text =>
    run.text !== undefined && run.marks.some((mark) => mark.type === type);
  const without = (run: Text, text: string): Text => ({
    text,
    marks: run.marks.filter((mark) => mark.type !== type),
  });
  const flush = () => {
    const head: Text[] = [];
    while (stretch.length > 0 && !code(stretch[0]!)) {
      const run = stretch[0]!;
      const lead = LEADING.exec(run.text)?.[0] ?? "";
      if (lead === "") break;
      head.push(without(run, lead));
      if (lead.length < run.text.length) {
        stretch[0] = { ...run, text: run.text.slice(lead.length) };
        break;
      }
      stretch.shift();
    }
    const tail: Text[] = [];
    while (stretch.length > 0 && !code(stretch.at(-1)!)) {
      const run = stretch.at(-1)!;
      const trail = TRAILING.exec(run.text)?.[0] ?? "";
      if (trail === "") break;
      tail.unshift(without(run, trail));
      if (trail.length < run.text.length) {
        stretch[stretch.length - 1] = {
          ...run,
          text: run.text.slice(0, run.text.length - trail.length),
        };
        break;
      }
      stretch.pop();
    }
    out.push(...head, ...stretch, ...tail);
    stretch = [];
  };
  for (const run of runs) {
    if (has(run)) stretch.push(run);
    else {
      flush();
      out.push(run);
    }
  }
  flush();
  return out;
}

function isEmptyParagraph(node: EditorNode): boolean {
  return node.type === NODE.paragraph && (node.content ?? []).length === 0;
}

function isList(node: EditorNode): boolean {
  return node.type === NODE.bulletList || node.type === NODE.orderedList;
}

/**
 * A list's marker: its bullet, or its number's delimiter (read from the
 * source of a list kept as written).
 */
export function listMarker(node: EditorNode): string {
  if (node.type === NODE.kept) {
    const source = stringAttr(node, "source", "");
    return /^[ \t]*\d+([.)])/.exec(source)?.[1] ??
      /^[ \t]*([-*+])/.exec(source)?.[1] ?? "";
  }
  return node.type === NODE.bulletList
    ? stringAttr(node, "bullet", "-")
    : stringAttr(node, "delimiter", ".");
}

/** The marker that tells a list of a kind from one just before it. */
function otherMarker(kind: string, before: string): string {
  if (kind === NODE.orderedList) return before === "." ? ")" : ".";
  return before === "-" ? "*" : "-";
}

/**
 * A sequence of blocks, canonical: empty paragraphs dropped, and of two
 * lists of one kind side by side, one given another marker (the second,
 * or the first when the second is kept as written), since markdown would
 * make them one list.
 *
 * @param nodes the blocks
 * @returns the canonical blocks
 */
export function normaliseBlocks(nodes: readonly EditorNode[]): EditorNode[] {
  const out = nodes.map(normaliseBlock).filter((node) =>
    !isEmptyParagraph(node)
  );
  for (let i = 1; i < out.length; i++) {
    const [before, node] = [out[i - 1]!, out[i]!];
    const kind = listKind(node);
    if (kind === undefined || kind !== listKind(before)) continue;
    if (listMarker(before) !== listMarker(node)) continue;
    // The list that can change takes the other marker: the second, or the
    // first when the second is kept as written.
    if (isList(node)) setMarker(node, otherMarker(kind, listMarker(before)));
    else if (isList(before)) {
      const avoid = [listMarker(node), out[i - 2] && listMarker(out[i - 2]!)];
      setMarker(
        before,
        [otherMarker(kind, listMarker(node)), ...MARKERS[kind]!].find((m) =>
          !avoid.includes(m)
        )!,
      );
    }
  }
  return out;
}

const MARKERS: Readonly<Record<string, readonly string[]>> = {
  [NODE.bulletList]: ["-", "*", "+"],
  [NODE.orderedList]: [".", ")"],
};

/** A list's kind (a kept list's too): bullet or ordered, else undefined. */
function listKind(node: EditorNode): string | undefined {
  if (isList(node)) return node.type;
  const kind = node.type === NODE.kept ? node.attrs?.kind : undefined;
  return kind === "bullet_list"
    ? NODE.bulletList
    : kind === "ordered_list"
    ? NODE.orderedList
    : undefined;
}

function setMarker(node: EditorNode, marker: string): void {
  const name = node.type === NODE.bulletList ? "bullet" : "delimiter";
  node.attrs = { ...node.attrs, [name]: marker };
}

/**
 * One block, canonical (see the module doc).
 *
 * @param node the block
 * @returns its canonical form
 * @throws {MarkdownWriteError} on a node or mark markdown has no form for
 */
export function normaliseBlock(node: EditorNode): EditorNode {
  switch (node.type) {
    case NODE.paragraph:
    case NODE.heading: {
      const heading = node.type === NODE.heading;
      const content = normaliseInline(node.content, heading);
      const out: EditorNode = heading
        ? {
          type: NODE.heading,
          attrs: {
            level: Math.min(6, Math.max(1, numberAttr(node, "level", 1))),
          },
        }
        : { type: NODE.paragraph };
      if (content.length > 0) out.content = content;
      return out;
    }
    case NODE.blockquote: {
      const content = normaliseBlocks(node.content ?? []);
      return {
        type: NODE.blockquote,
        content: content.length > 0 ? content : [{ type: NODE.paragraph }],
      };
    }
    case NODE.bulletList:
    case NODE.orderedList:
      return normaliseList(node);
    case NODE.kept:
      return {
        type: NODE.kept,
        attrs: {
          source: stringAttr(node, "source", ""),
          kind: stringAttr(node, "kind", "other"),
        },
      };
    default:
      throw new MarkdownWriteError(`a ${node.type} has no markdown`);
  }
}

function normaliseList(node: EditorNode): EditorNode {
  const items = (node.content ?? []).map(normaliseItem);
  if (items.length === 0) items.push(normaliseItem({ type: NODE.listItem }));
  // Markdown shows a list loose only by its paragraphs, and only when an
  // item holds two blocks or two items are parted.
  const tight = (isTight(node) && items.every(fitsTight)) ||
    !items.some((item) => hasText(item.content?.[0])) ||
    (items.length === 1 && items[0]!.content!.length === 1);
  if (node.type === NODE.bulletList) {
    const bullet = stringAttr(node, "bullet", "-");
    return {
      type: NODE.bulletList,
      attrs: { bullet: ["-", "*", "+"].includes(bullet) ? bullet : "-", tight },
      content: items,
    };
  }
  const start = Math.min(
    999_999_999,
    Math.max(0, numberAttr(node, "start", 1)),
  );
  const delimiter = stringAttr(node, "delimiter", ".") === ")" ? ")" : ".";
  return {
    type: NODE.orderedList,
    attrs: { start, delimiter, tight },
    content: items,
  };
}

function normaliseItem(node: EditorNode): EditorNode {
  if (node.type !== NODE.listItem) {
    throw new MarkdownWriteError(`a ${node.type} where a list item goes`);
  }
  const [head, ...rest] = node.content ?? [];
  const first = head?.type === NODE.paragraph
    ? normaliseBlock(head)
    : { type: NODE.paragraph };
  const blocks = normaliseBlocks(
    head === undefined || head.type === NODE.paragraph ? rest : [head, ...rest],
  );
  if (blocks.length > 0 && isEmptyParagraph(first)) {
    first.content = [{ type: NODE.text, text: "\u00a0" }];
  }
  return { type: NODE.listItem, content: [first, ...blocks] };
}

function hasText(node: EditorNode | undefined): boolean {
  return (node?.content ?? []).length > 0;
}

/**
 * Whether an item can be written without blank lines between its blocks:
 * after its paragraph, only blocks that can interrupt one (a list whose
 * first item has text and, numbered, starts at 1; a heading; a quote not
 * just after another).
 */
function fitsTight(item: EditorNode): boolean {
  const blocks = item.content ?? [];
  return blocks.slice(1).every((block, index) =>
    block.type === NODE.heading ||
    (block.type === NODE.blockquote &&
      blocks[index]!.type !== NODE.blockquote) ||
    ((block.type === NODE.bulletList ||
      (block.type === NODE.orderedList &&
        numberAttr(block, "start", 1) === 1)) &&
      hasText(block.content?.[0]?.content?.[0]))
  );
}

/**
 * Whether two canonical blocks are equal.
 *
 * @returns true when they are the same JSON
 */
export function sameBlock(a: EditorNode, b: EditorNode): boolean {
  return JSON.stringify(a) === JSON.stringify(b);
}

/** Removes the blank: what `BLANK` matches at both ends. */
export function trimBlank(text: string): string {
  return text.replace(BLANK, "");
}
