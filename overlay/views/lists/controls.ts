/// <reference lib="dom" />
/**
 * A list item's controls: drag, move up, move down, add after (a copy),
 * edit link (an item that is a link object), remove; each with its
 * keyboard shortcut in its name. They live in a shadow root of their own,
 * inside the item (or just after it when the item cannot hold them: a
 * field, a link). One item's controls show at a time. On a wide screen
 * they sit on the item's top edge; on a phone they are docked above the
 * bar, naming the item, so that they never cover the region above.
 *
 * @module
 */

import { INPAGE_ATTRIBUTES } from "../../../lib/wire/regions.ts";
import { text, type TextKey } from "../../i18n/mod.ts";
import { h } from "../../ui.ts";
import { linkIcon } from "../links.ts";
import { itemNoun } from "../words.ts";

/** The controls' styles, in each item's controls' shadow root. */
const CONTROLS_CSS = `
:host { all: initial; position: absolute; z-index: 2147483640; top: 0; right: 8px; transform: translateY(calc(-100% + 4px)); opacity: 0; pointer-events: none; transition: opacity .12s; }
:host([data-place="below"]) { top: 100%; right: auto; left: 0; transform: none; }
:host([data-place="after"]) { right: auto; transform: none; }
:host([data-shown]) { opacity: 1; pointer-events: auto; }
:host([${INPAGE_ATTRIBUTES.controls}]:not([data-shown])) { width: 0; height: 0; overflow: hidden; }
.controls { display: flex; align-items: center; gap: 2px; padding: 3px; background: #fff; border: 1px solid #9ca3af; border-radius: 8px; box-shadow: 0 4px 12px rgba(0,0,0,.18); font: 14px/1 system-ui, -apple-system, "Segoe UI", Roboto, sans-serif; color: #111827; }
.which { display: none; padding: 0 6px; font-weight: 600; white-space: nowrap; overflow: hidden; text-overflow: ellipsis; flex: 1; }
button, .grip { all: unset; box-sizing: border-box; display: inline-flex; align-items: center; justify-content: center; min-width: 32px; height: 32px; padding: 0 6px; border-radius: 6px; color: #111827; cursor: pointer; font-size: 16px; }
button:hover { background: #e5e7eb; }
button:focus-visible { outline: 3px solid #f59e0b; outline-offset: 1px; }
button:disabled { color: #6b7280; cursor: default; background: none; }
button.remove { color: #b91c1c; }
.grip { cursor: grab; color: #374151; -webkit-user-drag: element; user-select: none; }
.add { font-weight: 700; }
@media (max-width: 640px) {
  :host([data-shown]) { position: fixed !important; z-index: 2147483645; top: auto !important; left: 8px !important; right: 8px !important; bottom: calc(var(--inpage-bar-space, 56px) + 8px) !important; transform: none !important; }
  .which { display: block; }
  .grip { display: none; }
  button { min-width: 40px; height: 40px; }
}
`;

let sheet: CSSStyleSheet | undefined;

/** A shadow root with the controls' styles. */
export function controlsRoot(host: HTMLElement): ShadowRoot {
  const root = host.attachShadow({ mode: "open" });
  if (!sheet) {
    sheet = new CSSStyleSheet();
    sheet.replaceSync(CONTROLS_CSS);
  }
  root.adoptedStyleSheets = [sheet];
  return root;
}

/** What an item's controls do. */
export interface ControlActions {
  /** Move the item up (-1) or down (+1); `focus` is the button's name. */
  move(by: -1 | 1, focus: string): void;
  /** Add a copy after it. */
  copy(focus: string): void;
  /** Remove it. */
  remove(focus: string): void;
  /** Open the link dialog of an item that is a link object. */
  editLink?(): void;
  /** A drag starts from the grip. */
  dragStart(event: DragEvent): void;
  /** The drag ends. */
  dragEnd(): void;
}

/** A shortcut: as the keyboard standard names it, and in words. */
type Keys = readonly [string, TextKey] | undefined;

const button = (
  label: string,
  glyph: string | Node,
  keys: Keys,
  run: () => void,
  extra: Record<string, unknown> = {},
) =>
  h("button", {
    type: "button",
    "aria-label": label,
    title: keys ? `${label} (${text(keys[1])})` : label,
    "aria-keyshortcuts": keys?.[0],
    onclick: run,
    ...extra,
  }, glyph);

/**
 * Builds an item's controls.
 *
 * @param list the list's pointer (its items' noun)
 * @param actions what the buttons do
 * @returns the host element, and its "which item" label to keep up
 */
export function buildControls(
  list: string,
  actions: ControlActions,
): { host: HTMLElement; which: HTMLElement } {
  const noun = itemNoun(list);
  const host = h("div", { [INPAGE_ATTRIBUTES.controls]: "" });
  const root = controlsRoot(host);
  const grip = h("span", {
    class: "grip",
    draggable: "true",
    role: "img",
    title: text("drag", { noun }),
    "aria-label": text("drag", { noun }),
  }, "⠿");
  grip.addEventListener("dragstart", actions.dragStart);
  grip.addEventListener("dragend", actions.dragEnd);
  const which = h("span", { class: "which" });
  const up = text("moveUp");
  const down = text("moveDown");
  const add = text("addAfter");
  const remove = text("remove");
  root.append(h(
    "div",
    {
      class: "controls",
      role: "group",
      "aria-label": text("itemControls", { noun }),
    },
    which,
    grip,
    button(
      up,
      "↑",
      ["Alt+Shift+ArrowUp", "keysUp"],
      () => actions.move(-1, up),
      { "data-op": "up" },
    ),
    button(
      down,
      "↓",
      ["Alt+Shift+ArrowDown", "keysDown"],
      () => actions.move(1, down),
      { "data-op": "down" },
    ),
    button(add, "+", ["Alt+Shift+D", "keysCopy"], () => actions.copy(add), {
      class: "add",
    }),
    actions.editLink &&
      button(text("editLink"), linkIcon(), undefined, actions.editLink, {
        title: text("editLinkTitle"),
      }),
    button(
      remove,
      "✕",
      ["Alt+Shift+Delete", "keysRemove"],
      () => actions.remove(remove),
      { class: "remove" },
    ),
  ));
  return { host, which };
}

/** The overlay's controls that follow an item (its own, a link's, an image's). */
export function companions(item: HTMLElement): HTMLElement[] {
  const found: HTMLElement[] = [];
  let next = item.nextElementSibling;
  while (
    next instanceof HTMLElement &&
    (next.hasAttribute(INPAGE_ATTRIBUTES.controls) ||
      next.hasAttribute(INPAGE_ATTRIBUTES.linkControl) ||
      next.hasAttribute(INPAGE_ATTRIBUTES.altControl))
  ) {
    found.push(next);
    next = next.nextElementSibling;
  }
  return found;
}

/** Whether an item can hold its controls: not a field, a link or a void element. */
export function canHold(item: HTMLElement): boolean {
  if (/^(A|BUTTON|IMG|INPUT|TEXTAREA|SELECT|LI)$/.test(item.tagName)) {
    return item.tagName === "LI" &&
      !item.hasAttribute(INPAGE_ATTRIBUTES.text);
  }
  return ![
    INPAGE_ATTRIBUTES.text,
    INPAGE_ATTRIBUTES.html,
    INPAGE_ATTRIBUTES.image,
    INPAGE_ATTRIBUTES.link,
  ].some((name) => item.hasAttribute(name));
}

/** Places controls that follow an item just below it. */
export function placeAfter(host: HTMLElement, item: HTMLElement): void {
  const parent = host.offsetParent;
  const box = item.getBoundingClientRect();
  let left = scrollX;
  let top = scrollY;
  if (
    parent instanceof HTMLElement && parent !== document.body &&
    parent !== document.documentElement
  ) {
    const outer = parent.getBoundingClientRect();
    left = parent.scrollLeft - outer.left - parent.clientLeft;
    top = parent.scrollTop - outer.top - parent.clientTop;
  }
  // Kept inside the window's width (a link at the right of a phone's nav).
  const width = host.getBoundingClientRect().width;
  const start = Math.max(
    4,
    Math.min(box.left, document.documentElement.clientWidth - width - 4),
  );
  host.style.left = `${start + left}px`;
  host.style.top = `${box.bottom + top + 2}px`;
}
