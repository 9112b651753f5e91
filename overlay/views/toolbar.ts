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

import { INPAGE_ATTRIBUTES, kindSelector } from "../../lib/wire/regions.ts";
import type { RichText } from "../rich_text.ts";
import { text, type TextKey } from "../i18n/mod.ts";
import { h } from "../ui.ts";
import { editLink } from "./link_dialog.ts";

/** One button of the toolbar. */
export interface ToolbarAction {
  /** The mark or node it toggles (`aria-pressed` follows it), or a name. */
  name: string;
  /** What the button shows: a glyph, or the key of a word. */
  glyph: string;
  /** The key of its accessible name, with its shortcut. */
  label: TextKey;
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
    glyph: "glyphBold",
    label: "bold",
    style: "font-weight:700",
    toggle: true,
    run: (r) => chain(r).toggleBold().run(),
  },
  {
    name: "italic",
    glyph: "glyphItalic",
    label: "italic",
    style: "font-style:italic",
    toggle: true,
    run: (r) => chain(r).toggleItalic().run(),
  },
  {
    name: "underline",
    glyph: "glyphUnderline",
    label: "underline",
    style: "text-decoration:underline",
    toggle: true,
    run: (r) => chain(r).toggleUnderline().run(),
  },
  {
    name: "strike",
    glyph: "glyphStrike",
    label: "strike",
    style: "text-decoration:line-through",
    toggle: true,
    run: (r) => chain(r).toggleStrike().run(),
  },
  {
    name: "small",
    glyph: "glyphSmall",
    label: "small",
    style: "font-size:12px",
    toggle: true,
    run: (r) => chain(r).toggleMark("small").run(),
  },
  {
    name: "subscript",
    glyph: "x₂",
    label: "subscript",
    toggle: true,
    run: (r) => chain(r).toggleMark("subscript").run(),
  },
  {
    name: "superscript",
    glyph: "x²",
    label: "superscript",
    toggle: true,
    run: (r) => chain(r).toggleMark("superscript").run(),
  },
  {
    name: "bulletList",
    glyph: "glyphList",
    label: "bulletList",
    blocks: true,
    toggle: true,
    group: true,
    run: (r) => chain(r).toggleBulletList().run(),
  },
  {
    name: "orderedList",
    glyph: "glyphNumbered",
    label: "orderedList",
    blocks: true,
    toggle: true,
    run: (r) => chain(r).toggleOrderedList().run(),
  },
  {
    name: "indent",
    glyph: "→",
    label: "indent",
    blocks: true,
    run: (r) => chain(r).sinkListItem("listItem").run(),
  },
  {
    name: "outdent",
    glyph: "←",
    label: "outdent",
    blocks: true,
    run: (r) => chain(r).liftListItem("listItem").run(),
  },
  {
    name: "link",
    glyph: "glyphLink",
    label: "link",
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
  readonly #bottom: () => number;
  readonly #docked: (on: boolean) => void;

  /**
   * Builds the toolbar.
   *
   * @param root the overlay's shadow root, for the link dialog
   * @param bottom where the space for the toolbar ends (the top of what is
   *   docked at the bottom, the toolbar aside)
   * @param docked told when the toolbar is docked above the bar, or not
   */
  constructor(
    root: ShadowRoot,
    bottom: () => number = () => innerHeight,
    docked: (on: boolean) => void = () => {},
  ) {
    this.#root = root;
    this.#bottom = bottom;
    this.#docked = docked;
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

  /**
   * Places the toolbar just above the region, or just below it, where it
   * covers nothing a person reads or uses (other regions, headings,
   * buttons, links, fields, the overlay's controls); where neither spot is
   * free, it is docked just above the bar, which the page keeps room for,
   * like the bar itself. It always lies inside the viewport (it wraps on a
   * narrow screen).
   */
  place(): void {
    const region = this.#region;
    if (!region) return;
    const box = region.getBoundingClientRect();
    const height = this.element.offsetHeight;
    const width = this.element.offsetWidth;
    const bottom = this.#bottom() - 6;
    const left = Math.max(4, Math.min(box.left, innerWidth - width - 4));
    const others = obstacles(region);
    const free = [box.top - height - 10, box.bottom + 10].find((top) => {
      const spot = { left, top, width, height };
      return top >= 4 && top + height <= bottom && covered(spot, box) === 0 &&
        others.every((other) => covered(spot, other) === 0);
    });
    const docked = free === undefined;
    const top = free ?? Math.max(4, bottom - height);
    this.element.style.top = `${top}px`;
    this.element.style.left = `${
      docked ? Math.max(4, (innerWidth - width) / 2) : left
    }px`;
    this.element.toggleAttribute("data-docked", docked);
    if (docked !== this.docked) {
      this.docked = docked;
      this.#docked(docked);
    }
  }

  /** Whether the toolbar is docked above the bar. */
  docked = false;

  /** Hides the toolbar. */
  hide(): void {
    this.element.hidden = true;
    this.active = undefined;
    this.#region = undefined;
    if (this.docked) {
      this.docked = false;
      this.#docked(false);
    }
  }

  /**
   * Shows which marks and lists are active at the selection, and places
   * the toolbar again (the region may have grown).
   */
  update(): void {
    const editor = this.active?.editor;
    if (!editor) return;
    this.place();
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
        "aria-label": text(action.label),
        title: text(action.label),
        "aria-pressed": action.toggle ? "false" : undefined,
        onmousedown: (event: Event) => event.preventDefault(),
        onclick: (event: Event) => {
          this.#rove(event.currentTarget as HTMLElement, false);
          const rich = this.active;
          if (rich) action.run(rich, this.#root);
          this.update();
        },
        "data-glyph": action.glyph.startsWith("glyph")
          ? text(action.glyph as TextKey)
          : action.glyph,
        style: action.style,
      }));
    }
    return h(
      "div",
      {
        class: "toolbar",
        role: "toolbar",
        "aria-label": text("toolbarLabel"),
        hidden: true,
      },
      ...items,
    );
  }
}

/** What the toolbar should not cover, around a region. */
const OBSTACLES = [
  kindSelector(["text", "html", "image"]),
  "h1,h2,h3,h4,h5,h6,button,a[href],input,textarea,select,img",
  [
    INPAGE_ATTRIBUTES.controls,
    INPAGE_ATTRIBUTES.altControl,
    INPAGE_ATTRIBUTES.linkControl,
    INPAGE_ATTRIBUTES.empty,
  ].map((name) => `[${name}]`).join(","),
].join(",");

/** The boxes in view of what the toolbar should not cover. */
function obstacles(region: HTMLElement): DOMRect[] {
  return [...document.querySelectorAll<HTMLElement>(OBSTACLES)]
    .filter((other) => !other.contains(region) && !region.contains(other))
    .map((other) => other.getBoundingClientRect())
    .filter((box) =>
      box.width > 0 && box.height > 0 && box.bottom > 0 && box.top < innerHeight
    );
}

/** How much of a box a spot covers, in square pixels. */
function covered(
  spot: { left: number; top: number; width: number; height: number },
  other: DOMRect,
): number {
  return Math.max(
    0,
    Math.min(spot.left + spot.width, other.right) -
      Math.max(spot.left, other.left),
  ) *
    Math.max(
      0,
      Math.min(spot.top + spot.height, other.bottom) -
        Math.max(spot.top, other.top),
    );
}
