/// <reference lib="dom" />
/**
 * The overlay's interface pieces, built in its shadow root: an element
 * helper and modal dialogs that trap focus, close on Escape and give focus
 * back where it was.
 *
 * @module
 */

type Child = Node | string | false | undefined;

/**
 * Makes an element.
 *
 * @param tag the tag name
 * @param attributes attributes, `on…` functions as listeners
 * @param children child nodes or text
 * @returns the element
 */
export function h<K extends keyof HTMLElementTagNameMap>(
  tag: K,
  attributes: Record<string, unknown> = {},
  ...children: Child[]
): HTMLElementTagNameMap[K] {
  const element = document.createElement(tag);
  for (const [name, value] of Object.entries(attributes)) {
    if (value === undefined || value === false) continue;
    if (name.startsWith("on") && typeof value === "function") {
      element.addEventListener(name.slice(2), value as EventListener);
    } else element.setAttribute(name, value === true ? "" : String(value));
  }
  for (const child of children) {
    if (child !== false && child !== undefined) element.append(child);
  }
  return element;
}

/**
 * Shows a modal dialog in the shadow root and resolves with what closed it.
 *
 * @param root the shadow root
 * @param dialog the dialog element
 * @returns the dialog's `returnValue` when it closes
 */
export function showDialog(
  root: ShadowRoot,
  dialog: HTMLDialogElement,
): Promise<string> {
  const before = document.activeElement;
  root.querySelector(".ui")?.append(dialog);
  dialog.showModal();
  return new Promise((resolve) => {
    dialog.addEventListener("close", () => {
      dialog.remove();
      if (before instanceof HTMLElement) before.focus({ preventScroll: true });
      resolve(dialog.returnValue);
    }, { once: true });
  });
}

/**
 * A dialog with a title, some content and buttons that close it with
 * their value.
 *
 * @param title the heading
 * @param content paragraphs or fields
 * @param buttons label and value of each button, the last one primary
 * @returns the dialog
 */
export function messageDialog(
  title: string,
  content: Child[],
  buttons: Array<{ label: string; value: string; kind?: string }>,
): HTMLDialogElement {
  const id = `inpage-${Math.random().toString(36).slice(2)}`;
  const dialog = h("dialog", { "aria-labelledby": id });
  const form = h(
    "form",
    { method: "dialog" },
    h("h2", { id }, title),
    ...content,
    h(
      "div",
      { class: "actions" },
      ...buttons.map((button) =>
        h("button", {
          value: button.value,
          class: button.kind ?? "",
          autofocus: button.kind === "primary",
        }, button.label)
      ),
    ),
  );
  dialog.append(form);
  return dialog;
}
