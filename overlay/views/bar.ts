/// <reference lib="dom" />
/**
 * The bar at the bottom of the page, with the alert and the list of
 * problems above it: it shows the session's state and sends the person's
 * actions to the wiring. It holds no state of its own.
 *
 * @module
 */

import type { EditSession } from "../session/session.ts";
import { fieldName } from "../session/pointer.ts";
import { h } from "../ui.ts";

/** What the bar's buttons do. */
export interface BarActions {
  /** Undo across the page. */
  undo(): void;
  /** Redo across the page. */
  redo(): void;
  /** Drop every unsaved change (after asking). */
  discardAll(): void;
  /** Publish with the message typed. */
  publish(): void;
  /** Log out (after asking when changes are unsaved). */
  logout(): void;
  /** Bring a field with a problem into view and focus it. */
  focusProblem(path: string, at: string): void;
  /** Open the Page panel (the fields no region shows). */
  page?(): void;
}

/** The bar's elements, to append to the overlay's interface. */
export interface BarView {
  /** The alert, the problems and the bar. */
  elements: HTMLElement[];
  /** The Publish button. */
  publishButton: HTMLButtonElement;
}

/**
 * Builds the bar and keeps it showing the session's state.
 *
 * @param session the edit session
 * @param actions what the buttons do
 * @returns the bar's elements
 */
export function createBar(session: EditSession, actions: BarActions): BarView {
  const status = h("span", { class: "status", role: "status" }, "Loading…");
  const hint = h(
    "span",
    { class: "hint", hidden: true },
    "Click any outlined text or image to change it.",
  );
  const message = h("input", {
    type: "text",
    maxlength: "120",
    placeholder: "What did you change?",
    enterkeyhint: "send",
  });
  message.addEventListener("input", () => session.setMessage(message.value));
  message.addEventListener("keydown", (event) => {
    if (event.key === "Enter" && !event.isComposing) {
      event.preventDefault();
      actions.publish();
    }
  });
  const button = (label: string, run: () => void, extra = {}) =>
    h("button", { type: "button", onclick: run, ...extra }, label);
  const undo = button("Undo", actions.undo, {
    title: "Undo (Ctrl+Z outside a field)",
  });
  const redo = button("Redo", actions.redo, {
    title: "Redo (Shift+Ctrl+Z outside a field)",
  });
  const discard = button("Discard all", actions.discardAll);
  const publishButton = button("Publish", actions.publish, {
    class: "primary",
  });
  const alertText = h("p", {});
  const alert = h(
    "div",
    { class: "alert", role: "alert", hidden: true },
    alertText,
    button("Dismiss", () => session.setAlert(undefined)),
  );
  const problemList = h("ul", {});
  const problems = h(
    "div",
    {
      class: "problems",
      role: "region",
      "aria-label": "Problems to fix",
      hidden: true,
    },
    problemList,
  );
  const bar = h(
    "div",
    { class: "bar", role: "region", "aria-label": "Page editor" },
    h("span", { class: "title" }, "Editing"),
    status,
    hint,
    actions.page &&
      button("Page", actions.page, {
        title:
          "Page: the fields not shown on the page, such as its description",
      }),
    h("span", { class: "group" }, undo, redo, discard),
    h("label", {}, "Message", message),
    publishButton,
    button("Log out", actions.logout),
  );
  const render = () => {
    status.textContent = session.status.text;
    status.dataset.state = session.status.tone;
    hint.hidden = !(session.status.tone === "clean" &&
      session.pages.length > 0);
    undo.disabled = !session.canUndo;
    redo.disabled = !session.canRedo;
    discard.disabled = session.busy || session.count === 0;
    publishButton.disabled = session.busy;
    if (message.value !== session.message) message.value = session.message;
    alert.hidden = session.alert === undefined;
    alertText.textContent = session.alert ?? "";
    const seen = new Set<string>();
    const items = session.problems.filter((problem) => {
      const key = `${problem.path} ${problem.at} ${problem.reason}`;
      if (seen.has(key)) return false;
      seen.add(key);
      return true;
    });
    problems.hidden = items.length === 0;
    problemList.replaceChildren(
      ...items.map((problem) =>
        h(
          "li",
          {},
          h("button", {
            type: "button",
            class: "link",
            onclick: () => actions.focusProblem(problem.path, problem.at),
          }, fieldName(problem.at)),
          ` ${problem.sentence}`,
        )
      ),
    );
  };
  session.subscribe((event) => {
    if (event.type === "state") render();
  });
  render();
  return { elements: [problems, alert, bar], publishButton };
}
