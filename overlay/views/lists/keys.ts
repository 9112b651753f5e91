/// <reference lib="dom" />
/**
 * The list shortcuts, with the focus anywhere in an item: Alt+Shift+ArrowUp
 * and Alt+Shift+ArrowDown move it, Alt+Shift+D adds a copy after it,
 * Alt+Shift+Delete (or Alt+Shift+Backspace) removes it. Nothing happens in
 * Preview, or while a past version is shown (the page is read-only then).
 *
 * @module
 */

import { INPAGE_ATTRIBUTES, REGION_KINDS } from "../../../lib/wire/regions.ts";

/** The attributes of the fields a person works in, innermost kinds first. */
const FIELD_ATTRIBUTES = (["text", "html", "image", "link"] as const).map((
  kind,
) => REGION_KINDS[kind].attribute);
import type { ListView } from "./arrange.ts";

/** An operation asked by a shortcut. */
export type ShortcutOperation = "up" | "down" | "copy" | "remove";

/** The operation of a key, if it is a list shortcut. */
function operationOf(event: KeyboardEvent): ShortcutOperation | undefined {
  if (!event.altKey || !event.shiftKey || event.ctrlKey || event.metaKey) {
    return undefined;
  }
  if (event.key === "ArrowUp") return "up";
  if (event.key === "ArrowDown") return "down";
  if (event.code === "KeyD") return "copy";
  if (event.key === "Delete" || event.key === "Backspace") return "remove";
  return undefined;
}

/**
 * Where the focus is in an item: a field of it (its pointer below the
 * item's, `/heading`), or one of its controls (the button's name).
 */
function focusIn(item: HTMLElement, inner: EventTarget | undefined) {
  if (!(inner instanceof HTMLElement)) return undefined;
  const label = inner.getAttribute("aria-label");
  if (inner instanceof HTMLButtonElement && label) return label;
  const field = FIELD_ATTRIBUTES.map((name) =>
    inner.closest(`[${name}]`)?.getAttribute(name)
  ).find((value) => value !== undefined && value !== null);
  const at = item.getAttribute(INPAGE_ATTRIBUTES.item) ?? "";
  return field?.startsWith(`${at}/`) ? field.slice(at.length) : undefined;
}

/**
 * Listens to the list shortcuts on the page.
 *
 * @param lists the page's lists
 * @param run does an operation on an item, the focus to give back after
 * @returns a function that stops listening
 */
export function listenToShortcuts(
  lists: () => readonly ListView[],
  run: (
    list: ListView,
    item: HTMLElement,
    op: ShortcutOperation,
    focus: string | undefined,
  ) => void,
): () => void {
  const onKey = (event: KeyboardEvent) => {
    const op = operationOf(event);
    if (!op) return;
    if (!document.documentElement.hasAttribute(INPAGE_ATTRIBUTES.editing)) {
      return;
    }
    const path = event.composedPath();
    let found: { list: ListView; item: HTMLElement } | undefined;
    for (const node of path) {
      if (!(node instanceof HTMLElement)) continue;
      const list = lists().find((list) => list.items.includes(node));
      if (list) {
        found = { list, item: node };
        break;
      }
    }
    if (!found) return;
    event.preventDefault();
    event.stopPropagation();
    run(found.list, found.item, op, focusIn(found.item, path[0]));
  };
  addEventListener("keydown", onKey, true);
  return () => removeEventListener("keydown", onKey, true);
}
