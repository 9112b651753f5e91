/// <reference lib="dom" />
/**
 * The formatting toolbar of rich-text regions: one floating bar in the
 * overlay's shadow root, placed over the focused region, reachable by
 * keyboard (Alt+F10 from the region, arrows along it, Escape back), and the
 * link dialog (Ctrl+K).
 *
 * @module
 */

import type { RichText } from "./rich_text.ts";
import { h, messageDialog, showDialog } from "./ui.ts";

/** The toolbar, shown for one rich-text region at a time. */
export class Toolbar {
  /** The toolbar element, to append to the overlay's interface. */
  readonly element: HTMLElement;
  /** The editor the toolbar acts on, while one is active. */
  active: RichText | undefined;
  #region: HTMLElement | undefined;
  readonly #root: ShadowRoot;

  /**
   * Builds the toolbar.
   *
   * @param root the overlay's shadow root, for the link dialog
   */
  constructor(root: ShadowRoot) {
    this.#root = root;
    this.element = this.#build();
    addEventListener("scroll", () => {
      if (!this.element.hidden) this.place();
    }, { passive: true, capture: true });
    this.element.addEventListener("keydown", (event) => {
      const buttons = [
        ...this.element.querySelectorAll<HTMLElement>("button:not([hidden])"),
      ];
      const index = buttons.indexOf(event.composedPath()[0] as HTMLElement);
      if (event.key === "ArrowRight" || event.key === "ArrowLeft") {
        event.preventDefault();
        const step = event.key === "ArrowRight" ? 1 : -1;
        buttons[(index + step + buttons.length) % buttons.length]?.focus();
      } else if (event.key === "Escape") {
        event.preventDefault();
        this.active?.editor.view.focus();
      }
    });
  }

  /**
   * Shows the toolbar for a region's editor.
   *
   * @param rich the region's editor
   * @param region the region's element, to place the toolbar over
   */
  show(rich: RichText, region: HTMLElement): void {
    this.active = rich;
    this.#region = region;
    this.element.hidden = false;
    for (const name of ["bulletList", "orderedList"]) {
      const item = this.element.querySelector<HTMLElement>(
        `[data-command="${name}"]`,
      );
      if (item) item.hidden = rich.inline;
    }
    this.place();
    this.update();
  }

  /** Moves the keyboard focus to the toolbar's first button. */
  focus(): void {
    this.element.querySelector<HTMLElement>("button:not([hidden])")?.focus();
  }

  /** Places the toolbar above the region, or below when there is no room. */
  place(): void {
    if (!this.#region) return;
    const box = this.#region.getBoundingClientRect();
    const height = this.element.offsetHeight;
    const top = box.top - height - 10 >= 0
      ? box.top - height - 10
      : box.bottom + 10;
    this.element.style.top = `${Math.max(4, top)}px`;
    this.element.style.left = `${
      Math.max(4, Math.min(box.left, innerWidth - this.element.offsetWidth - 4))
    }px`;
  }

  /** Hides the toolbar. */
  hide(): void {
    this.element.hidden = true;
    this.active = undefined;
    this.#region = undefined;
  }

  /** Shows which marks and lists are active at the selection. */
  update(): void {
    const editor = this.active?.editor;
    if (!editor) return;
    for (
      const item of this.element.querySelectorAll<HTMLElement>("[data-command]")
    ) {
      const name = item.dataset.command ?? "";
      item.setAttribute("aria-pressed", String(editor.isActive(name)));
    }
  }

  #build(): HTMLElement {
    const button = (
      name: string,
      text: string,
      title: string,
      run: (rich: RichText) => void,
      style = "",
    ) =>
      h("button", {
        type: "button",
        "data-command": name,
        "aria-label": title,
        title,
        "aria-pressed": "false",
        onmousedown: (event: Event) => event.preventDefault(),
        onclick: () => {
          const rich = this.active;
          if (rich) run(rich);
          this.update();
        },
        "data-glyph": text,
        style,
      });
    const chain = (rich: RichText) => rich.editor.chain().focus();
    return h(
      "div",
      {
        class: "toolbar",
        role: "toolbar",
        "aria-label": "Text formatting",
        hidden: true,
      },
      button(
        "bold",
        "B",
        "Bold (Ctrl+B)",
        (r) => chain(r).toggleBold().run(),
        "font-weight:700",
      ),
      button(
        "italic",
        "I",
        "Italic (Ctrl+I)",
        (r) => chain(r).toggleItalic().run(),
        "font-style:italic",
      ),
      button(
        "underline",
        "U",
        "Underline (Ctrl+U)",
        (r) => chain(r).toggleUnderline().run(),
        "text-decoration:underline",
      ),
      button(
        "strike",
        "S",
        "Strikethrough",
        (r) => chain(r).toggleStrike().run(),
        "text-decoration:line-through",
      ),
      button(
        "small",
        "small",
        "Small print",
        (r) => chain(r).toggleMark("small").run(),
        "font-size:12px",
      ),
      button(
        "subscript",
        "x₂",
        "Subscript",
        (r) => chain(r).toggleMark("subscript").run(),
      ),
      button(
        "superscript",
        "x²",
        "Superscript",
        (r) => chain(r).toggleMark("superscript").run(),
      ),
      h("span", { class: "sep", "aria-hidden": "true" }),
      button(
        "bulletList",
        "• List",
        "Bulleted list",
        (r) => chain(r).toggleBulletList().run(),
      ),
      button(
        "orderedList",
        "1. List",
        "Numbered list",
        (r) => chain(r).toggleOrderedList().run(),
      ),
      h("span", { class: "sep", "aria-hidden": "true" }),
      button(
        "link",
        "Link",
        "Add or edit a link",
        (r) => void editLink(this.#root, r),
      ),
    );
  }
}

/**
 * Asks for a link's address and title and applies them to the selection
 * (or removes the link).
 *
 * @param root the overlay's shadow root
 * @param rich the editor
 */
export async function editLink(
  root: ShadowRoot,
  rich: RichText,
): Promise<void> {
  const current = rich.editor.getAttributes("link");
  const href = h("input", {
    type: "text",
    value: typeof current.href === "string" ? current.href : "",
    required: true,
  });
  const title = h("input", {
    type: "text",
    value: typeof current.title === "string" ? current.title : "",
  });
  const dialog = messageDialog("Link", [
    h(
      "label",
      {},
      "Address",
      href,
      h(
        "span",
        { class: "hint" },
        "A page of the site (/about), a #section, or an https:, mailto: or tel: address.",
      ),
    ),
    h("label", {}, "Title (optional)", title),
  ], [
    { label: "Cancel", value: "cancel" },
    { label: "Remove link", value: "remove", kind: "danger" },
    { label: "Apply", value: "apply", kind: "primary" },
  ]);
  const answer = await showDialog(root, dialog);
  const chain = rich.editor.chain().focus().extendMarkRange("link");
  if (answer === "remove") chain.unsetMark("link").run();
  if (answer === "apply" && href.value.trim() !== "") {
    const attributes = title.value.trim() === ""
      ? { href: href.value.trim() }
      : { href: href.value.trim(), title: title.value.trim() };
    chain.setMark("link", attributes).run();
  }
}
