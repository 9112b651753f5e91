/// <reference lib="dom" />
/**
 * What a person types in a markdown region before its editor is there.
 * The dormant region is the site's own rendering, editable by the browser
 * so that the words show as they are typed; each step (text typed, Enter,
 * Shift+Enter, Backspace, Delete) is kept with where the caret was, as
 * characters of the region's editable text (its paragraphs, headings and
 * list items, each step from one block to the next counting one, so that
 * the start of a block is not the end of the one before it; blocks kept as
 * written count for nothing). When the editor
 * takes the region's place, the steps are played again in it, from the
 * same places: the words are the editor's, written back as markdown like
 * any other edit. Anything else (a paste, a drop, formatting keys) waits
 * for the editor.
 *
 * @module
 */

import type { RichText } from "../rich_text.ts";

/** One step typed before the editor was there. */
export interface TypedStep {
  /** The selection's anchor and head, as characters of editable text. */
  at: [number, number];
  /** What was done. */
  input: "text" | "paragraph" | "break" | "back" | "forward";
  /** The text typed (for `text`). */
  data: string;
}

/** Blocks whose text the editor edits. */
const TEXT_BLOCKS = "p,h1,h2,h3,h4,h5,h6,li";

/** Blocks the editor keeps as written: their text is not counted. */
const KEPT_BLOCKS = "pre,table";

/** The `beforeinput` types that are kept, by the step they make. */
const STEPS: Record<string, TypedStep["input"]> = {
  insertText: "text",
  insertReplacementText: "text",
  insertParagraph: "paragraph",
  insertLineBreak: "break",
  deleteContentBackward: "back",
  deleteContentForward: "forward",
};

/** Whether a text node is part of the region's editable text. */
function counted(root: HTMLElement, text: Node): boolean {
  const parent = text.parentElement;
  if (!parent || !root.contains(parent)) return false;
  const block = parent.closest(TEXT_BLOCKS);
  if (!block || !root.contains(block)) return false;
  if (parent.closest(KEPT_BLOCKS)) return false;
  // The line breaks markdown renders between a list item's blocks.
  return !(/^\s*$/.test(text.textContent ?? "") &&
    parent.matches("ul,ol,li,blockquote"));
}

/**
 * How many characters of a region's editable text come before a point.
 *
 * @param root the region
 * @param node the point's node
 * @param offset the point's offset in it
 * @returns the number of characters, or undefined for a point outside
 *   the editable text (in a block kept as written)
 */
export function textOffset(
  root: HTMLElement,
  node: Node,
  offset: number,
): number | undefined {
  const point = document.createRange();
  point.setStart(node, offset);
  const parent = node instanceof Element ? node : node.parentElement;
  if (parent?.closest(KEPT_BLOCKS) && root.contains(parent)) return undefined;
  const walker = document.createTreeWalker(root, NodeFilter.SHOW_TEXT);
  let count = 0;
  let block: Element | undefined;
  // One more at each step into another block.
  const enter = (next: Element | null | undefined) => {
    if (next && block && next !== block) count++;
    if (next) block = next;
  };
  for (let text = walker.nextNode(); text; text = walker.nextNode()) {
    if (!counted(root, text)) continue;
    const length = text.textContent?.length ?? 0;
    if (text !== node && point.comparePoint(text, 0) > 0) break;
    enter(text.parentElement?.closest(TEXT_BLOCKS));
    if (text === node) return count + offset;
    if (point.comparePoint(text, length) > 0) break;
    count += length;
  }
  // A point between texts: in a block of its own (an empty one, or the
  // start of one), or after the text of the block it is in.
  const own = parent?.closest(TEXT_BLOCKS);
  if (own && root.contains(own)) enter(own);
  return count;
}

/**
 * The selection in a dormant region as characters of its editable text.
 *
 * @param root the region
 * @returns its anchor and head, or undefined when it is elsewhere
 * @example
 * ```ts ignore
 * rich.focusAt(...dormantSelection(element) ?? []);
 * ```
 */
export function dormantSelection(
  root: HTMLElement,
): [number, number] | undefined {
  const selection = getSelection();
  const { anchorNode, focusNode } = selection ?? {};
  if (!selection || !anchorNode || !focusNode) return undefined;
  if (!root.contains(anchorNode) || !root.contains(focusNode)) return;
  const anchor = textOffset(root, anchorNode, selection.anchorOffset);
  const head = textOffset(root, focusNode, selection.focusOffset);
  return anchor === undefined || head === undefined ? undefined : [
    anchor,
    head,
  ];
}

/**
 * Keeps what is typed in a dormant region.
 *
 * @param root the region, editable by the browser
 * @param steps where the steps go
 * @returns a function that stops listening
 * @example
 * ```ts ignore
 * const steps: TypedStep[] = [];
 * const stop = keepTyping(element, steps);
 * // … the editor is there:
 * stop();
 * replayTyping(rich, steps);
 * ```
 */
export function keepTyping(root: HTMLElement, steps: TypedStep[]): () => void {
  const onInput = (event: InputEvent) => {
    const input = STEPS[event.inputType];
    const at = input && !event.isComposing ? dormantSelection(root) : undefined;
    if (!input || !at) return event.preventDefault();
    steps.push({ at, input, data: event.data ?? "" });
  };
  root.addEventListener("beforeinput", onInput);
  return () => root.removeEventListener("beforeinput", onInput);
}

/** The editor's key for each step that is a key. */
const KEYS = {
  paragraph: "Enter",
  break: "Shift-Enter",
  back: "Backspace",
  forward: "Delete",
} as const;

/** Where the caret is after a step, as characters of editable text. */
function after({ at: [anchor, head], input, data }: TypedStep): number {
  const start = Math.min(anchor, head);
  if (input === "text") return start + data.length;
  // Enter: the start of the new block, one step on.
  if (input === "paragraph") return start + 1;
  return input === "back" && anchor === head ? Math.max(start - 1, 0) : start;
}

/**
 * Plays the steps again in the editor, each from where it was typed; a
 * step typed where the previous one left the caret goes on from the
 * editor's caret.
 *
 * @param rich the region's editor
 * @param steps the steps, in order
 */
export function replayTyping(
  rich: Pick<RichText, "editor" | "focusAt">,
  steps: readonly TypedStep[],
): void {
  const { editor } = rich;
  let caret: number | undefined;
  for (const step of steps) {
    const [anchor, head] = step.at;
    if (anchor !== caret || head !== caret) rich.focusAt(anchor, head);
    if (step.input === "text") {
      editor.view.dispatch(editor.state.tr.insertText(step.data));
    } else editor.commands.keyboardShortcut(KEYS[step.input]);
    caret = after(step);
  }
}
