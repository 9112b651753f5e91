/// <reference lib="dom" />
/**
 * An image's alternative text, edited on its own (no new file): an "Alt
 * text" control beside each image region opens a dialog with the text and
 * a "Decorative image" switch. A decorative image is marked explicitly and
 * gets an empty `alt`; any other image needs words. Ticking the switch
 * keeps what was typed (greyed), and unticking it brings it back.
 *
 * @module
 */

import { INPAGE_ATTRIBUTES } from "../../lib/wire/regions.ts";
import { text } from "../i18n/mod.ts";
import { h, messageDialog, showDialog } from "../ui.ts";

const BUTTON_CSS = `
:host { all: initial; display: block; margin-top: 6px; }
button { all: unset; box-sizing: border-box; display: inline-flex; align-items: center; height: 30px; padding: 0 10px; border-radius: 6px; background: #fff; color: #1e3a8a; border: 1px solid #2563eb; font: 600 13px/1 system-ui, -apple-system, "Segoe UI", Roboto, sans-serif; cursor: pointer; }
button:hover { background: #dbeafe; }
button:focus-visible { outline: 3px solid #f59e0b; outline-offset: 1px; }
`;

let sheet: CSSStyleSheet | undefined;

/**
 * The alt text field and its "Decorative image" switch, for a dialog.
 *
 * @param alt the current alt text (`""`: decorative; `undefined`: none yet)
 * @returns the elements and a reader of the answer
 */
export function altFields(alt: string | undefined): {
  elements: HTMLElement[];
  input: HTMLInputElement;
  decorative: HTMLInputElement;
  /** The alt to store: `""` for a decorative image. */
  value(): string;
  /** Why it cannot be stored yet, if so. */
  problem(): string | undefined;
} {
  const input = h("input", { type: "text", value: alt ?? "" });
  const decorative = h("input", {
    type: "checkbox",
    checked: alt === "",
  });
  const sync = () => {
    input.disabled = decorative.checked;
  };
  decorative.addEventListener("change", sync);
  sync();
  return {
    elements: [
      h(
        "label",
        {},
        text("altText"),
        input,
        h(
          "span",
          { class: "hint" },
          text("altHint"),
        ),
      ),
      h(
        "label",
        { class: "check" },
        h("span", { class: "row" }, decorative, text("decorative")),
        h(
          "span",
          { class: "hint" },
          text("decorativeHint"),
        ),
      ),
    ],
    input,
    decorative,
    value: () => decorative.checked ? "" : input.value.trim(),
    problem: () =>
      !decorative.checked && input.value.trim() === ""
        ? text("newFileNewAlt")
        : undefined,
  };
}

/**
 * Asks for an image's alt text.
 *
 * @param root the overlay's shadow root
 * @param alt the current alt text
 * @returns the new alt text (`""` for a decorative image), or `undefined`
 *   when cancelled
 */
export async function editAlt(
  root: ShadowRoot,
  alt: string | undefined,
): Promise<string | undefined> {
  const fields = altFields(alt);
  const dialog = messageDialog(
    text("editAlt"),
    fields.elements,
    [
      { label: text("cancel"), value: "cancel" },
      { label: text("apply"), value: "apply", kind: "primary" },
    ],
    (answer) => answer === "apply" ? fields.problem() : undefined,
  );
  const clear = () => {
    const error = dialog.querySelector(".error");
    if (error) error.textContent = "";
  };
  fields.input.addEventListener("input", clear);
  fields.decorative.addEventListener("change", clear);
  if (await showDialog(root, dialog) !== "apply") return undefined;
  return fields.value();
}

/**
 * Adds the "Alt text" control after an image region's element.
 *
 * @param element the image region's element
 * @param open what the control does
 * @returns the control's host element
 */
export function addAltControl(
  element: HTMLElement,
  open: () => void,
): HTMLElement {
  const host = h("span", { [INPAGE_ATTRIBUTES.altControl]: "" });
  const shadow = host.attachShadow({ mode: "open" });
  if (!sheet) {
    sheet = new CSSStyleSheet();
    sheet.replaceSync(BUTTON_CSS);
  }
  shadow.adoptedStyleSheets = [sheet];
  shadow.append(
    h("button", {
      type: "button",
      title: text("editAltTitle"),
      onclick: open,
    }, text("editAlt")),
  );
  element.after(host);
  return host;
}
