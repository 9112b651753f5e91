/// <reference lib="dom" />
/**
 * A plain-text region (`data-inpage-text`): the element made editable as
 * plain text by the browser, one line (Enter does nothing), pasted as
 * text; what is typed goes to the controller as it is typed.
 *
 * @module
 */

import type { Region, RegionMaker } from "./region.ts";

/** Makes a plain-text region. */
export const textRegion: RegionMaker = (page, element, pointer, hooks) => {
  const value = page.stored(pointer);
  if (typeof value === "string" && element.textContent !== value) {
    element.textContent = value;
  }
  element.contentEditable = "plaintext-only";
  element.spellcheck = true;
  element.setAttribute("role", "textbox");
  const label = () =>
    element.setAttribute("aria-label", hooks.label("text", element));
  label();
  const onInput = () => hooks.typed(region, element.textContent ?? "");
  const onKey = (event: KeyboardEvent) => {
    if (event.key === "Enter") event.preventDefault();
  };
  const onFocus = () => hooks.focus(region);
  const onBlur = () => hooks.blur(region);
  const listeners = [
    ["input", onInput],
    ["keydown", onKey],
    ["focus", onFocus],
    ["blur", onBlur],
  ] as const;
  for (const [type, listener] of listeners) {
    element.addEventListener(type, listener as EventListener);
  }
  const region: Region = {
    kind: "text",
    pointer,
    element,
    path: page.path,
    show(next) {
      const shown = typeof next === "string" ? next : "";
      if (element.textContent !== shown) element.textContent = shown;
    },
    destroy() {
      for (const [type, listener] of listeners) {
        element.removeEventListener(type, listener as EventListener);
      }
      element.removeAttribute("contenteditable");
    },
    repoint(next) {
      region.pointer = next;
      label();
    },
  };
  return region;
};
