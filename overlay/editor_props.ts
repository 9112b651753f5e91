/// <reference lib="dom" />
/**
 * What the rich text and markdown editors share of their view's props: the
 * accessible textbox, and a key pressed right after a click acting where
 * the click put the caret.
 *
 * ProseMirror takes the browser's selection into its state at the
 * document's `selectionchange` event, which Chromium sends in a task of its
 * own, after input that is already queued: a key pressed in the same
 * moment as the click or double click before it (a fast hand, a voice or
 * switch control, a script) reached the editor while it still held the old
 * selection, and Enter split the paragraph clicked away from, Ctrl+B made
 * nothing bold. Before its key bindings run, each editor reads the
 * browser's selection here and takes it when it differs.
 *
 * @module
 */

import type { EditorView } from "@tiptap/pm/view";
import { TextSelection } from "@tiptap/pm/state";

/**
 * Takes the browser's selection into the editor's state when it differs,
 * as `selectionchange` would have: for `editorProps.handleKeyDown`. A
 * selection outside the editor, or at a place text cannot be (a node or a
 * block kept as written), is left to ProseMirror.
 *
 * @param view the editor's view
 * @returns `false` always: the key is still the key bindings' to handle
 * @example
 * ```ts ignore
 * new Editor({ editorProps: { handleKeyDown: takeDomSelection } });
 * ```
 */
export function takeDomSelection(view: EditorView): boolean {
  const root = view.root as Document | ShadowRoot;
  const selection = "getSelection" in root && root.getSelection
    ? root.getSelection()
    : view.dom.ownerDocument.getSelection();
  const { anchorNode, focusNode } = selection ?? {};
  if (
    !selection || !anchorNode || !focusNode ||
    !view.dom.contains(anchorNode) || !view.dom.contains(focusNode) ||
    !(view.state.selection instanceof TextSelection)
  ) return false;
  let anchor: number;
  let head: number;
  try {
    anchor = view.posAtDOM(anchorNode, selection.anchorOffset);
    head = view.posAtDOM(focusNode, selection.focusOffset);
  } catch {
    return false;
  }
  const { state } = view;
  if (state.selection.anchor === anchor && state.selection.head === head) {
    return false;
  }
  const size = state.doc.content.size;
  if (anchor < 0 || head < 0 || anchor > size || head > size) return false;
  const $anchor = state.doc.resolve(anchor);
  const $head = state.doc.resolve(head);
  if (!$anchor.parent.inlineContent || !$head.parent.inlineContent) {
    return false;
  }
  view.dispatch(
    state.tr.setSelection(new TextSelection($anchor, $head)),
  );
  return false;
}

/**
 * The view's props of an editable area named `label`: a multi-line
 * textbox that takes the browser's selection at each key.
 *
 * @param label the area's accessible name
 * @returns Tiptap's `editorProps`
 * @example
 * ```ts ignore
 * new Editor({ editorProps: textboxProps("Edit body") });
 * ```
 */
export function textboxProps(label: string): {
  handleKeyDown: typeof takeDomSelection;
  attributes: Record<string, string>;
} {
  return {
    handleKeyDown: takeDomSelection,
    attributes: {
      "aria-label": label,
      "aria-multiline": "true",
      role: "textbox",
    },
  };
}
