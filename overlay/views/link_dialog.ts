/// <reference lib="dom" />
/**
 * The link dialog of rich text (Ctrl+K or the toolbar's Link button): an
 * address and an optional title for the selection. The link rule is
 * applied as the address is typed (its reason under the field, gone once
 * the address is allowed); a refused address keeps the dialog open and
 * nothing is applied. "Remove link" is offered only on a link.
 *
 * @module
 */

import type { RichText } from "../rich_text.ts";
import { text } from "../i18n/mod.ts";
import { type DialogButton, h, messageDialog, showDialog } from "../ui.ts";
import { linkField } from "./link_field.ts";

/** Applies an answer to the editor's selection. */
function applyLink(
  rich: RichText,
  range: { from: number; to: number },
  answer: "apply" | "remove",
  link: { href: string; title: string; isNew: boolean },
): void {
  const chain = rich.editor.chain().focus().setTextSelection(range)
    .extendMarkRange("link");
  if (answer === "remove") {
    chain.unsetMark("link").run();
    return;
  }
  const attributes: { href: string; title?: string } = link.title === ""
    ? { href: link.href }
    : { href: link.href, title: link.title };
  if (range.from === range.to && link.isNew) {
    // Nothing selected: the link's words are its title, or its address.
    rich.editor.chain().focus().setTextSelection(range.from).insertContent({
      type: "text",
      text: attributes.title ?? link.href,
      marks: [{ type: "link", attrs: attributes }],
    }).run();
  } else chain.setMark("link", attributes).run();
}

/**
 * Asks for a link's address and title and applies them to the selection
 * (or removes the link).
 *
 * @param root the overlay's shadow root
 * @param rich the editor
 * @returns what was done
 */
export async function editLink(
  root: ShadowRoot,
  rich: RichText,
): Promise<"apply" | "remove" | "cancel"> {
  const { from, to } = rich.editor.state.selection;
  const current = rich.editor.getAttributes("link");
  const isLink = typeof current.href === "string";
  const address = linkField(isLink ? current.href : "", "addressHint");
  const title = h("input", {
    type: "text",
    value: typeof current.title === "string" ? current.title : "",
  });
  const buttons: DialogButton[] = [
    { label: text("cancel"), value: "cancel" },
    ...(isLink
      ? [{
        label: text("removeLink"),
        value: "remove",
        kind: "danger" as const,
      }]
      : []),
    { label: text("apply"), value: "apply", kind: "primary" },
  ];
  const dialog = messageDialog(
    text("linkTitle"),
    [address.label, h("label", {}, text("linkTitleField"), title)],
    buttons,
    (value) => {
      if (value !== "apply") return undefined;
      if (
        address.check(isLink ? "typeAddress" : "linkTypeAddress") === undefined
      ) {
        return undefined;
      }
      address.input.focus();
      // The reason is shown under the address.
      return "";
    },
  );
  dialog.classList.add("link-popover");
  const answer = await showDialog(root, dialog);
  // Back to the text with the selection it had. The dialog's focus return
  // leaves the page's selection outside the editor, and Tiptap's focus
  // command does nothing for an editor that has the focus: the view puts
  // its selection back itself, so that what is typed next lands there.
  rich.editor.view.focus();
  rich.editor.commands.setTextSelection({ from, to });
  if (answer !== "apply" && answer !== "remove") return "cancel";
  applyLink(rich, { from, to }, answer, {
    href: address.input.value.trim(),
    title: title.value.trim(),
    isNew: !isLink,
  });
  return answer;
}
