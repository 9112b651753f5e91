/// <reference lib="dom" />
/**
 * What shows above the bar: the problems to fix (every problem of the
 * state, each naming its field, which a click brings into view) and the
 * alert (a sentence that stays until dismissed). On a phone the problems
 * are one line until opened. They are docked with the bar
 * (`dock.ts`), which keeps the field being edited above them.
 *
 * @module
 */

import { plural, text } from "../i18n/mod.ts";
import { problemsOf } from "../state/problems.ts";
import type { EditState } from "../state/state.ts";
import type { Store } from "../store.ts";
import { h } from "../ui.ts";
import { alertWords, problemWords } from "./words.ts";

/** What the notices need from the controller. */
export interface NoticeActions {
  /** Brings a field with a problem into view and focuses it. */
  focusProblem(path: string, at: string): void;
  /** Hides the alert. */
  dismiss(): void;
  /** A field's name for a person, where the page shows it. */
  fieldLabel(path: string, at: string): string;
}

/** The problems and the alert, to append to the overlay's interface. */
export interface NoticesView {
  /** The problems. */
  problems: HTMLElement;
  /** The alert. */
  alert: HTMLElement;
}

/** The problems list: a summary line that opens to the list. */
function problemsBox(actions: NoticeActions) {
  const list = h("ul", {});
  const summary = h("summary", {});
  const details = h("details", { open: innerWidth > 640 }, summary, list);
  const box = h("div", {
    class: "problems",
    role: "region",
    "aria-label": text("problemsLabel"),
    hidden: true,
  }, details);
  return {
    box,
    render(state: EditState) {
      const items = problemsOf(state);
      box.hidden = items.length === 0;
      summary.textContent = plural("problemsCount", items.length);
      list.replaceChildren(
        ...items.map((problem) =>
          h(
            "li",
            {},
            h("button", {
              type: "button",
              class: "link",
              onclick: () => actions.focusProblem(problem.path, problem.at),
            }, actions.fieldLabel(problem.path, problem.at)),
            ` ${problemWords(problem)}`,
          )
        ),
      );
    },
  };
}

/**
 * Builds the problems and the alert, kept showing the edit state.
 *
 * @param store the store
 * @param actions what their buttons do
 * @returns their elements
 */
export function createNotices(
  store: Store,
  actions: NoticeActions,
): NoticesView {
  const problems = problemsBox(actions);
  const words = h("p", {});
  const alert = h(
    "div",
    { class: "alert", role: "alert", hidden: true },
    words,
    h("button", { type: "button", onclick: actions.dismiss }, text("dismiss")),
  );
  const render = (state: EditState) => {
    problems.render(state);
    alert.hidden = state.alert === undefined;
    words.textContent = state.alert ? alertWords(state.alert) : "";
  };
  store.subscribe(render);
  render(store.state);
  return { problems: problems.box, alert };
}
