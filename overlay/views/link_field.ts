/// <reference lib="dom" />
/**
 * The address field of both link dialogs (a link in rich text, a link
 * object such as a navigation link): the link rule applied as the person
 * types, its reason shown under the field while the address is refused
 * and gone as soon as it is allowed, and a hint that names what the rule
 * allows.
 *
 * @module
 */

import { text, type TextKey } from "../i18n/mod.ts";
import { linkProblem } from "../state/checks.ts";
import { h } from "../ui.ts";

/** An address field, checked as it is typed. */
export interface LinkField {
  /** The label holding the input, its hint and its problem. */
  label: HTMLElement;
  /** The input. */
  input: HTMLInputElement;
  /**
   * Checks the address now.
   *
   * @param empty what an empty address is told (nothing: no problem shown)
   * @returns the refusal shown, if any
   */
  check(empty?: TextKey): string | undefined;
}

/**
 * Builds an address field.
 *
 * @param value the address now
 * @param hint the key of its hint
 * @param list the id of a datalist of addresses to pick from, if any
 * @returns the field
 */
export function linkField(
  value: string,
  hint: TextKey,
  list?: string,
): LinkField {
  const id = `inpage-${Math.random().toString(36).slice(2)}`;
  const problem = h("p", {
    class: "problem",
    id: `${id}-problem`,
    "aria-live": "polite",
  });
  const input = h("input", {
    type: "text",
    value,
    list,
    "aria-describedby": `${id}-hint ${id}-problem`,
    autocomplete: "off",
    spellcheck: "false",
  });
  const label = h(
    "label",
    {},
    text("address"),
    input,
    h("span", { class: "hint", id: `${id}-hint` }, text(hint)),
    problem,
  );
  let empty: TextKey | undefined;
  const check = (said?: TextKey) => {
    if (said !== undefined) empty = said;
    const address = input.value.trim();
    const refusal = address === ""
      ? empty === undefined ? undefined : text(empty)
      : linkProblem(address)
      ? text("linkNotAllowed")
      : undefined;
    if (refusal === undefined) input.removeAttribute("aria-invalid");
    else input.setAttribute("aria-invalid", "true");
    problem.textContent = refusal ?? "";
    return refusal;
  };
  input.addEventListener("input", () => check());
  return { label, input, check };
}
