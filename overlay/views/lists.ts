/// <reference lib="dom" />
/**
 * Lists on the page (`data-inpage-list`, items `data-inpage-item`): each
 * item gets controls to add a copy after it, remove it, move it up or down
 * and drag it, with keyboard shortcuts, each operation announced. The
 * preview is immediate: a new item is a clone of its item's markup as the
 * page was served, with every `data-inpage-*` pointer in it and after it
 * rewritten; the session holds the whole list as one change. After undo,
 * redo, a restored draft or a merge, the items are put back in the order
 * the list now holds.
 *
 * Shortcuts, with the focus anywhere in an item: Alt+Shift+ArrowUp and
 * Alt+Shift+ArrowDown move it, Alt+Shift+D adds a copy after it,
 * Alt+Shift+Delete (or Alt+Shift+Backspace) removes it.
 *
 * A list inside a list item moves and is copied with its item; its own
 * items get no controls.
 *
 * @module
 */

import { INPAGE_ATTRIBUTES } from "../../lib/wire/names.ts";
import {
  copyItem,
  firstItem,
  itemNoun,
  itemPointer,
  moveItem,
  POINTER_ATTRIBUTES,
  removeItem,
  retarget,
} from "../session/lists.ts";
import type { EditSession } from "../session/session.ts";
import { text } from "../i18n/mod.ts";
import { h } from "../ui.ts";
import { linkIcon } from "./links.ts";

const ITEM = INPAGE_ATTRIBUTES.item;
const LIST = INPAGE_ATTRIBUTES.list;

/** What the lists need from the overlay's wiring. */
export interface ListHost {
  /** The edit session. */
  session: EditSession;
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
  /** The regions of a page changed (added, removed or moved). */
  changed(path: string): void;
}

/** The markup an item is cloned from, as the page was served. */
interface Source {
  node: HTMLElement;
  pointer: string;
  id: string | undefined;
}

/** One list on the page. */
interface ListState {
  path: string;
  pointer: string;
  element: HTMLElement;
  marker: Comment;
  items: HTMLElement[];
  template: Source | undefined;
  defaults: string | undefined;
  /** Which items showed a list value (its JSON). */
  snapshots: Map<string, HTMLElement[]>;
  /** The list value when the items were last arranged. */
  last: unknown[];
  empty: HTMLElement | undefined;
}

/** The controls' styles, in each item's controls' shadow root. */
const CONTROLS_CSS = `
:host { all: initial; position: absolute; z-index: 2147483640; top: 0; right: 8px; transform: translateY(calc(-100% + 4px)); opacity: 0; pointer-events: none; transition: opacity .12s; }
:host([data-place="below"]) { top: 100%; right: auto; left: 0; transform: none; }
:host([data-place="after"]) { right: auto; transform: none; }
:host(:focus-within), :host([data-shown]) { opacity: 1; pointer-events: auto; }
.controls { display: flex; gap: 2px; padding: 3px; background: #fff; border: 1px solid #9ca3af; border-radius: 8px; box-shadow: 0 4px 12px rgba(0,0,0,.18); font: 14px/1 system-ui, -apple-system, "Segoe UI", Roboto, sans-serif; }
button, .grip { all: unset; box-sizing: border-box; display: inline-flex; align-items: center; justify-content: center; min-width: 32px; height: 32px; padding: 0 6px; border-radius: 6px; color: #111827; cursor: pointer; font-size: 16px; }
button:hover { background: #e5e7eb; }
button:focus-visible { outline: 3px solid #f59e0b; outline-offset: 1px; }
button:disabled { color: #6b7280; cursor: default; background: none; }
button.remove { color: #b91c1c; }
.grip { cursor: grab; color: #374151; -webkit-user-drag: element; user-select: none; }
.add { font-weight: 700; }
`;

/** The page rules of lists while editing. */
const LISTS_PAGE_CSS = `
html[data-inpage-editing] [data-inpage-list] > [data-inpage-item] { position: relative; }
html[data-inpage-editing] [data-inpage-item][data-inpage-drop="before"] { box-shadow: 0 -4px 0 #2563eb; }
html[data-inpage-editing] [data-inpage-item][data-inpage-drop="after"] { box-shadow: 0 4px 0 #2563eb; }
html[data-inpage-editing] [data-inpage-item][data-inpage-dragging] { opacity: .5; }
`;

let controlsSheet: CSSStyleSheet | undefined;

/**
 * The lists of the page: {@linkcode Lists.prepare} each page container
 * before its regions are mounted (it keeps the items' markup as served),
 * then {@linkcode Lists.activate} once.
 */
export class Lists {
  readonly #host: ListHost;
  readonly #lists: ListState[] = [];
  readonly #sources = new WeakMap<HTMLElement, Source>();
  #dragged: { list: ListState; item: HTMLElement } | undefined;

  /**
   * @param host what the lists need from the wiring
   */
  constructor(host: ListHost) {
    this.#host = host;
  }

  /** The pointers of the lists of a page. */
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
   * @param refuse says which lists are left as they are (a value that is
   *   not a list)
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
      if (element.closest("[data-inpage-page]") !== container) continue;
      // A list inside an item goes with its item.
      if (element.parentElement?.closest(`[${ITEM}]`)) continue;
      const pointer = element.getAttribute(LIST) ?? "";
      if (refuse(element, pointer)) continue;
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
      this.#lists.push({
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
        defaults: template?.getAttribute(INPAGE_ATTRIBUTES.default) ??
          undefined,
        snapshots: new Map([[JSON.stringify(last), [...items]]]),
        last,
        empty: undefined,
      });
    }
  }

  /** Adds the controls, the shortcuts and dragging. */
  activate(): void {
    const sheet = new CSSStyleSheet();
    sheet.replaceSync(LISTS_PAGE_CSS);
    document.adoptedStyleSheets = [...document.adoptedStyleSheets, sheet];
    for (const list of this.#lists) {
      for (const item of list.items) this.#addControls(list, item);
      this.#showEmpty(list);
      this.#dragging(list);
    }
    addEventListener("keydown", (event) => this.#key(event), true);
    // The focus on a field outside every item hides the controls shown:
    // they would float over the page, far from where the person works.
    addEventListener("focusin", (event) => {
      const within = event.composedPath().some((node) =>
        node instanceof HTMLElement &&
        (node.hasAttribute("data-inpage-controls") ||
          this.#lists.some((list) => list.items.includes(node)))
      );
      if (!within) this.#showOnly(undefined);
    });
  }

  /**
   * Puts the items of a page's lists in the order the session holds (after
   * undo, redo, a restored draft or a merge).
   *
   * @param path the page path
   */
  refresh(path: string): void {
    let moved = false;
    for (const list of this.#lists) {
      if (list.path !== path) continue;
      const value = this.#value(list);
      const snapshot = list.snapshots.get(JSON.stringify(value));
      let wanted: Array<HTMLElement | Source>;
      if (snapshot) {
        wanted = snapshot.map((item) =>
          list.items.includes(item) ? item : this.#sourceOf(list, item)
        );
      } else wanted = this.#match(list, value);
      if (
        wanted.length === list.items.length &&
        wanted.every((item, index) => item === list.items[index])
      ) {
        list.last = value;
        continue;
      }
      this.#arrange(list, wanted, value);
      moved = true;
    }
    if (moved) this.#host.changed(path);
  }

  /** Items for a list value no snapshot knows: by id, else by place. */
  #match(list: ListState, value: unknown[]): Array<HTMLElement | Source> {
    const byId = new Map<string, HTMLElement>();
    list.last.forEach((item, index) => {
      const id = idOf(item);
      const element = list.items[index];
      if (id !== undefined && element) byId.set(id, element);
    });
    const used = new Set<HTMLElement>();
    return value.map((item, index) => {
      const id = idOf(item);
      const found = id === undefined ? undefined : byId.get(id);
      if (found && !used.has(found)) {
        used.add(found);
        return found;
      }
      const same = list.items[index];
      if (same && !used.has(same) && idOf(list.last[index]) === id) {
        used.add(same);
        return same;
      }
      const near = list.items[index] ?? list.items.at(-1);
      return near ? this.#sourceOf(list, near) : list.template!;
    }).filter((item) => item !== undefined);
  }

  #sourceOf(list: ListState, item: HTMLElement): Source {
    return this.#sources.get(item) ?? list.template!;
  }

  #value(list: ListState): unknown[] {
    const value = this.#host.session.valueOf(list.path, list.pointer);
    return Array.isArray(value) ? value : [];
  }

  /**
   * Shows a list's items in order: kept items moved (their pointers
   * rewritten), new ones cloned from their source, the others removed.
   */
  #arrange(
    list: ListState,
    wanted: Array<HTMLElement | Source>,
    value: unknown[],
  ): HTMLElement[] {
    const keep = new Set(wanted.filter((item) => item instanceof HTMLElement));
    for (const item of list.items) {
      if (keep.has(item)) continue;
      this.#host.unmount(item);
      for (const companion of companions(item)) companion.remove();
      item.remove();
    }
    let anchor: Node = list.marker;
    const created: Array<[HTMLElement, string]> = [];
    const next = wanted.map((want, index) => {
      const to = itemPointer(list.pointer, index);
      let element: HTMLElement;
      if (want instanceof HTMLElement) {
        element = want;
        const from = element.getAttribute(ITEM) ?? to;
        if (from !== to) {
          rewrite(element, from, to);
          this.#host.repoint(element, from, to);
        }
      } else {
        element = want.node.cloneNode(true) as HTMLElement;
        this.#sources.set(element, want);
        rewrite(element, want.pointer, to);
        const id = idOf(value[index]);
        if (want.id !== undefined && id !== undefined) {
          for (const tagged of [element, ...element.querySelectorAll("[id]")]) {
            if (tagged.id === want.id) tagged.id = id;
          }
        }
        created.push([element, to]);
      }
      const group = [element, ...companions(element)];
      if (anchor.nextSibling !== element) (anchor as ChildNode).after(...group);
      anchor = group.at(-1)!;
      return element;
    });
    list.items = next;
    list.last = value;
    for (const [element, pointer] of created) {
      this.#host.mount(list.path, element, pointer);
      this.#addControls(list, element);
    }
    for (const item of next) this.#updateControls(list, item);
    this.#showEmpty(list);
    list.snapshots.set(JSON.stringify(value), [...next]);
    return next;
  }

  /** Runs one operation: the session's change, then the preview. */
  #operate(
    list: ListState,
    value: unknown[],
    wanted: Array<HTMLElement | Source>,
  ): HTMLElement[] | undefined {
    const session = this.#host.session;
    if (session.busy) return undefined;
    list.snapshots.set(JSON.stringify(this.#value(list)), [...list.items]);
    session.changeList(list.path, list.pointer, value);
    const next = this.#arrange(list, wanted, value);
    this.#host.changed(list.path);
    return next;
  }

  /** Adds a copy of an item after it. */
  #copy(list: ListState, item: HTMLElement, focus?: string): void {
    const index = list.items.indexOf(item);
    const source = this.#sources.get(item);
    if (index < 0 || !source) return;
    const page = this.#host.session.valueOf(list.path, "");
    const value = copyItem(this.#value(list), index, page);
    const wanted: Array<HTMLElement | Source> = [...list.items];
    wanted.splice(index + 1, 0, source);
    const next = this.#operate(list, value, wanted);
    if (!next) return;
    const noun = itemNoun(list.pointer);
    this.#host.announce(
      text("itemAdded", { noun, from: index + 1, position: index + 2 }),
    );
    this.#focus(next[index + 1], focus);
  }

  /** Removes an item (undo brings it back). */
  #remove(list: ListState, item: HTMLElement, focus?: string): void {
    const index = list.items.indexOf(item);
    if (index < 0) return;
    const next = this.#operate(
      list,
      removeItem(this.#value(list), index),
      list.items.filter((other) => other !== item),
    );
    if (!next) return;
    this.#host.announce(
      text("itemRemoved", {
        noun: itemNoun(list.pointer),
        position: index + 1,
      }),
    );
    const after = next[index] ?? next[index - 1];
    if (after) {
      this.#focus(after, focus === text("remove") ? focus : undefined);
    } else list.empty?.shadowRoot?.querySelector("button")?.focus();
  }

  /** Moves an item to another place. */
  #move(list: ListState, item: HTMLElement, to: number, focus?: string): void {
    const from = list.items.indexOf(item);
    if (from < 0 || to < 0 || to >= list.items.length || to === from) return;
    const wanted = moveItem(list.items, from, to) as HTMLElement[];
    const next = this.#operate(
      list,
      moveItem(this.#value(list), from, to),
      wanted,
    );
    if (!next) return;
    this.#host.announce(
      text("itemMoved", {
        noun: itemNoun(list.pointer),
        from: from + 1,
        position: to + 1,
      }),
    );
    this.#focus(item, focus);
  }

  /** Gives an empty list its first item, from its template. */
  #first(list: ListState): void {
    if (!list.template || list.items.length > 0) return;
    const page = this.#host.session.valueOf(list.path, "");
    const value = firstItem(list.defaults ?? "", page);
    if (!value) {
      this.#host.announce(text("listTemplateEmpty"));
      return;
    }
    const next = this.#operate(list, value, [list.template]);
    if (!next) return;
    this.#host.announce(text("itemFirst", { noun: itemNoun(list.pointer) }));
    this.#focus(next[0], undefined);
  }

  /**
   * Gives the focus back after an operation: the same control in the item,
   * or the same field, or its first field.
   */
  #focus(item: HTMLElement | undefined, focus: string | undefined): void {
    if (!item) return;
    if (focus?.startsWith("/")) {
      const pointer = item.getAttribute(ITEM) + focus;
      for (const name of POINTER_ATTRIBUTES) {
        const found = item.querySelector<HTMLElement>(
          `[${name}="${CSS.escape(pointer)}"]`,
        );
        if (found) {
          const editable = found.isContentEditable
            ? found
            : found.querySelector<HTMLElement>("[contenteditable]") ?? found;
          editable.focus();
          return;
        }
      }
    }
    const controls = this.#controlsOf(item);
    const label = focus && !focus.startsWith("/") ? focus : text("addAfter");
    const button = controls?.shadowRoot?.querySelector<HTMLButtonElement>(
      `button[aria-label="${label}"]:not(:disabled)`,
    ) ?? controls?.shadowRoot?.querySelector<HTMLButtonElement>(
      "button:not(:disabled)",
    );
    item.scrollIntoView({ block: "nearest" });
    button?.focus();
  }

  #controlsOf(item: HTMLElement): HTMLElement | undefined {
    return [...item.children, ...companions(item)].find((child) =>
      child.hasAttribute("data-inpage-controls")
    ) as HTMLElement | undefined;
  }

  #addControls(list: ListState, item: HTMLElement): void {
    const host = h("div", { "data-inpage-controls": "" });
    const root = host.attachShadow({ mode: "open" });
    if (!controlsSheet) {
      controlsSheet = new CSSStyleSheet();
      controlsSheet.replaceSync(CONTROLS_CSS);
    }
    root.adoptedStyleSheets = [controlsSheet];
    const noun = itemNoun(list.pointer);
    const button = (
      label: string,
      glyph: string,
      keys: string,
      run: () => void,
      extra: Record<string, unknown> = {},
    ) =>
      h("button", {
        type: "button",
        "aria-label": label,
        title: `${label} (${keys})`,
        "aria-keyshortcuts": keys.replaceAll("Arrow", "Arrow"),
        onclick: run,
        ...extra,
      }, glyph);
    const grip = h("span", {
      class: "grip",
      draggable: "true",
      title: text("drag", { noun }),
      "aria-hidden": "true",
    }, "⠿");
    grip.addEventListener("dragstart", (event) => {
      this.#dragged = { list, item };
      item.setAttribute("data-inpage-dragging", "");
      event.dataTransfer?.setData("text/plain", noun);
      if (event.dataTransfer) {
        event.dataTransfer.effectAllowed = "move";
        event.dataTransfer.setDragImage(item, 12, 12);
      }
    });
    grip.addEventListener("dragend", () => this.#endDrag());
    root.append(
      h(
        "div",
        {
          class: "controls",
          role: "group",
          "aria-label": text("itemControls", { noun }),
        },
        grip,
        button(
          text("moveUp"),
          "↑",
          "Alt+Shift+ArrowUp",
          () =>
            this.#move(
              list,
              item,
              list.items.indexOf(item) - 1,
              text("moveUp"),
            ),
          { "data-op": "up" },
        ),
        button(
          text("moveDown"),
          "↓",
          "Alt+Shift+ArrowDown",
          () =>
            this.#move(
              list,
              item,
              list.items.indexOf(item) + 1,
              text("moveDown"),
            ),
          { "data-op": "down" },
        ),
        button(
          text("addAfter"),
          "+",
          "Alt+Shift+D",
          () => this.#copy(list, item, text("addAfter")),
          { class: "add" },
        ),
        item.hasAttribute(INPAGE_ATTRIBUTES.link) &&
          h("button", {
            type: "button",
            "aria-label": text("editLink"),
            title: text("editLinkTitle"),
            onclick: () => this.#host.editLink(item),
          }, linkIcon()),
        button(
          text("remove"),
          "✕",
          "Alt+Shift+Delete",
          () => this.#remove(list, item, text("remove")),
          { class: "remove" },
        ),
      ),
    );
    if (canHold(item)) item.append(host);
    else {
      // An item that is itself a field or a link (a navigation's <a>): its
      // controls follow it, placed below it.
      item.after(host);
      host.dataset.place = "after";
    }
    // The controls of the item last pointed at or focused are shown (and
    // take clicks); the others are hidden and let clicks through.
    const show = () => this.#show(list, item);
    item.addEventListener("mouseenter", (event) => {
      // Not while a button is held: a drag starting from the grip keeps it.
      if (event.buttons === 0 && !this.#dragged) show();
    });
    item.addEventListener("focusin", show);
    host.addEventListener("focusin", show);
    this.#updateControls(list, item);
  }

  /** Shows one item's controls, hiding those of every other item. */
  #show(_list: ListState, item: HTMLElement): void {
    this.#showOnly(item);
    const host = this.#controlsOf(item);
    if (!host) return;
    host.setAttribute("data-shown", "");
    if (host.dataset.place === "after") placeAfter(host, item);
  }

  /** Hides the controls of every item but one (all when none is given). */
  #showOnly(item: HTMLElement | undefined): void {
    for (const other of this.#lists.flatMap((each) => each.items)) {
      if (other !== item) {
        this.#controlsOf(other)?.removeAttribute("data-shown");
      }
    }
  }

  /** Disables Move up on the first item and Move down on the last. */
  #updateControls(list: ListState, item: HTMLElement): void {
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
      if (host.dataset.place === "after") placeAfter(host, item);
      else {
        host.dataset.place = item.getBoundingClientRect().height < 72
          ? "below"
          : "inside";
      }
    });
  }

  /** An empty list with a template offers its first item. */
  #showEmpty(list: ListState): void {
    const empty = list.items.length === 0 && list.template !== undefined;
    if (!empty) {
      list.empty?.remove();
      list.empty = undefined;
      return;
    }
    if (list.empty) return;
    const noun = itemNoun(list.pointer);
    const host = h("div", { "data-inpage-empty": "" });
    const root = host.attachShadow({ mode: "open" });
    if (!controlsSheet) {
      controlsSheet = new CSSStyleSheet();
      controlsSheet.replaceSync(CONTROLS_CSS);
    }
    root.adoptedStyleSheets = [controlsSheet];
    root.append(
      h(
        "div",
        { class: "controls", style: "display: inline-flex" },
        h("button", {
          type: "button",
          class: "add",
          onclick: () => this.#first(list),
        }, text("addFirst", { noun })),
      ),
    );
    host.style.cssText =
      "position: static; opacity: 1; pointer-events: auto; transform: none;";
    list.marker.after(host);
    list.empty = host;
  }

  #dragging(list: ListState): void {
    const clear = () => {
      for (const item of list.items) item.removeAttribute("data-inpage-drop");
    };
    const target = (event: DragEvent): number | undefined => {
      if (this.#dragged?.list !== list) return undefined;
      const items = list.items;
      const across = items.length > 1 &&
        Math.abs(
            items[0]!.getBoundingClientRect().top -
              items[1]!.getBoundingClientRect().top,
          ) < 4;
      let index = items.length;
      for (const [at, item] of items.entries()) {
        const box = item.getBoundingClientRect();
        const middle = across
          ? box.left + box.width / 2
          : box.top + box.height / 2;
        if ((across ? event.clientX : event.clientY) < middle) {
          index = at;
          break;
        }
      }
      return index;
    };
    list.element.addEventListener("dragover", (event) => {
      const index = target(event);
      if (index === undefined) return;
      event.preventDefault();
      if (event.dataTransfer) event.dataTransfer.dropEffect = "move";
      clear();
      const before = list.items[index];
      if (before) before.setAttribute("data-inpage-drop", "before");
      else list.items.at(-1)?.setAttribute("data-inpage-drop", "after");
    });
    list.element.addEventListener("dragleave", (event) => {
      if (!list.element.contains(event.relatedTarget as Node)) clear();
    });
    list.element.addEventListener("drop", (event) => {
      const index = target(event);
      const dragged = this.#dragged;
      if (index === undefined || !dragged) return;
      event.preventDefault();
      clear();
      const from = list.items.indexOf(dragged.item);
      const to = index > from ? index - 1 : index;
      this.#endDrag();
      this.#move(list, dragged.item, to);
    });
  }

  #endDrag(): void {
    this.#dragged?.item.removeAttribute("data-inpage-dragging");
    for (const list of this.#lists) {
      for (const item of list.items) item.removeAttribute("data-inpage-drop");
    }
    this.#dragged = undefined;
  }

  /** The shortcuts, from anywhere inside an item. */
  #key(event: KeyboardEvent): void {
    if (!event.altKey || !event.shiftKey || event.ctrlKey || event.metaKey) {
      return;
    }
    // In Preview, or while a past version is shown, the page is read-only.
    if (!document.documentElement.hasAttribute("data-inpage-editing")) return;
    const key = event.key;
    const op = key === "ArrowUp"
      ? "up"
      : key === "ArrowDown"
      ? "down"
      : event.code === "KeyD"
      ? "copy"
      : key === "Delete" || key === "Backspace"
      ? "remove"
      : undefined;
    if (!op) return;
    const path = event.composedPath();
    let found: { list: ListState; item: HTMLElement } | undefined;
    for (const node of path) {
      if (!(node instanceof HTMLElement)) continue;
      for (const list of this.#lists) {
        if (list.items.includes(node)) found = { list, item: node };
      }
      if (found) break;
    }
    if (!found) return;
    event.preventDefault();
    event.stopPropagation();
    const { list, item } = found;
    // Where the focus is: a field of the item (its pointer below the
    // item's), or one of its controls.
    const inner = path[0];
    let focus: string | undefined;
    if (inner instanceof HTMLElement) {
      const label = inner.getAttribute("aria-label");
      if (inner instanceof HTMLButtonElement && label) focus = label;
      else {
        const field = POINTER_ATTRIBUTES.map((name) =>
          inner.closest(`[${name}]`)?.getAttribute(name)
        ).find((value) => value !== undefined && value !== null);
        const at = item.getAttribute(ITEM) ?? "";
        if (field && field.startsWith(`${at}/`)) {
          focus = field.slice(at.length);
        }
      }
    }
    const index = list.items.indexOf(item);
    if (op === "up") this.#move(list, item, index - 1, focus);
    else if (op === "down") this.#move(list, item, index + 1, focus);
    else if (op === "copy") this.#copy(list, item, focus);
    else this.#remove(list, item, focus?.startsWith("/") ? undefined : focus);
  }
}

/** The overlay's controls that follow an item (its own controls, the Edit link control of an item that is a link). */
function companions(item: HTMLElement): HTMLElement[] {
  const found: HTMLElement[] = [];
  let next = item.nextElementSibling;
  while (
    next instanceof HTMLElement &&
    (next.hasAttribute("data-inpage-controls") ||
      next.hasAttribute("data-inpage-link-control") ||
      next.hasAttribute("data-inpage-alt-control"))
  ) {
    found.push(next);
    next = next.nextElementSibling;
  }
  return found;
}

/** Whether an item can hold its controls: not a field, a link or a void element. */
function canHold(item: HTMLElement): boolean {
  if (/^(A|BUTTON|IMG|INPUT|TEXTAREA|SELECT|LI)$/.test(item.tagName)) {
    return item.tagName === "LI" && !item.hasAttribute(INPAGE_ATTRIBUTES.text);
  }
  return ![
    INPAGE_ATTRIBUTES.text,
    INPAGE_ATTRIBUTES.html,
    INPAGE_ATTRIBUTES.image,
    INPAGE_ATTRIBUTES.link,
  ].some((name) => item.hasAttribute(name));
}

/** Places controls that follow an item just below it. */
function placeAfter(host: HTMLElement, item: HTMLElement): void {
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

/** Rewrites every pointer of an item's markup from one place to another. */
function rewrite(item: HTMLElement, from: string, to: string): void {
  for (const name of POINTER_ATTRIBUTES) {
    for (
      const element of [
        item,
        ...item.querySelectorAll<HTMLElement>(`[${name}]`),
      ]
    ) {
      const value = element.getAttribute(name);
      if (value !== null) element.setAttribute(name, retarget(value, from, to));
    }
  }
}

/** The `id` of a list item's value, when it has one. */
function idOf(value: unknown): string | undefined {
  if (typeof value !== "object" || value === null) return undefined;
  const id = (value as Record<string, unknown>).id;
  return typeof id === "string" ? id : undefined;
}
