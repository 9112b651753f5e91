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
 * The element that has the focus, looking inside shadow roots.
 *
 * @returns the focused element, if any
 */
export function focusedElement(): HTMLElement | undefined {
  let active = document.activeElement;
  while (active?.shadowRoot?.activeElement) {
    active = active.shadowRoot.activeElement;
  }
  return active instanceof HTMLElement && active !== document.body
    ? active
    : undefined;
}

/** How a dialog is shown. */
export interface DialogOptions {
  /**
   * Asked before Escape closes the dialog: false keeps it open (a dialog
   * holding work the person would lose asks first).
   */
  beforeCancel?(): Promise<boolean>;
}

/**
 * Shows a modal dialog in the shadow root, puts the focus on the element
 * marked `data-first-focus`, else its first field (or its primary button), and resolves with what closed it, giving
 * the focus back where it was. Escape closes it with `"cancel"` (after
 * `beforeCancel`, when given, agrees).
 *
 * @param root the shadow root
 * @param dialog the dialog element
 * @param options what to ask before Escape closes it
 * @returns the dialog's `returnValue` when it closes
 */
export function showDialog(
  root: ShadowRoot,
  dialog: HTMLDialogElement,
  options: DialogOptions = {},
): Promise<string> {
  const before = focusedElement();
  dialog.returnValue = "";
  root.querySelector(".ui")?.append(dialog);
  dialog.showModal();
  (dialog.querySelector<HTMLElement>("[data-first-focus]") ??
    dialog.querySelector<HTMLElement>(
      "input:not([type=hidden]):not([disabled]), textarea",
    ) ?? dialog.querySelector<HTMLElement>("button.primary:not([disabled])") ??
    dialog.querySelector<HTMLElement>("button"))?.focus();
  return new Promise((resolve) => {
    // Answered as it closes, not at its close event, which comes a task
    // later: what the person does next (a key, a click) must find the
    // answer applied and the focus back.
    let answered = false;
    const answer = () => {
      if (answered) return;
      answered = true;
      dialog.remove();
      if (before?.isConnected) before.focus({ preventScroll: true });
      resolve(dialog.returnValue || "cancel");
    };
    const close = dialog.close.bind(dialog);
    dialog.close = (value?: string) => {
      close(value);
      answer();
    };
    // A form's own submission (method="dialog") closes it the same way.
    dialog.addEventListener("submit", (event) => {
      if (event.defaultPrevented) return;
      event.preventDefault();
      const submitter = (event as SubmitEvent).submitter;
      dialog.close(
        submitter instanceof HTMLButtonElement ? submitter.value : "",
      );
    });
    dialog.addEventListener("cancel", (event) => {
      event.preventDefault();
      if (!options.beforeCancel) return dialog.close("");
      void options.beforeCancel().then((close) => {
        if (close && dialog.open) dialog.close("");
      });
    });
    dialog.addEventListener("close", answer, { once: true });
  });
}

/** A button of a dialog. */
export interface DialogButton {
  /** Its label (its accessible name). */
  label: string;
  /** The value the dialog closes with. */
  value: string;
  /** `primary` (Enter presses it) or `danger`. */
  kind?: "primary" | "danger";
}

/**
 * A dialog with a title, some content and buttons that close it with
 * their value. The primary button is the form's only submit button, so
 * Enter in a field presses it; `check`, when given, runs first and keeps
 * the dialog open, with what was typed, while it answers a sentence.
 *
 * @param title the heading
 * @param content paragraphs or fields
 * @param buttons label and value of each button
 * @param check says why the primary action cannot be done yet, if so
 * @returns the dialog
 */
export function messageDialog(
  title: string,
  content: Child[],
  buttons: DialogButton[],
  check?: (value: string) => string | undefined,
): HTMLDialogElement {
  const id = `inpage-${Math.random().toString(36).slice(2)}`;
  const dialog = h("dialog", { "aria-labelledby": id });
  const error = h("p", { class: "error", role: "alert" });
  const form = h(
    "form",
    { method: "dialog", novalidate: true },
    h("h2", { id }, title),
    ...content,
    error,
    h(
      "div",
      { class: "actions" },
      ...buttons.map((button) =>
        button.kind === "primary"
          ? h("button", {
            type: "submit",
            value: button.value,
            class: "primary",
          }, button.label)
          : h("button", {
            type: "button",
            class: button.kind ?? "",
            onclick: () => {
              const refusal = check?.(button.value);
              if (refusal !== undefined) {
                return void (error.textContent = refusal);
              }
              dialog.close(button.value);
            },
          }, button.label)
      ),
    ),
  );
  form.addEventListener("submit", (event) => {
    const submitter = (event as SubmitEvent).submitter;
    const value = submitter instanceof HTMLButtonElement
      ? submitter.value
      : buttons.find((button) => button.kind === "primary")?.value ?? "";
    const refusal = check?.(value);
    if (refusal !== undefined) {
      event.preventDefault();
      error.textContent = refusal;
      return;
    }
    event.preventDefault();
    dialog.close(value);
  });
  dialog.append(form);
  return dialog;
}
