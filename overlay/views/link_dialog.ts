/// <reference lib="dom" />
/**
 * The link dialog (Ctrl+K or the toolbar's Link button): an address and
 * an optional title for the selection. The link rule is applied in the
 * dialog: a refused address keeps the dialog open, with what was typed and
 * the reason, and nothing is applied.
 *
 * @module
 */

import { linkProblem } from "../session/checks.ts";
import { reasonSentence } from "../messages.ts";
import type { RichText } from "../rich_text.ts";
import { text } from "../i18n/mod.ts";
import { h, messageDialog, showDialog } from "../ui.ts";

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
  const hint = h(
    "span",
    { class: "hint", id: "inpage-link-hint" },
    text("addressHint"),
  );
  const href = h("input", {
    type: "text",
    value: typeof current.href === "string" ? current.href : "",
    "aria-describedby": "inpage-link-hint",
    autocomplete: "off",
    spellcheck: "false",
  });
  const title = h("input", {
    type: "text",
    value: typeof current.title === "string" ? current.title : "",
  });
  href.addEventListener("input", () => href.removeAttribute("aria-invalid"));
  const dialog = messageDialog(
    text("linkTitle"),
    [
      h("label", {}, text("address"), href, hint),
      h("label", {}, text("linkTitleField"), title),
    ],
    [
      { label: text("cancel"), value: "cancel" },
      { label: text("removeLink"), value: "remove", kind: "danger" },
      { label: text("apply"), value: "apply", kind: "primary" },
    ],
    (value) => {
      if (value !== "apply") return undefined;
      const address = href.value.trim();
      const refusal = address === ""
        ? text("typeAddress")
        : linkProblem(address)
        ? reasonSentence("link")
        : undefined;
      if (refusal !== undefined) {
        href.setAttribute("aria-invalid", "true");
        href.focus();
      }
      return refusal;
    },
  );
  const answer = await showDialog(root, dialog);
  // Back to the text with the selection it had. The dialog's focus return
  // leaves the page's selection outside the editor, and Tiptap's focus
  // command does nothing for an editor that has the focus: the view puts
  // its selection back itself, so that what is typed next lands there.
  rich.editor.view.focus();
  rich.editor.commands.setTextSelection({ from, to });
  if (answer !== "apply" && answer !== "remove") return "cancel";
  const chain = rich.editor.chain().focus().setTextSelection({ from, to })
    .extendMarkRange("link");
  if (answer === "remove") {
    chain.unsetMark("link").run();
    return "remove";
  }
  const address = href.value.trim();
  const attributes: { href: string; title?: string } = title.value.trim() === ""
    ? { href: address }
    : { href: address, title: title.value.trim() };
  if (from === to && typeof current.href !== "string") {
    // Nothing selected: the link's words are its title, or its address.
    rich.editor.chain().focus().setTextSelection(from).insertContent({
      type: "text",
      text: attributes.title ?? address,
      marks: [{ type: "link", attrs: attributes }],
    }).run();
  } else chain.setMark("link", attributes).run();
  return "apply";
}
