/**
 * Writing an edited document back as markdown, changing only what changed.
 *
 * The edited blocks are matched with the opened ones by their canonical
 * markdown (the longest common subsequence, then blocks moved elsewhere):
 * a block that matches is written from its source, byte for byte, with the
 * blank lines that were around it; a block that does not is written anew
 * (`print.ts`) between blank lines. A changed list keeps the source of its
 * unchanged items. What is written is read back and must give the edited
 * document; when it does not (a paragraph indented under a list item that
 * is now longer, say), it is written again keeping less of the source (see
 * `Keep`), and otherwise refused.
 *
 * @module
 */

import { type EditorNode, isTight, NODE } from "./editor_doc.ts";
import { listMarker, normaliseBlocks } from "./normalise.ts";
import {
  type MarkdownBlock,
  type MarkdownDocument,
  openMarkdown,
} from "./open.ts";
import { parseMarkdown } from "./parser.ts";
import {
  type ItemLayout,
  itemMarker,
  printBlock,
  printItem,
  printItemBody,
} from "./print.ts";
import { closing } from "./to_doc.ts";
import { MarkdownWriteError } from "./write_error.ts";

/** The canonical markdown of an opened block: how blocks are matched. */
function openedKey(block: MarkdownBlock): string {
  return block.editable ? printBlock(block.node) : block.source;
}

/**
 * The pairs of a longest common subsequence of two lists of keys, in
 * order: `[index in a, index in b]`. Between equal choices, an item of `b`
 * is left out first, so that an edited `a[0]` is not paired with `b[1]`
 * when `b[0]` and `b[1]` are alike.
 */
export function commonPairs(
  a: readonly string[],
  b: readonly string[],
): [number, number][] {
  const width = b.length + 1;
  const table = new Uint32Array((a.length + 1) * width);
  for (let i = a.length - 1; i >= 0; i--) {
    for (let j = b.length - 1; j >= 0; j--) {
      table[i * width + j] = a[i] === b[j]
        ? table[(i + 1) * width + j + 1]! + 1
        : Math.max(table[(i + 1) * width + j]!, table[i * width + j + 1]!);
    }
  }
  const pairs: [number, number][] = [];
  for (let i = 0, j = 0; i < a.length && j < b.length;) {
    if (a[i] === b[j]) {
      pairs.push([i, j]);
      i++;
      j++;
    } else if (table[(i + 1) * width + j]! > table[i * width + j + 1]!) i++;
    else j++;
  }
  return pairs;
}

/** Where each edited block comes from in the opened document. */
interface Origins {
  /** Unchanged, in order: written from its source. */
  same: Map<number, number>;
  /** Unchanged but moved: written from its source. */
  moved: Map<number, number>;
  /** Changed in place: takes the opened block's place (its blank lines). */
  replaces: Map<number, number>;
}

function origins(wanted: readonly string[], keys: readonly string[]): Origins {
  const pairs = commonPairs(wanted, keys);
  const same = new Map(pairs);
  const used = new Set(same.values());
  const moved = new Map<number, number>();
  wanted.forEach((key, i) => {
    if (same.has(i)) return;
    const j = keys.findIndex((other, at) => other === key && !used.has(at));
    if (j >= 0) {
      moved.set(i, j);
      used.add(j);
    }
  });
  // Between two unchanged blocks, as many changed blocks as opened ones
  // that went: each takes the place of one.
  const replaces = new Map<number, number>();
  const anchors: [number, number][] = [
    [-1, -1],
    ...pairs,
    [wanted.length, keys.length],
  ];
  for (let k = 1; k < anchors.length; k++) {
    const [i0, j0] = anchors[k - 1]!;
    const [i1, j1] = anchors[k]!;
    const nodes: number[] = [];
    for (let i = i0 + 1; i < i1; i++) if (!moved.has(i)) nodes.push(i);
    const gone: number[] = [];
    for (let j = j0 + 1; j < j1; j++) if (!used.has(j)) gone.push(j);
    if (nodes.length === gone.length) {
      nodes.forEach((i, n) => replaces.set(i, gone[n]!));
    }
  }
  return { same, moved, replaces };
}

/** One item of an opened list: its source and the blank lines before it. */
interface OpenedItem {
  source: string;
  before: string;
  marker: string;
  /** The spaces around its marker, which new items next to it copy. */
  layout: ItemLayout;
}

/** The spaces around an item's marker, when only spaces (else plain). */
function layoutOf(source: string): ItemLayout {
  const [, indent = "", gap = ""] = /^( {0,3})\S+( {1,4})(?=\S)/.exec(source) ??
    [];
  return { indent, gap: gap === "" ? " " : gap };
}

/** The items of a list block's source, as written. */
function openedItems(source: string): OpenedItem[] {
  const tokens = parseMarkdown(source);
  const starts = [0];
  for (
    let at = source.indexOf("\n");
    at >= 0;
    at = source.indexOf("\n", at + 1)
  ) {
    starts.push(at + 1);
  }
  const lineText = (line: number) =>
    source.slice(starts[line]!, (starts[line + 1] ?? source.length + 1) - 1);
  const items: OpenedItem[] = [];
  let done = 0;
  const end = closing(tokens, 0);
  for (let index = 1; index < end; index = closing(tokens, index) + 1) {
    const token = tokens[index]!;
    const [first, next] = token.map ?? [0, 0];
    let last = next - 1;
    while (last > first && /^[ \t]*$/.test(lineText(last))) last--;
    const from = starts[first]!;
    const to = starts[last]! + lineText(last).length;
    items.push({
      source: source.slice(from, to),
      before: source.slice(done, from),
      marker: token.info + token.markup,
      layout: layoutOf(source.slice(from, to)),
    });
    done = to;
  }
  return items;
}

/**
 * A changed list written with the source of its unchanged items, or
 * `undefined` when it is not the same kind of list as the opened one.
 */
function mergeList(
  opened: MarkdownBlock,
  node: EditorNode,
): string | undefined {
  const old = opened.node;
  if (
    !opened.editable || old.type !== node.type ||
    (node.type !== NODE.bulletList && node.type !== NODE.orderedList) ||
    listMarker(old) !== listMarker(node) || isTight(old) !== isTight(node)
  ) return undefined;
  const tight = isTight(node);
  const items = openedItems(opened.source);
  const oldItems = old.content ?? [];
  if (items.length !== oldItems.length) return undefined;
  const newItems = node.content ?? [];
  const bodies = newItems.map((item) => printItemBody(item, tight));
  const pairs = new Map(
    commonPairs(bodies, oldItems.map((item) => printItemBody(item, tight))),
  );
  const numbers = items.map((item) => item.marker);
  // A list numbered 1. 1. 1. goes on so.
  const uniform = node.type === NODE.orderedList && numbers.length > 1 &&
    numbers.every((marker) => marker === numbers[0]);
  let text = "";
  let previous = -2;
  let layout = items[0]?.layout;
  newItems.forEach((_, i) => {
    const j = pairs.get(i);
    const marker = uniform ? numbers[0]! : itemMarker(node, i);
    const reuse = j !== undefined &&
      (node.type === NODE.bulletList || items[j]!.marker === marker);
    if (i > 0) {
      text += reuse && j === previous + 1
        ? items[j]!.before
        : tight
        ? "\n"
        : "\n\n";
    }
    if (reuse) layout = items[j!]!.layout;
    text += reuse ? items[j!]!.source : printItem(marker, bodies[i]!, layout);
    previous = reuse ? j! : -2;
  });
  return text;
}

/** The edited blocks and their canonical markdown. */
interface Edited {
  nodes: EditorNode[];
  keys: string[];
}

/**
 * How much of the opened source a write keeps: `all` (unchanged blocks, the
 * places and unchanged items of changed ones), `unchanged` (unchanged
 * blocks and the blank lines between them), `kept` (only the blocks the
 * editor cannot write: an unchanged block whose source leans on what was
 * before it, such as an indented paragraph after a list, is written anew).
 */
type Keep = "all" | "unchanged" | "kept";

function assemble(
  opened: MarkdownDocument,
  edited: Edited,
  keys: readonly string[],
  keep: Keep,
): string {
  const { same, moved, replaces } = origins(edited.keys, keys);
  let text = opened.blocks[0]?.before ?? "";
  let previous: number | undefined;
  edited.nodes.forEach((node, i) => {
    let exact = same.get(i) ?? moved.get(i);
    if (
      keep === "kept" && exact !== undefined && opened.blocks[exact]!.editable
    ) {
      exact = undefined;
    }
    const place = keep === "all" ? exact ?? replaces.get(i) : exact;
    if (i > 0) {
      text += place !== undefined && previous !== undefined &&
          place === previous + 1
        ? opened.blocks[place]!.before
        : "\n\n";
    }
    if (exact !== undefined) text += opened.blocks[exact]!.source;
    else if (place !== undefined) {
      text += mergeList(opened.blocks[place]!, node) ?? edited.keys[i]!;
    } else text += edited.keys[i]!;
    previous = place;
  });
  return text + opened.after;
}

/**
 * Whether a text opens as exactly these blocks: each kept block with its
 * source (whatever markdown makes of it now: a paragraph whose reference
 * definition was deleted may read differently), each other block the same.
 */
function readsAs(text: string, edited: Edited): boolean {
  const blocks = openMarkdown(text).blocks;
  return blocks.length === edited.nodes.length &&
    blocks.every((block, i) =>
      edited.nodes[i]!.type === NODE.kept
        ? block.source === edited.keys[i]
        : block.editable && openedKey(block) === edited.keys[i]
    );
}

/**
 * Writes an edited document back as markdown: every block that did not
 * change is written from its source, byte for byte, with the blank lines
 * around it; a block that changed is written anew, a changed list keeping
 * the source of its unchanged items. Opening and writing back with no edit
 * gives the source unchanged. Front matter, wherever it was moved, is
 * written first.
 *
 * @param opened the document as opened
 * @param edited the editor's document (`editor.getJSON()`)
 * @returns the markdown
 * @throws {MarkdownWriteError} on a node or mark markdown has no form for,
 *   or when no writing reads back as the document (a block placed after a
 *   kept one that runs to the end, such as a code fence never closed)
 */
export function writeMarkdown(
  opened: MarkdownDocument,
  edited: EditorNode,
): string {
  if (edited.type !== NODE.doc) {
    throw new MarkdownWriteError(`a ${edited.type} is not a document`);
  }
  // Front matter is front matter only at the top.
  const content = edited.content ?? [];
  const front = (node: EditorNode) =>
    node.type === NODE.kept && node.attrs?.kind === "front_matter";
  const nodes = normaliseBlocks([
    ...content.filter(front),
    ...content.filter((node) => !front(node)),
  ]);
  const wanted: Edited = { nodes, keys: nodes.map(printBlock) };
  const keys = opened.blocks.map(openedKey);
  for (const keep of ["all", "unchanged", "kept"] as const) {
    const text = assemble(opened, wanted, keys, keep);
    if (readsAs(text, wanted)) return text;
  }
  throw new MarkdownWriteError(
    "the edited document does not read back as written",
  );
}
