/// <reference lib="dom" />
/**
 * The formatting toolbar of rich-text regions: one floating bar in the
 * overlay's shadow root, placed over the focused region. It is one Tab stop
 * (roving tabindex): Alt+F10 from the region reaches it, the arrow keys,
 * Home and End move along it, Escape goes back. Its buttons are a table of
 * actions.
 *
 * @module
 */

import type { RichText } from "../rich_text.ts";
import { h } from "../ui.ts";
import { editLink } from "./link_dialog.ts";

/** One button of the toolbar. */
export interface ToolbarAction {
  /** The mark or node it toggles (`aria-pressed` follows it), or a name. */
  name: string;
  /** What the button shows. */
  glyph: string;
  /** Its accessible name, with its shortcut. */
  label: string;
  /** An inline style for the glyph. */
  style?: string;
  /** Only in fields that hold paragraphs and lists. */
  blocks?: boolean;
  /** Whether it shows a pressed state. */
  toggle?: boolean;
  /** Starts a new group (a separator before it). */
  group?: boolean;
  /** What it does. */
  run(rich: RichText, root: ShadowRoot): void;
}

const chain = (rich: RichText) => rich.editor.chain().focus();

/** The toolbar's buttons, in order. */
export const TOOLBAR_ACTIONS: readonly ToolbarAction[] = [
  {
    name: "bold",
    glyph: "B",
    label: "Bold (Ctrl+B)",
    style: "font-weight:700",
    toggle: true,
    run: (r) => chain(r).toggleBold().run(),
  },
  {
    name: "italic",
    glyph: "I",
    label: "Italic (Ctrl+I)",
    style: "font-style:italic",
    toggle: true,
    run: (r) => chain(r).toggleItalic().run(),
  },
  {
    name: "underline",
    glyph: "U",
    label: "Underline (Ctrl+U)",
    style: "text-decoration:underline",
    toggle: true,
    run: (r) => chain(r).toggleUnderline().run(),
  },
  {
    name: "strike",
    glyph: "S",
    label: "Strikethrough",
    style: "text-decoration:line-through",
    toggle: true,
    run: (r) => chain(r).toggleStrike().run(),
  },
  {
    name: "small",
    glyph: "small",
    label: "Small print",
    style: "font-size:12px",
    toggle: true,
    run: (r) => chain(r).toggleMark("small").run(),
  },
  {
    name: "subscript",
    glyph: "x₂",
    label: "Subscript",
    toggle: true,
    run: (r) => chain(r).toggleMark("subscript").run(),
  },
  {
    name: "superscript",
    glyph: "x²",
    label: "Superscript",
    toggle: true,
    run: (r) => chain(r).toggleMark("superscript").run(),
  },
  {
    name: "bulletList",
    glyph: "• List",
    label: "Bulleted list",
    blocks: true,
    toggle: true,
    group: true,
    run: (r) => chain(r).toggleBulletList().run(),
  },
  {
    name: "orderedList",
    glyph: "1. List",
    label: "Numbered list",
    blocks: true,
    toggle: true,
    run: (r) => chain(r).toggleOrderedList().run(),
  },
  {
    name: "indent",
    glyph: "→",
    label: "Indent list item (Ctrl+])",
    blocks: true,
    run: (r) => chain(r).sinkListItem("listItem").run(),
  },
  {
    name: "outdent",
    glyph: "←",
    label: "Outdent list item (Ctrl+[)",
    blocks: true,
    run: (r) => chain(r).liftListItem("listItem").run(),
  },
  {
    name: "link",
    glyph: "Link",
    label: "Add or edit a link (Ctrl+K)",
    group: true,
    run: (r, root) => void editLink(root, r),
  },
];

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
    const follow = () => {
      if (!this.element.hidden) this.place();
    };
    addEventListener("scroll", follow, { passive: true, capture: true });
    addEventListener("resize", follow, { passive: true });
    this.element.addEventListener("keydown", (event) => {
      const buttons = this.#buttons();
      const index = buttons.indexOf(event.composedPath()[0] as HTMLElement);
      const to = event.key === "ArrowRight" || event.key === "ArrowDown"
        ? index + 1
        : event.key === "ArrowLeft" || event.key === "ArrowUp"
        ? index - 1
        : event.key === "Home"
        ? 0
        : event.key === "End"
        ? buttons.length - 1
        : undefined;
      if (to !== undefined) {
        event.preventDefault();
        this.#rove(buttons[(to + buttons.length) % buttons.length]);
      } else if (event.key === "Escape") {
        event.preventDefault();
        this.active?.editor.view.focus();
      }
    });
  }

  #buttons(): HTMLElement[] {
    return [
      ...this.element.querySelectorAll<HTMLElement>("button:not([hidden])"),
    ];
  }

  /** Makes one button the toolbar's Tab stop and focuses it. */
  #rove(target: HTMLElement | undefined, focus = true): void {
    if (!target) return;
    for (const button of this.#buttons()) {
      button.tabIndex = button === target ? 0 : -1;
    }
    if (focus) target.focus();
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
    for (const action of TOOLBAR_ACTIONS) {
      const item = this.element.querySelector<HTMLElement>(
        `[data-command="${action.name}"]`,
      );
      if (item && action.blocks) item.hidden = rich.inline;
    }
    const current = this.element.querySelector<HTMLElement>(
      'button[tabindex="0"]:not([hidden])',
    );
    if (!current) this.#rove(this.#buttons()[0], false);
    this.place();
    this.update();
  }

  /** Moves the keyboard focus to the toolbar's first button. */
  focus(): void {
    this.#rove(this.#buttons()[0]);
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
      if (item.hasAttribute("aria-pressed")) {
        item.setAttribute("aria-pressed", String(editor.isActive(name)));
      }
    }
  }

  #build(): HTMLElement {
    const items: HTMLElement[] = [];
    for (const action of TOOLBAR_ACTIONS) {
      if (action.group) {
        items.push(h("span", { class: "sep", "aria-hidden": "true" }));
      }
      items.push(h("button", {
        type: "button",
        tabindex: "-1",
        "data-command": action.name,
        "aria-label": action.label,
        title: action.label,
        "aria-pressed": action.toggle ? "false" : undefined,
        onmousedown: (event: Event) => event.preventDefault(),
        onclick: (event: Event) => {
          this.#rove(event.currentTarget as HTMLElement, false);
          const rich = this.active;
          if (rich) action.run(rich, this.#root);
          this.update();
        },
        "data-glyph": action.glyph,
        style: action.style,
      }));
    }
    return h(
      "div",
      {
        class: "toolbar",
        role: "toolbar",
        "aria-label": "Text formatting",
        hidden: true,
      },
      ...items,
    );
  }
}
