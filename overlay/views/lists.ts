/// <reference lib="dom" />
/**
 * Lists on the page (`data-inpage-list`, items `data-inpage-item`): each
 * item gets controls to add a copy after it, remove it, move it up or down
 * and drag it, with keyboard shortcuts (`lists/keys.ts`). A control asks
 * the controller for the operation; the state changes by one transaction;
 * and this view, told of it once, puts the items in the order the list now
 * holds (`lists/arrange.ts`), announces what was done and gives the focus
 * back. Undo, redo, a restored draft or a merge are shown the same way.
 * One item's controls show at a time: those of the item last pointed at,
 * or focused, or just made by an operation.
 *
 * A list inside a list item moves and is copied with its item; its own
 * items get no controls.
 *
 * @module
 */

import { INPAGE_ATTRIBUTES } from "../../lib/wire/regions.ts";
import { text } from "../i18n/mod.ts";
import { itemPointer } from "../state/lists.ts";
import type { EditState } from "../state/state.ts";
import type { ListOperation, Transaction } from "../state/transaction.ts";
import { h } from "../ui.ts";
import {
  arrange,
  type ArrangeHooks,
  idOf,
  type ListView,
  type Source,
  wanted,
} from "./lists/arrange.ts";
import {
  buildControls,
  canHold,
  companions,
  controlsRoot,
  placeAfter,
} from "./lists/controls.ts";
import { acceptDrops, type Dragged, endDrag, startDrag } from "./lists/drag.ts";
import { listenToShortcuts } from "./lists/keys.ts";
import { itemNoun } from "./words.ts";
import { placeOf } from "./names.ts";

const ITEM = INPAGE_ATTRIBUTES.item;
const LIST = INPAGE_ATTRIBUTES.list;

/** What the lists need from the controller. */
export interface ListHost {
  /** Does a list operation; false when it cannot be done now. */
  operate(path: string, operation: ListOperation, template?: string): boolean;
  /** The value of a field now. */
  valueOf(path: string, pointer: string): unknown;
  /** Says a sentence to screen readers. */
  announce(text: string): void;
  /** Opens the link dialog of an item that is a link object. */
  editLink(item: HTMLElement): void;
  /** Makes the regions inside a new item editable. */
  mount(path: string, item: HTMLElement, pointer: string): void;
  /** Makes the regions inside a removed item plain. */
  unmount(item: HTMLElement): void;
  /** Points the regions inside a moved item at its new place. */
  repoint(item: HTMLElement, from: string, to: string): void;
  /** The controls docked above the bar changed. */
  docked(): void;
}

/** The page rules of lists while editing. */
const LISTS_PAGE_CSS = `
html[${INPAGE_ATTRIBUTES.editing}] [${LIST}] > [${ITEM}] { position: relative; }
html[${INPAGE_ATTRIBUTES.editing}] [${ITEM}][${INPAGE_ATTRIBUTES.drop}="before"] { box-shadow: 0 -4px 0 #2563eb; }
html[${INPAGE_ATTRIBUTES.editing}] [${ITEM}][${INPAGE_ATTRIBUTES.drop}="after"] { box-shadow: 0 4px 0 #2563eb; }
html[${INPAGE_ATTRIBUTES.editing}] [${ITEM}][${INPAGE_ATTRIBUTES.dragging}] { opacity: .5; }
`;

/** The focus to give back once an operation is shown. */
interface PendingFocus {
  list: ListView;
  index: number;
  /** A field below the item (`/heading`) or a control's name. */
  focus: string | undefined;
}

/**
 * The lists of the page: {@linkcode Lists.prepare} each page container
 * before its regions are mounted (it keeps the items' markup as served),
 * then {@linkcode Lists.activate} once; {@linkcode Lists.update} shows each
 * transaction.
 */
export class Lists {
  readonly #host: ListHost;
  readonly #lists: ListView[] = [];
  readonly #sources = new WeakMap<HTMLElement, Source>();
  readonly #dragged: Dragged = { current: undefined };
  #active: HTMLElement | undefined;
  #pending: PendingFocus | undefined;

  /**
   * @param host what the lists need from the controller
   */
  constructor(host: ListHost) {
    this.#host = host;
  }

  /**
   * The pointers of the lists of a page.
   *
   * @param path the page path
   * @returns the lists' pointers
   */
  pointers(path: string): string[] {
    return this.#lists.filter((list) => list.path === path).map((list) =>
      list.pointer
    );
  }

  /**
   * Keeps the markup of a page's lists as served.
   *
   * @param container the page container
   * @param path its page path
   * @param value the value at a pointer as read
   * @param refuse says which lists are left as they are
   */
  prepare(
    container: HTMLElement,
    path: string,
    value: (pointer: string) => unknown,
    refuse: (element: HTMLElement, pointer: string) => boolean = () => false,
  ): void {
    for (
      const element of container.querySelectorAll<HTMLElement>(`[${LIST}]`)
    ) {
      if (
        element.closest(`[${INPAGE_ATTRIBUTES.page}]`) !== container
      ) continue;
      // A list inside an item goes with its item.
      if (element.parentElement?.closest(`[${ITEM}]`)) continue;
      const pointer = element.getAttribute(LIST) ?? "";
      if (refuse(element, pointer)) continue;
      this.#lists.push(this.#listOf(element, path, pointer, value));
    }
  }

  #listOf(
    element: HTMLElement,
    path: string,
    pointer: string,
    value: (pointer: string) => unknown,
  ): ListView {
    const items = [...element.children].filter((child) =>
      child.hasAttribute(ITEM)
    ) as HTMLElement[];
    for (const item of items) {
      const at = item.getAttribute(ITEM) ?? "";
      this.#sources.set(item, {
        node: item.cloneNode(true) as HTMLElement,
        pointer: at,
        id: idOf(value(at)),
      });
    }
    const template = element.querySelector<HTMLTemplateElement>(
      `:scope > template[${INPAGE_ATTRIBUTES.template}]`,
    );
    const first = template?.content.firstElementChild;
    const marker = document.createComment("inpage-list");
    element.insertBefore(marker, items[0] ?? template ?? null);
    const current = value(pointer);
    const last = Array.isArray(current) ? current : [];
    return {
      path,
      pointer,
      element,
      marker,
      items,
      template: first instanceof HTMLElement
        ? {
          node: first,
          pointer: first.getAttribute(ITEM) ?? itemPointer(pointer, 0),
          id: undefined,
        }
        : undefined,
      defaults: template?.getAttribute(INPAGE_ATTRIBUTES.default) ?? undefined,
      snapshots: new Map([[JSON.stringify(last), [...items]]]),
      last,
      empty: undefined,
    };
  }

  /** Adds the controls, the shortcuts and dragging. */
  activate(): void {
    const sheet = new CSSStyleSheet();
    sheet.replaceSync(LISTS_PAGE_CSS);
    document.adoptedStyleSheets = [...document.adoptedStyleSheets, sheet];
    for (const list of this.#lists) {
      for (const item of list.items) this.#addControls(list, item);
      this.#showEmpty(list);
      acceptDrops(
        list,
        this.#dragged,
        (item, to) => this.#move(list, item, to),
      );
    }
    listenToShortcuts(() => this.#lists, (list, item, op, focus) => {
      const index = list.items.indexOf(item);
      if (op === "up") this.#move(list, item, index - 1, focus);
      else if (op === "down") this.#move(list, item, index + 1, focus);
      else if (op === "copy") this.#copy(list, item, focus);
      else this.#remove(list, item, focus?.startsWith("/") ? undefined : focus);
    });
    // The focus on a field outside every item hides the controls shown:
    // they would float over the page, far from where the person works.
    addEventListener("focusin", (event) => {
      const within = event.composedPath().some((node) =>
        node instanceof HTMLElement &&
        (node.hasAttribute(INPAGE_ATTRIBUTES.controls) ||
          this.#lists.some((list) => list.items.includes(node)))
      );
      if (!within) this.#activate(undefined);
    });
  }

  /**
   * Shows a transaction: the items of every list whose value it changed,
   * in their new order; the operation announced; the focus given back.
   *
   * @param state the state after it
   * @param before the state before it
   * @param tr the transaction
   */
  update(state: EditState, before: EditState, tr: Transaction): void {
    const operation = tr.getMeta("list");
    for (const list of this.#lists) {
      const now = state.valueOf(list.path, list.pointer);
      if (now === before.valueOf(list.path, list.pointer)) continue;
      const value = Array.isArray(now) ? now : [];
      const mine = operation?.list === list.pointer &&
          state.page(list.path) !== before.page(list.path)
        ? operation
        : undefined;
      const want = wanted(list, value, this.#sources, mine);
      arrange(list, want, value, this.#arrangeHooks());
      for (const item of list.items) this.#updateControls(list, item);
      this.#showEmpty(list);
      if (mine) this.#announce(list, mine);
    }
    this.#givePendingFocus();
  }

  #arrangeHooks(): ArrangeHooks {
    return {
      sources: this.#sources,
      unmount: (item) => {
        if (this.#active === item) this.#activate(undefined);
        this.#host.unmount(item);
      },
      repoint: (item, from, to) => this.#host.repoint(item, from, to),
      mount: (list, item, pointer) => {
        this.#host.mount(list.path, item, pointer);
        this.#addControls(list, item);
      },
    };
  }

  /** Says what an operation did. */
  #announce(list: ListView, operation: ListOperation): void {
    const noun = itemNoun(list.pointer);
    const { op, from, to } = operation;
    this.#host.announce(
      op === "copy"
        ? text("itemAdded", { noun, from: from + 1, position: to + 1 })
        : op === "remove"
        ? text("itemRemoved", { noun, position: from + 1 })
        : op === "move"
        ? text("itemMoved", { noun, from: from + 1, position: to + 1 })
        : text("itemFirst", { noun }),
    );
  }

  /** Asks for an operation, the focus to give back once it is shown. */
  #request(
    list: ListView,
    operation: ListOperation,
    focus: PendingFocus["focus"],
    index = operation.to,
  ): void {
    this.#pending = { list, index, focus };
    if (!this.#host.operate(list.path, operation, list.defaults)) {
      this.#pending = undefined;
      if (operation.op === "first") {
        this.#host.announce(text("listTemplateEmpty"));
      }
    }
  }

  #copy(list: ListView, item: HTMLElement, focus?: string): void {
    const from = list.items.indexOf(item);
    if (from < 0) return;
    this.#request(
      list,
      { op: "copy", list: list.pointer, from, to: from + 1 },
      focus,
    );
  }

  #remove(list: ListView, item: HTMLElement, focus?: string): void {
    const from = list.items.indexOf(item);
    if (from < 0) return;
    const next = from < list.items.length - 1 ? from : from - 1;
    this.#request(
      list,
      { op: "remove", list: list.pointer, from, to: from },
      focus === text("remove") ? focus : undefined,
      next,
    );
  }

  #move(list: ListView, item: HTMLElement, to: number, focus?: string): void {
    const from = list.items.indexOf(item);
    if (from < 0 || to < 0 || to >= list.items.length || to === from) return;
    this.#request(list, { op: "move", list: list.pointer, from, to }, focus);
  }

  #first(list: ListView): void {
    if (!list.template || list.items.length > 0) return;
    this.#request(
      list,
      { op: "first", list: list.pointer, from: 0, to: 0 },
      undefined,
    );
  }

  /**
   * Gives the focus back after an operation: the same control in the
   * item, or the same field, or its first control; an empty list's button.
   */
  #givePendingFocus(): void {
    const pending = this.#pending;
    this.#pending = undefined;
    if (!pending) return;
    const item = pending.list.items[pending.index];
    if (!item) {
      pending.list.empty?.shadowRoot?.querySelector("button")?.focus();
      return;
    }
    if (pending.focus?.startsWith("/") && focusField(item, pending.focus)) {
      return;
    }
    const root = this.#controlsOf(item)?.shadowRoot;
    const label = pending.focus && !pending.focus.startsWith("/")
      ? pending.focus
      : text("addAfter");
    const button = root?.querySelector<HTMLButtonElement>(
      `button[aria-label="${label}"]:not(:disabled)`,
    ) ?? root?.querySelector<HTMLButtonElement>("button:not(:disabled)");
    item.scrollIntoView({ block: "nearest" });
    button?.focus();
    this.#activate(item);
  }

  #controlsOf(item: HTMLElement): HTMLElement | undefined {
    return [...item.children, ...companions(item)].find((child) =>
      child.hasAttribute(INPAGE_ATTRIBUTES.controls)
    ) as HTMLElement | undefined;
  }

  #addControls(list: ListView, item: HTMLElement): void {
    const { host } = buildControls(list.pointer, {
      move: (by, focus) =>
        this.#move(list, item, list.items.indexOf(item) + by, focus),
      copy: (focus) => this.#copy(list, item, focus),
      remove: (focus) => this.#remove(list, item, focus),
      ...(item.hasAttribute(INPAGE_ATTRIBUTES.link)
        ? { editLink: () => this.#host.editLink(item) }
        : {}),
      dragStart: (event) =>
        startDrag(this.#dragged, list, item, event, itemNoun(list.pointer)),
      dragEnd: () => endDrag(this.#dragged),
    });
    if (canHold(item)) item.append(host);
    else {
      // An item that is itself a field or a link (a navigation's <a>): its
      // controls follow it, placed below it.
      item.after(host);
      host.dataset.place = "after";
    }
    item.addEventListener("mouseenter", (event) => {
      // Not while a button is held: a drag from the grip keeps its item.
      // Not on a phone: a tap's mouse events come after the touch, and
      // controls docked then would take the tap meant for the field.
      if (event.buttons !== 0 || this.#dragged.current || narrow()) return;
      this.#activate(item);
    });
    item.addEventListener("focusin", () => this.#activate(item));
    host.addEventListener("focusin", () => this.#activate(item));
    this.#updateControls(list, item);
  }

  /** Shows one item's controls (none: hides them all). */
  #activate(item: HTMLElement | undefined): void {
    if (item === this.#active) return;
    if (this.#active) {
      this.#controlsOf(this.#active)?.removeAttribute("data-shown");
    }
    this.#active = item;
    const host = item && this.#controlsOf(item);
    if (item && host) {
      host.setAttribute("data-shown", "");
      const which = host.shadowRoot?.querySelector(".which");
      const place = placeOf(item);
      if (which) {
        const words = place ? `${place.noun} ${place.position}` : "";
        which.textContent = words.charAt(0).toUpperCase() + words.slice(1);
      }
      if (host.dataset.place === "after" && !narrow()) placeAfter(host, item);
    }
    this.#host.docked();
  }

  /** The controls docked above the bar now (on a phone). */
  docked(): HTMLElement[] {
    const host = this.#active && this.#controlsOf(this.#active);
    return host && narrow() ? [host] : [];
  }

  /** Disables Move up on the first item and Move down on the last. */
  #updateControls(list: ListView, item: HTMLElement): void {
    const host = this.#controlsOf(item);
    const root = host?.shadowRoot;
    if (!host || !root) return;
    const index = list.items.indexOf(item);
    const up = root.querySelector<HTMLButtonElement>('[data-op="up"]');
    const down = root.querySelector<HTMLButtonElement>('[data-op="down"]');
    if (up) up.disabled = index <= 0;
    if (down) down.disabled = index >= list.items.length - 1;
    // Small items show their controls below them.
    requestAnimationFrame(() => {
      if (host.dataset.place === "after") {
        if (!narrow()) placeAfter(host, item);
      } else {
        host.dataset.place = item.getBoundingClientRect().height < 72
          ? "below"
          : "inside";
      }
    });
  }

  /** An empty list with a template offers its first item. */
  #showEmpty(list: ListView): void {
    const empty = list.items.length === 0 && list.template !== undefined;
    if (!empty) {
      list.empty?.remove();
      list.empty = undefined;
      return;
    }
    if (list.empty) return;
    const host = h("div", { [INPAGE_ATTRIBUTES.empty]: "" });
    controlsRoot(host).append(
      h(
        "div",
        { class: "controls", style: "display: inline-flex" },
        h("button", {
          type: "button",
          class: "add",
          onclick: () => this.#first(list),
        }, text("addFirst", { noun: itemNoun(list.pointer) })),
      ),
    );
    host.style.cssText =
      "position: static; opacity: 1; pointer-events: auto; transform: none;";
    list.marker.after(host);
    list.empty = host;
  }
}

/** Whether the screen is a phone's (controls docked above the bar). */
function narrow(): boolean {
  return matchMedia("(max-width: 640px)").matches;
}

/** Focuses a field of an item by its pointer below the item. */
function focusField(item: HTMLElement, below: string): boolean {
  const pointer = item.getAttribute(ITEM) + below;
  for (
    const name of [
      INPAGE_ATTRIBUTES.text,
      INPAGE_ATTRIBUTES.html,
      INPAGE_ATTRIBUTES.image,
      INPAGE_ATTRIBUTES.link,
    ]
  ) {
    const found = item.querySelector<HTMLElement>(
      `[${name}="${CSS.escape(pointer)}"]`,
    );
    if (!found) continue;
    const editable = found.isContentEditable
      ? found
      : found.querySelector<HTMLElement>("[contenteditable]") ?? found;
    editable.focus();
    return true;
  }
  return false;
}
